package org.hetscope.analysis.mining.itemsets;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * The working form the depth-first miners share: infrequent items dropped, the frequent ones renumbered by rank
 * (rank 0 = most frequent, ties by item id), every transaction sorted by rank. Extensions of an itemset only use
 * ranks above its tail, which are the rarer items, so the projected tid lists stay short.
 */
final class RankedDatabase {
    final int[] offsets;
    final int[] ranks;
    final int[] itemOfRank;
    final int[] countOfRank;
    final int transactions;

    RankedDatabase(TransactionDatabase db, int minCount) {
        int[] counts = db.itemCounts();
        Integer[] frequent = IntStream.range(0, counts.length).filter(i -> counts[i] >= minCount).boxed()
                .toArray(Integer[]::new);
        Arrays.sort(frequent, Comparator.<Integer>comparingInt(i -> -counts[i]).thenComparingInt(i -> i));
        itemOfRank = new int[frequent.length];
        countOfRank = new int[frequent.length];
        int[] rankOfItem = new int[counts.length];
        Arrays.fill(rankOfItem, -1);
        for (int r = 0; r < frequent.length; r++) {
            itemOfRank[r] = frequent[r];
            countOfRank[r] = counts[frequent[r]];
            rankOfItem[frequent[r]] = r;
        }
        transactions = db.size();
        int[] packed = db.packedItems();
        int total = 0;
        for (int t = 0; t < transactions; t++) {
            int s = db.start(t);
            for (int i = s, e = s + db.length(t); i < e; i++) {
                if (rankOfItem[packed[i]] >= 0) {
                    total++;
                }
            }
        }
        offsets = new int[transactions + 1];
        ranks = new int[total];
        int p = 0;
        for (int t = 0; t < transactions; t++) {
            int s = db.start(t);
            int from = p;
            for (int i = s, e = s + db.length(t); i < e; i++) {
                int r = rankOfItem[packed[i]];
                if (r >= 0) {
                    ranks[p++] = r;
                }
            }
            Arrays.sort(ranks, from, p);
            offsets[t + 1] = p;
        }
    }

    int items() {
        return itemOfRank.length;
    }
}
