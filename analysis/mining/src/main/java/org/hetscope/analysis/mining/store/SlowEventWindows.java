package org.hetscope.analysis.mining.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.hetscope.analysis.mining.contention.ContentionPattern;
import org.hetscope.analysis.mining.itemsets.Itemset;
import org.hetscope.analysis.mining.itemsets.ItemsetMiner;
import org.hetscope.analysis.mining.itemsets.MinSupport;
import org.hetscope.analysis.mining.itemsets.TransactionDatabase;
import org.hetscope.analysis.mining.windows.ContentionWindow;
import org.hetscope.analysis.mining.windows.ContentionWindows;
import org.hetscope.analysis.mining.windows.Quantiles;
import org.hetscope.store.Store;

/**
 * Method II of the thesis on an imported trace, with slice duration in place of access latency: slices of the seed
 * category (e.g. kernels) lasting at least the third quartile (type 7) of their durations, or a given threshold, are
 * the slow events; each not yet absorbed one opens a window of width omega centred on its start; the window's
 * transaction holds the items (names, optionally also track-prefixed) of the selected slices starting in it; closed
 * itemsets at epsilon say which events come together when things are slow.
 */
public final class SlowEventWindows {
    /**
     * Parameters.
     *
     * @param seedCategory category whose slow slices open windows
     * @param categories   categories whose slices fill the windows (empty: all)
     * @param threshold    slow-duration threshold in ns; null means Q3 of the seed category's durations
     * @param maxPatterns  when epsilon gives more closed patterns than this, the smallest higher support that
     *                     gives at most this many is used ({@link ItemsetMiner#closedAtMost}); 0: no maximum
     */
    public record Options(String seedCategory, List<String> categories, long omega, Double threshold,
                          boolean plainItems, boolean trackItems, MinSupport epsilon, int maxPatterns) {
        public Options {
            seedCategory = seedCategory.toLowerCase(Locale.ROOT);
            categories = categories.stream().map(c -> c.toLowerCase(Locale.ROOT)).toList();
        }

        public Options(String seedCategory, List<String> categories, long omega, Double threshold,
                       boolean plainItems, boolean trackItems, MinSupport epsilon) {
            this(seedCategory, categories, omega, threshold, plainItems, trackItems, epsilon, 0);
        }
    }

    /** The threshold used, the slow events, the windows, their transactions and the closed patterns. */
    public record Result(double threshold, int seeds, List<ContentionWindow> windows, TransactionDatabase transactions,
                         List<ContentionPattern> patterns, int supportRequested, int supportUsed) {}

    private SlowEventWindows() {}

    public static Result analyse(Store store, Options o) throws SQLException {
        List<String> cats = new ArrayList<>(o.categories());
        if (!cats.isEmpty() && !cats.contains(o.seedCategory())) {
            cats.add(o.seedCategory());
        }
        StringBuilder sql = new StringBuilder("SELECT s.ts, s.dur, s.name, s.category, t.name FROM slice s "
                + "LEFT JOIN track t ON t.id = s.track_id");
        if (!cats.isEmpty()) {
            sql.append(" WHERE s.category IN (").append("?,".repeat(cats.size() - 1)).append("?)");
        }
        sql.append(" ORDER BY s.ts, s.id");
        List<long[]> timing = new ArrayList<>();
        List<String[]> labels = new ArrayList<>();
        try (PreparedStatement ps = store.connection().prepareStatement(sql.toString())) {
            for (int i = 0; i < cats.size(); i++) {
                ps.setString(i + 1, cats.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    timing.add(new long[] {rs.getLong(1), rs.getLong(2)});
                    labels.add(new String[] {rs.getString(3), rs.getString(4), rs.getString(5)});
                }
            }
        }
        int n = timing.size();
        long[] times = new long[n];
        List<Long> seedDurations = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            times[i] = timing.get(i)[0];
            if (o.seedCategory().equals(labels.get(i)[1])) {
                seedDurations.add(timing.get(i)[1]);
            }
        }
        if (seedDurations.isEmpty()) {
            throw new IllegalArgumentException("no slice of category '" + o.seedCategory() + "' in " + store.file());
        }
        double threshold = o.threshold() != null ? o.threshold()
                : Quantiles.q3(seedDurations.stream().mapToLong(Long::longValue).toArray());
        boolean[] seed = new boolean[n];
        int seeds = 0;
        for (int i = 0; i < n; i++) {
            if (o.seedCategory().equals(labels.get(i)[1]) && timing.get(i)[1] >= threshold) {
                seed[i] = true;
                seeds++;
            }
        }
        List<ContentionWindow> windows = ContentionWindows.find(times, seed, o.omega());
        TransactionDatabase.Builder b = TransactionDatabase.builder();
        for (ContentionWindow w : windows) {
            Set<String> t = new LinkedHashSet<>();
            for (int i = w.first(); i < w.last(); i++) {
                String[] l = labels.get(i);
                if (!o.categories().isEmpty() && !o.categories().contains(l[1])) {
                    continue;
                }
                if (o.plainItems()) {
                    t.add(l[0]);
                }
                if (o.trackItems()) {
                    t.add((l[2] == null ? "?" : l[2]) + "|" + l[0]);
                }
            }
            b.add(t);
        }
        TransactionDatabase db = b.build();
        List<ContentionPattern> patterns = new ArrayList<>();
        ItemsetMiner.Bounded mined = ItemsetMiner.closedAtMost(db, o.epsilon(), o.maxPatterns());
        for (Itemset p : mined.itemsets()) {
            patterns.add(new ContentionPattern(p, p.support(), windows.size(), covered(db, windows, p), 0,
                    Double.NaN));
        }
        return new Result(threshold, seeds, windows, db, patterns, mined.requestedCount(), mined.usedCount());
    }

    private static long covered(TransactionDatabase db, List<ContentionWindow> windows, Itemset p) {
        int[] ids = p.items().stream().mapToInt(db.dictionary()::find).sorted().toArray();
        long total = 0;
        long end = Long.MIN_VALUE;
        for (int t = 0; t < windows.size(); t++) {
            if (db.contains(t, ids)) {
                ContentionWindow w = windows.get(t);
                long from = Math.max(w.from(), end);
                if (w.to() > from) {
                    total += w.to() - from;
                }
                end = Math.max(end, w.to());
            }
        }
        return total;
    }
}
