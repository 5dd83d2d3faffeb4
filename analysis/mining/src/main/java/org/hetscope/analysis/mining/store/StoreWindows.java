package org.hetscope.analysis.mining.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.hetscope.analysis.mining.itemsets.Itemset;
import org.hetscope.analysis.mining.itemsets.TransactionDatabase;
import org.hetscope.analysis.mining.sequences.SequenceDatabase;
import org.hetscope.store.Store;

/**
 * Turns an imported trace into transactions and sequences for the miners: the selected slices (and optionally
 * instants) are cut into fixed windows of {@code window} ns from the first selected event, each event going to the
 * window of its start. A window's transaction is the set of its events' items; its sequence is the items in start
 * order (ties by id). The item of an event is chosen by {@link Vocabulary}, optionally prefixed with its track (the
 * analogue of the thesis' CPU prefix for GPU streams, threads and workers).
 */
public final class StoreWindows {
    /** What an event's item says. */
    public enum Vocabulary {
        /** The slice name, e.g. the kernel name. */
        NAME,
        /** Category and name, e.g. {@code kernel:gemm}. */
        CATEGORY_NAME,
        /** The category only, e.g. {@code memcpy}. */
        CATEGORY
    }

    /**
     * Selection and shape of the windows.
     *
     * @param categories  slice categories to use (labels of {@link org.hetscope.model.Category}); empty: all
     * @param instants    whether instants count as events too
     * @param trackPrefix whether items are prefixed with their track name ({@code "stream 7|gemm"})
     */
    public record Options(long window, List<String> categories, boolean instants, Vocabulary vocabulary,
                          boolean trackPrefix) {
        public Options {
            if (window <= 0) {
                throw new IllegalArgumentException("the window length must be positive");
            }
            categories = categories.stream().map(c -> c.toLowerCase(Locale.ROOT)).toList();
        }
    }

    /**
     * The windows of a store: their start times, the items per window in start order, and how long each item's
     * events last in each window (for ranking patterns by the time they cover).
     */
    public record Windows(long origin, long window, List<List<String>> sequences, List<Map<String, Long>> busy) {
        public TransactionDatabase transactions() {
            TransactionDatabase.Builder b = TransactionDatabase.builder();
            sequences.forEach(s -> b.add(new LinkedHashSet<>(s)));
            return b.build();
        }

        public SequenceDatabase sequenceDatabase() {
            return SequenceDatabase.of(sequences);
        }

        /** Total duration of the pattern's events in the windows whose transaction holds all of its items. */
        public long timeCovered(List<String> items) {
            long total = 0;
            Set<String> need = Set.copyOf(items);
            for (int w = 0; w < sequences.size(); w++) {
                Map<String, Long> b = busy.get(w);
                if (b.keySet().containsAll(need)) {
                    for (String i : need) {
                        total += b.get(i);
                    }
                }
            }
            return total;
        }

        public long timeCovered(Itemset s) {
            return timeCovered(s.items());
        }
    }

    private StoreWindows() {}

    public static Windows read(Store store, Options o) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT s.ts, s.dur, s.name, s.category, t.name, s.id, 0 AS kind "
                + "FROM slice s LEFT JOIN track t ON t.id = s.track_id");
        if (!o.categories().isEmpty()) {
            sql.append(" WHERE s.category IN (").append("?,".repeat(o.categories().size() - 1)).append("?)");
        }
        if (o.instants()) {
            sql.append(" UNION ALL SELECT i.ts, 0, i.name, i.category, t.name, i.id, 1 FROM instant i "
                    + "LEFT JOIN track t ON t.id = i.track_id");
            if (!o.categories().isEmpty()) {
                sql.append(" WHERE i.category IN (").append("?,".repeat(o.categories().size() - 1)).append("?)");
            }
        }
        sql.append(" ORDER BY 1, 7, 6");
        List<List<String>> sequences = new ArrayList<>();
        List<Map<String, Long>> busy = new ArrayList<>();
        long origin = 0;
        boolean first = true;
        try (PreparedStatement ps = store.connection().prepareStatement(sql.toString())) {
            int p = 1;
            for (int rep = 0; rep < (o.instants() ? 2 : 1); rep++) {
                for (String c : o.categories()) {
                    ps.setString(p++, c);
                }
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long ts = rs.getLong(1);
                    long dur = rs.getLong(2);
                    if (first) {
                        origin = ts;
                        first = false;
                    }
                    long index = (ts - origin) / o.window();
                    if (index >= org.hetscope.analysis.mining.windows.FixedWindows.MAX_WINDOWS) {
                        throw new IllegalArgumentException("more than "
                                + org.hetscope.analysis.mining.windows.FixedWindows.MAX_WINDOWS
                                + " windows: choose a longer window");
                    }
                    while (sequences.size() <= index) {
                        sequences.add(new ArrayList<>());
                        busy.add(new HashMap<>());
                    }
                    String item = item(o, rs.getString(3), rs.getString(4), rs.getString(5));
                    sequences.get((int) index).add(item);
                    busy.get((int) index).merge(item, Math.max(0, dur), Long::sum);
                }
            }
        }
        return new Windows(origin, o.window(), sequences, busy);
    }

    static String item(Options o, String name, String category, String track) {
        String base = switch (o.vocabulary()) {
            case NAME -> name;
            case CATEGORY_NAME -> category + ":" + name;
            case CATEGORY -> category;
        };
        return o.trackPrefix() ? (track == null ? "?" : track) + "|" + base : base;
    }
}
