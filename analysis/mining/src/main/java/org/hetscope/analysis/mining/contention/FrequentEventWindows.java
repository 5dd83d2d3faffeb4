package org.hetscope.analysis.mining.contention;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.hetscope.analysis.mining.itemsets.Itemset;
import org.hetscope.analysis.mining.itemsets.ItemsetMiner;
import org.hetscope.analysis.mining.itemsets.MinSupport;
import org.hetscope.analysis.mining.itemsets.TransactionDatabase;
import org.hetscope.analysis.mining.memtrace.AccessEvent;
import org.hetscope.analysis.mining.windows.FixedWindows;

/**
 * Contention discovery, method I (thesis section 5.3, spec section 4): fixed windows of length delta; in each, the
 * symbols that at least {@code minSupC} CPUs produced (Definition 3, with "at least"); one transaction per window
 * of CPU-prefixed frequent symbols; closed itemsets over the windows at {@code minSupW}; then the utilisation
 * U(P, w) = (1/delta) * sum of the latencies of the window's events whose item is in P, and the window counts as
 * contended when U exceeds the bound (ln 2 by default).
 */
public final class FrequentEventWindows {
    /** Parameters of method I; {@code origin} null means the first event's time. */
    public record Config(long delta, Long origin, int minSupC, MinSupport minSupW, EventVocabulary vocabulary,
                         boolean cpuItems, double bound) {
        public static Config defaults(long delta, int minSupC, MinSupport minSupW) {
            return new Config(delta, null, minSupC, minSupW, EventVocabulary.METHOD_I, true, UtilisationBound.LN2);
        }

        public Config withVocabulary(EventVocabulary v, boolean cpu) {
            return new Config(delta, origin, minSupC, minSupW, v, cpu, bound);
        }

        public Config withOrigin(Long o) {
            return new Config(delta, o, minSupC, minSupW, vocabulary, cpuItems, bound);
        }

        public Config withBound(double b) {
            return new Config(delta, origin, minSupC, minSupW, vocabulary, cpuItems, b);
        }
    }

    /** What method I found: the windows, their transactions, and the patterns with their scores. */
    public record Result(FixedWindows windows, TransactionDatabase transactions, List<ContentionPattern> patterns,
                         List<Map<String, Long>> latencyByItem, long delta) {
        /** U(P, w) for every window w, NaN where the window's transaction lacks P. */
        public double[] utilisation(Itemset p) {
            double[] u = new double[latencyByItem.size()];
            for (int w = 0; w < u.length; w++) {
                Map<String, Long> sums = latencyByItem.get(w);
                if (!sums.keySet().containsAll(p.items())) {
                    u[w] = Double.NaN;
                    continue;
                }
                long total = 0;
                for (String item : p.items()) {
                    total += sums.get(item);
                }
                u[w] = (double) total / delta;
            }
            return u;
        }
    }

    private FrequentEventWindows() {}

    /** Definition 3: the symbols held by at least {@code minSupC} of the CPUs' sets. */
    public static Set<String> frequentEvents(Map<Integer, ? extends Set<String>> symbolsByCpu, int minSupC) {
        Map<String, Integer> cpus = new HashMap<>();
        symbolsByCpu.values().forEach(s -> s.forEach(x -> cpus.merge(x, 1, Integer::sum)));
        Set<String> out = new TreeSet<>();
        cpus.forEach((x, n) -> {
            if (n >= minSupC) {
                out.add(x);
            }
        });
        return out;
    }

    /** Runs method I over the execution trace (events sorted by time). */
    public static Result analyse(List<AccessEvent> et, Config c) {
        if (et.isEmpty()) {
            throw new IllegalArgumentException("the trace holds no events");
        }
        long origin = c.origin() == null ? et.get(0).t() : c.origin();
        FixedWindows fw = new FixedWindows(origin, c.delta(), Math.max(origin, et.get(et.size() - 1).t()));
        int nw = fw.count();
        List<Map<Integer, Set<String>>> symbols = new ArrayList<>(nw);
        List<Map<String, Long>> latency = new ArrayList<>(nw);
        for (int w = 0; w < nw; w++) {
            symbols.add(new TreeMap<>());
            latency.add(new HashMap<>());
        }
        for (AccessEvent e : et) {
            int w = fw.index(e.t());
            if (w >= 0) {
                symbols.get(w).computeIfAbsent(e.cpu(), k -> new HashSet<>()).addAll(c.vocabulary().symbols(e));
            }
        }
        List<Set<String>> frequent = new ArrayList<>(nw);
        for (int w = 0; w < nw; w++) {
            frequent.add(frequentEvents(symbols.get(w), c.minSupC()));
        }
        TransactionDatabase.Builder b = TransactionDatabase.builder();
        List<Set<String>> transactions = new ArrayList<>(nw);
        for (int w = 0; w < nw; w++) {
            Set<String> t = new TreeSet<>();
            for (Map.Entry<Integer, Set<String>> byCpu : symbols.get(w).entrySet()) {
                for (String x : byCpu.getValue()) {
                    if (frequent.get(w).contains(x)) {
                        t.add(item(c, byCpu.getKey(), x));
                    }
                }
            }
            transactions.add(t);
            b.add(t);
        }
        for (AccessEvent e : et) {
            int w = fw.index(e.t());
            if (w < 0) {
                continue;
            }
            for (String x : c.vocabulary().symbols(e)) {
                if (frequent.get(w).contains(x)) {
                    latency.get(w).merge(item(c, e.cpu(), x), e.latency(), Long::sum);
                }
            }
        }
        TransactionDatabase db = b.build();
        List<Itemset> closed = ItemsetMiner.closed(db, c.minSupW());
        Result partial = new Result(fw, db, List.of(), latency, c.delta());
        List<ContentionPattern> patterns = new ArrayList<>();
        for (Itemset p : closed) {
            double[] u = partial.utilisation(p);
            int contended = 0;
            long covered = 0;
            double max = 0;
            for (int w = 0; w < nw; w++) {
                if (!Double.isNaN(u[w])) {
                    covered += fw.end(w) - fw.start(w);
                    max = Math.max(max, u[w]);
                    if (u[w] > c.bound()) {
                        contended++;
                    }
                }
            }
            patterns.add(new ContentionPattern(p, p.support(), nw, covered, contended, max));
        }
        return new Result(fw, db, patterns, latency, c.delta());
    }

    private static String item(Config c, int cpu, String symbol) {
        return c.cpuItems() ? "CPU" + cpu + "_" + symbol : symbol;
    }
}
