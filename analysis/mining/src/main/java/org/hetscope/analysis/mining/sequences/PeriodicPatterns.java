package org.hetscope.analysis.mining.sequences;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.hetscope.analysis.mining.itemsets.ItemsetMiner;
import org.hetscope.analysis.mining.itemsets.Itemset;
import org.hetscope.analysis.mining.itemsets.MinSupport;
import org.hetscope.analysis.mining.itemsets.TransactionDatabase;

/**
 * Periodic patterns over time-ordered transactions (Example 3.6.4 of the thesis): for every frequent itemset and
 * every period p in [minPeriod, maxPeriod], the maximal cycles start, start+p, ... of at least {@code minLength}
 * transactions that all hold the itemset. A cycle is maximal when the transactions p before its start and p after
 * its end lack the itemset (or do not exist); cycles of one period never overlap, since each occurrence has one
 * predecessor at distance p.
 */
public final class PeriodicPatterns {
    private PeriodicPatterns() {}

    public static List<PeriodicPattern> mine(TransactionDatabase db, int minPeriod, int maxPeriod, int minLength) {
        if (minPeriod < 1 || maxPeriod < minPeriod || minLength < 2) {
            throw new IllegalArgumentException("need 1 <= minPeriod <= maxPeriod and minLength >= 2");
        }
        List<PeriodicPattern> out = new ArrayList<>();
        for (Itemset set : ItemsetMiner.frequent(db, MinSupport.atLeast(minLength))) {
            boolean[] holds = new boolean[db.size()];
            int[] ids = set.items().stream().mapToInt(db.dictionary()::find).toArray();
            java.util.Arrays.sort(ids);
            for (int t = 0; t < db.size(); t++) {
                holds[t] = db.contains(t, ids);
            }
            for (int p = minPeriod; p <= maxPeriod; p++) {
                for (int t = 0; t < holds.length; t++) {
                    if (!holds[t] || (t - p >= 0 && holds[t - p])) {
                        continue;
                    }
                    int length = 0;
                    for (int u = t; u < holds.length && holds[u]; u += p) {
                        length++;
                    }
                    if (length >= minLength) {
                        out.add(new PeriodicPattern(set.items(), t + 1, p, length));
                    }
                }
            }
        }
        out.sort(Comparator.comparingInt((PeriodicPattern x) -> -x.length())
                .thenComparing(x -> -x.items().size())
                .thenComparing(x -> String.join("\u0000", x.items()))
                .thenComparingInt(PeriodicPattern::period).thenComparingInt(PeriodicPattern::start));
        return out;
    }
}
