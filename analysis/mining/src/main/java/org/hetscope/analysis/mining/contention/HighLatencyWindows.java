package org.hetscope.analysis.mining.contention;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.hetscope.analysis.mining.itemsets.Itemset;
import org.hetscope.analysis.mining.itemsets.ItemsetMiner;
import org.hetscope.analysis.mining.itemsets.MinSupport;
import org.hetscope.analysis.mining.itemsets.TransactionDatabase;
import org.hetscope.analysis.mining.memtrace.AccessEvent;
import org.hetscope.analysis.mining.windows.ContentionWindow;
import org.hetscope.analysis.mining.windows.ContentionWindows;
import org.hetscope.analysis.mining.windows.Quantiles;

/**
 * Contention discovery, method II (thesis section 5.5, spec section 5): the high latencies are those at or above
 * the third quartile (type 7) of the latencies of non-hit accesses; each not yet absorbed high-latency event opens a
 * window of width omega centred on it; each window becomes one transaction of the events' symbols, plain and
 * prefixed with the CPU; closed itemsets at support epsilon are the contention patterns.
 */
public final class HighLatencyWindows {
    /**
     * Parameters of method II.
     *
     * @param hitLatency accesses with latency at or below this are cache hits, left out of L and never seeds
     *                   (negative: keep all)
     * @param threshold  the high-latency threshold; null means Q3 of L
     * @param maxPatterns when epsilon gives more closed patterns than this, the smallest higher support that gives
     *                    at most this many is used instead ({@link ItemsetMiner#closedAtMost}); 0: no maximum
     */
    public record Config(long omega, long hitLatency, Double threshold, EventVocabulary vocabulary,
                         boolean plainItems, boolean cpuItems, MinSupport epsilon, int maxPatterns) {
        public Config(long omega, long hitLatency, Double threshold, EventVocabulary vocabulary, boolean plainItems,
                      boolean cpuItems, MinSupport epsilon) {
            this(omega, hitLatency, threshold, vocabulary, plainItems, cpuItems, epsilon, 0);
        }

        public static Config defaults(long omega, MinSupport epsilon) {
            return new Config(omega, -1, null, EventVocabulary.METHOD_II, true, true, epsilon);
        }

        public Config withMaxPatterns(int max) {
            return new Config(omega, hitLatency, threshold, vocabulary, plainItems, cpuItems, epsilon, max);
        }

        public Config withThreshold(Double t) {
            return new Config(omega, hitLatency, t, vocabulary, plainItems, cpuItems, epsilon, maxPatterns);
        }

        public Config withHitLatency(long h) {
            return new Config(omega, h, threshold, vocabulary, plainItems, cpuItems, epsilon, maxPatterns);
        }

        public Config withVocabulary(EventVocabulary v) {
            return new Config(omega, hitLatency, threshold, v, plainItems, cpuItems, epsilon, maxPatterns);
        }

        public Config withItems(boolean plain, boolean cpu) {
            return new Config(omega, hitLatency, threshold, vocabulary, plain, cpu, epsilon, maxPatterns);
        }
    }

    /**
     * What method II found.
     *
     * @param threshold    the high-latency threshold used (Q3 unless given)
     * @param seeds        number of high-latency events
     * @param eventsCovered events of the trace inside at least one window
     */
    public record Result(double threshold, int seeds, List<ContentionWindow> windows, long eventsCovered,
                         int traceEvents, TransactionDatabase transactions, List<ContentionPattern> patterns,
                         int supportRequested, int supportUsed) {
        /** Share of the trace's events that lie in some window (Table 7.5's "% of the trace"). */
        public double traceShare() {
            return traceEvents == 0 ? 0 : (double) eventsCovered / traceEvents;
        }
    }

    private HighLatencyWindows() {}

    public static Result analyse(List<AccessEvent> et, Config c) {
        int n = et.size();
        long[] times = new long[n];
        List<Long> nonHit = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            AccessEvent e = et.get(i);
            times[i] = e.t();
            if (i > 0 && times[i] < times[i - 1]) {
                throw new IllegalArgumentException("events must be sorted by time");
            }
            if (e.latency() > c.hitLatency()) {
                nonHit.add(e.latency());
            }
        }
        if (nonHit.isEmpty()) {
            return new Result(Double.NaN, 0, List.of(), 0, n, TransactionDatabase.builder().build(), List.of(), 0, 0);
        }
        double threshold = c.threshold() != null ? c.threshold()
                : Quantiles.q3(nonHit.stream().mapToLong(Long::longValue).toArray());
        boolean[] seed = new boolean[n];
        int seeds = 0;
        for (int i = 0; i < n; i++) {
            long lat = et.get(i).latency();
            if (lat > c.hitLatency() && lat >= threshold) {
                seed[i] = true;
                seeds++;
            }
        }
        List<ContentionWindow> windows = ContentionWindows.find(times, seed, c.omega());
        TransactionDatabase.Builder b = TransactionDatabase.builder();
        long covered = 0;
        int coveredTo = 0;
        for (ContentionWindow w : windows) {
            b.add(transaction(et, w, c));
            covered += Math.max(0, w.last() - Math.max(w.first(), coveredTo));
            coveredTo = Math.max(coveredTo, w.last());
        }
        TransactionDatabase db = b.build();
        List<ContentionPattern> patterns = new ArrayList<>();
        ItemsetMiner.Bounded mined = ItemsetMiner.closedAtMost(db, c.epsilon(), c.maxPatterns());
        for (Itemset p : mined.itemsets()) {
            patterns.add(new ContentionPattern(p, p.support(), windows.size(), timeCovered(db, windows, p), 0,
                    Double.NaN));
        }
        return new Result(threshold, seeds, windows, covered, n, db, patterns, mined.requestedCount(),
                mined.usedCount());
    }

    /** Algorithm 3: each event's symbols, plain and prefixed with its CPU. */
    static Set<String> transaction(List<AccessEvent> et, ContentionWindow w, Config c) {
        Set<String> t = new LinkedHashSet<>();
        for (int i = w.first(); i < w.last(); i++) {
            AccessEvent e = et.get(i);
            for (String s : c.vocabulary().symbols(e)) {
                if (c.plainItems()) {
                    t.add(s);
                }
                if (c.cpuItems()) {
                    t.add("CPU" + e.cpu() + "_" + s);
                }
            }
        }
        return t;
    }

    /** Length of the union of the windows whose transaction holds the pattern (windows come in time order). */
    private static long timeCovered(TransactionDatabase db, List<ContentionWindow> windows, Itemset p) {
        int[] ids = p.items().stream().mapToInt(db.dictionary()::find).sorted().toArray();
        long total = 0;
        long end = Long.MIN_VALUE;
        for (int t = 0; t < windows.size(); t++) {
            if (!db.contains(t, ids)) {
                continue;
            }
            ContentionWindow w = windows.get(t);
            long from = Math.max(w.from(), end);
            if (w.to() > from) {
                total += w.to() - from;
            }
            end = Math.max(end, w.to());
        }
        return total;
    }
}
