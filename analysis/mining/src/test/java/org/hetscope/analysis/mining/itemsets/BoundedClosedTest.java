package org.hetscope.analysis.mining.itemsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link ItemsetMiner#closedAtMost}: at most the wanted number of closed itemsets, at the smallest support that
 * allows it, checked against plain closed mining at every support from the requested one upwards.
 */
class BoundedClosedTest {
    @Test
    void smallestSupportWithinTheMaximum() {
        Random rnd = new Random(3);
        int raised = 0;
        for (int round = 0; round < 60; round++) {
            TransactionDatabase.Builder b = TransactionDatabase.builder();
            int n = 5 + rnd.nextInt(40);
            int items = 3 + rnd.nextInt(12);
            for (int t = 0; t < n; t++) {
                Set<String> tx = new LinkedHashSet<>();
                for (int i = 0; i < items; i++) {
                    if (rnd.nextInt(100) < 60) {
                        tx.add("i" + i);
                    }
                }
                b.add(tx);
            }
            TransactionDatabase db = b.build();
            int requested = 1 + rnd.nextInt(Math.max(1, n / 3));
            for (int max : new int[] {1, 3, 10, 50}) {
                ItemsetMiner.Bounded got = ItemsetMiner.closedAtMost(db, MinSupport.atLeast(requested), max);
                int expectedCount = requested;
                List<Itemset> expected = ItemsetMiner.closed(db, MinSupport.atLeast(expectedCount));
                while (expected.size() > max) {
                    expected = ItemsetMiner.closed(db, MinSupport.atLeast(++expectedCount));
                }
                String at = "round " + round + " requested " + requested + " max " + max;
                assertEquals(requested, got.requestedCount(), at);
                assertEquals(expectedCount, got.usedCount(), at);
                assertEquals(expected, got.itemsets(), at);
                assertTrue(got.itemsets().size() <= max, at);
                raised += got.raised() ? 1 : 0;
            }
            assertEquals(ItemsetMiner.closed(db, MinSupport.atLeast(requested)),
                    ItemsetMiner.closedAtMost(db, MinSupport.atLeast(requested), 0).itemsets());
        }
        assertTrue(raised > 20, "raised " + raised);
    }
}
