package org.hetscope.analysis.mining.scalability;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.hetscope.analysis.mining.itemsets.Itemset;
import org.hetscope.analysis.mining.itemsets.ItemsetMiner;
import org.hetscope.analysis.mining.itemsets.MinSupport;
import org.hetscope.analysis.mining.itemsets.TransactionDatabase;
import org.hetscope.analysis.mining.memtrace.SymbolTable;
import org.hetscope.analysis.mining.scalability.TwoMeans.Clustering;

/**
 * Scalability bottlenecks (thesis chapter 6, spec section 7): for each run, per-address features, a deterministic
 * 2-means clustering and its hot cluster; the growth rate of the hot-normal centroid distance against the baseline
 * run (the 1-core run, else the smallest, which the result says); the hot sets of all runs mined as transactions
 * for closed itemsets at min_p; and for each mined set the trend of its summed %time and %acc with the core count.
 */
public final class ScalabilityAnalysis {
    /** Options: which address, the cross-run support, and an optional map of addresses to (function, offset). */
    public record Config(boolean dataAddress, MinSupport minP, SymbolTable driftSymbols) {}

    /** One run's clustering. */
    public record RunResult(Run run, List<AddressFeature> features, Clustering clustering, Set<String> hot,
                            double growthRate) {
        public int hotSize() {
            return hot.size();
        }

        public int normalSize() {
            return features.size() - hot.size();
        }
    }

    /**
     * A set of addresses hot on at least min_p runs.
     *
     * @param pctTime   per run (in run order), summed %time of the set's addresses, NaN where not hot
     * @param hotspot   true when both sums are non-decreasing with the core count over the runs where it is hot and
     *                  rise at least once
     */
    public record HotSet(Itemset itemset, List<String> runs, double[] pctTime, double[] pctAccesses,
                         boolean hotspot) {}

    public record Result(List<RunResult> runs, RunResult baseline, boolean baselineIsSingleCore,
                         List<HotSet> hotSets) {}

    private ScalabilityAnalysis() {}

    public static Result analyse(List<Run> input, Config c) {
        List<Run> runs = new ArrayList<>(input);
        runs.sort(Comparator.comparingInt(Run::cores));
        List<RunResult> results = new ArrayList<>();
        for (Run r : runs) {
            List<AddressFeature> f = AddressProfile.of(r.events(), c.dataAddress());
            double[] x = f.stream().mapToDouble(AddressFeature::pctTime).toArray();
            double[] y = f.stream().mapToDouble(AddressFeature::pctAccesses).toArray();
            long[] key = f.stream().mapToLong(AddressFeature::address).toArray();
            Clustering cl = TwoMeans.cluster(x, y, key);
            Set<String> hot = new TreeSet<>();
            for (int i = 0; i < f.size(); i++) {
                if (cl.hot() >= 0 && cl.cluster()[i] == cl.hot()) {
                    hot.add(item(f.get(i), c.driftSymbols()));
                }
            }
            results.add(new RunResult(r, f, cl, hot, Double.NaN));
        }
        if (results.isEmpty()) {
            return new Result(List.of(), null, false, List.of());
        }
        RunResult base = results.get(0);
        double baseDistance = base.clustering().hot() < 0 ? 0 : base.clustering().centreDistance();
        List<RunResult> withGrowth = new ArrayList<>();
        for (RunResult r : results) {
            double d = r.clustering().hot() < 0 ? 0 : r.clustering().centreDistance();
            withGrowth.add(new RunResult(r.run(), r.features(), r.clustering(), r.hot(), growthRate(baseDistance, d)));
        }
        List<HotSet> sets = new ArrayList<>();
        List<Set<String>> hotSets = withGrowth.stream().map(RunResult::hot).toList();
        for (Itemset s : mineHotSets(hotSets, c.minP())) {
            sets.add(trend(s, withGrowth, c.driftSymbols()));
        }
        return new Result(withGrowth, withGrowth.get(0), base.run().cores() == 1, sets);
    }

    /** Definition 12 with the zero guard: d_p / d_base, NaN ("undefined") when the baseline distance is 0. */
    public static double growthRate(double baseDistance, double distance) {
        return baseDistance == 0 ? Double.NaN : distance / baseDistance;
    }

    /** Step 5: one transaction per run holding its hot addresses; closed itemsets at min_p. */
    public static List<Itemset> mineHotSets(List<? extends Set<String>> hot, MinSupport minP) {
        return ItemsetMiner.closed(TransactionDatabase.of(hot.stream().map(LinkedHashSet::new).toList()), minP);
    }

    private static HotSet trend(Itemset s, List<RunResult> runs, SymbolTable drift) {
        double[] time = new double[runs.size()];
        double[] acc = new double[runs.size()];
        List<String> names = new ArrayList<>();
        double prevT = Double.NaN;
        double prevA = Double.NaN;
        boolean monotone = true;
        boolean rises = false;
        int present = 0;
        for (int j = 0; j < runs.size(); j++) {
            RunResult r = runs.get(j);
            if (!r.hot().containsAll(s.items())) {
                time[j] = Double.NaN;
                acc[j] = Double.NaN;
                continue;
            }
            names.add(r.run().name());
            Map<String, double[]> byItem = new HashMap<>();
            for (AddressFeature f : r.features()) {
                byItem.merge(item(f, drift), new double[] {f.pctTime(), f.pctAccesses()},
                        (a, b) -> new double[] {a[0] + b[0], a[1] + b[1]});
            }
            for (String item : s.items()) {
                double[] v = byItem.get(item);
                time[j] += v[0];
                acc[j] += v[1];
            }
            if (present > 0) {
                if (time[j] < prevT || acc[j] < prevA) {
                    monotone = false;
                }
                if (time[j] > prevT || acc[j] > prevA) {
                    rises = true;
                }
            }
            prevT = time[j];
            prevA = acc[j];
            present++;
        }
        return new HotSet(s, names, time, acc, monotone && rises);
    }

    private static String item(AddressFeature f, SymbolTable drift) {
        if (drift != null) {
            long start = drift.start(f.address());
            if (start >= 0) {
                return drift.function(f.address()) + "+0x" + Long.toHexString(f.address() - start);
            }
        }
        return f.label();
    }
}
