package org.hetscope.analysis.mining.itemsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Dense random databases (few items, hundreds of transactions, many of them repeated) mined by both layouts of the
 * search, projections only and bitsets from the root, and by the automatic choice between them; every result must
 * equal brute force: each subset of the vocabulary counted over the raw transactions, closed sets taken as the
 * distinct closures (intersection of the transactions holding a set).
 */
class DenseOracleTest {
    /** Transactions as bit masks over a vocabulary of at most 12 items. */
    private record Db(int items, int[] masks) {}

    private static Db random(Random rnd) {
        int items = 2 + rnd.nextInt(11);
        int n = 1 + rnd.nextInt(400);
        // A small pool of distinct transactions drawn again and again, so the database holds many duplicates.
        int[] pool = new int[1 + rnd.nextInt(30)];
        double[] p = new double[items];
        for (int i = 0; i < items; i++) {
            p[i] = 0.2 + 0.75 * rnd.nextDouble();
        }
        for (int k = 0; k < pool.length; k++) {
            for (int i = 0; i < items; i++) {
                if (rnd.nextDouble() < p[i]) {
                    pool[k] |= 1 << i;
                }
            }
        }
        int[] masks = new int[n];
        for (int t = 0; t < n; t++) {
            masks[t] = rnd.nextInt(4) == 0 ? randomMask(rnd, p) : pool[rnd.nextInt(pool.length)];
        }
        return new Db(items, masks);
    }

    private static int randomMask(Random rnd, double[] p) {
        int m = 0;
        for (int i = 0; i < p.length; i++) {
            if (rnd.nextDouble() < p[i]) {
                m |= 1 << i;
            }
        }
        return m;
    }

    private static List<String> names(int mask) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            if ((mask & (1 << i)) != 0) {
                out.add("i" + (char) ('a' + i));
            }
        }
        return out;
    }

    private static TransactionDatabase database(Db db) {
        List<List<String>> ts = new ArrayList<>();
        for (int m : db.masks) {
            ts.add(names(m));
        }
        return TransactionDatabase.of(ts);
    }

    private static Map<List<String>, Integer> bruteForce(Db db, int min, boolean closedOnly) {
        Map<List<String>, Integer> out = new HashMap<>();
        for (int x = 1; x < (1 << db.items); x++) {
            int count = 0;
            int closure = -1;
            for (int m : db.masks) {
                if ((m & x) == x) {
                    count++;
                    closure &= m;
                }
            }
            if (count >= min) {
                out.put(names(closedOnly ? closure : x), count);
            }
        }
        if (closedOnly) {
            // The closure of the empty set, when every transaction shares some items.
            int all = -1;
            for (int m : db.masks) {
                all &= m;
            }
            if (db.masks.length >= min && (all & ((1 << db.items) - 1)) != 0) {
                out.put(names(all & ((1 << db.items) - 1)), db.masks.length);
            }
        }
        return out;
    }

    private static Map<List<String>, Integer> mine(TransactionDatabase db, int min, boolean closed,
                                                   ProjectedSearch.Layout layout) {
        Map<List<String>, Integer> out = new HashMap<>();
        new ProjectedSearch(db, min, closed, (items, size, support) -> {
            Itemset s = ItemsetMiner.named(db.dictionary(), items, size, support);
            assertNull(out.put(s.items(), s.support()), "reported twice: " + s);
        }, layout).run();
        return out;
    }

    @Test
    void bothLayoutsMatchBruteForceOnDenseDatabasesWithDuplicates() {
        Random rnd = new Random(20261122L);
        for (int round = 0; round < 300; round++) {
            Db db = random(rnd);
            TransactionDatabase tdb = database(db);
            int min = 1 + rnd.nextInt(Math.max(1, db.masks.length / 3));
            for (boolean closed : new boolean[] {false, true}) {
                Map<List<String>, Integer> expected = bruteForce(db, min, closed);
                for (ProjectedSearch.Layout layout : ProjectedSearch.Layout.values()) {
                    assertEquals(expected, mine(tdb, min, closed, layout), "round " + round + " min " + min
                            + (closed ? " closed " : " frequent ") + layout);
                }
            }
        }
    }

    @Test
    void compressKeepsTheBitsUnderTheMaskInOrder() {
        Random rnd = new Random(5);
        for (int round = 0; round < 200; round++) {
            int words = 1 + rnd.nextInt(6);
            long[] bits = new long[words];
            long[] mask = new long[words];
            for (int w = 0; w < words; w++) {
                bits[w] = rnd.nextLong();
                // Masks from empty to full words, so the packing crosses word borders in every way.
                mask[w] = switch (rnd.nextInt(4)) {
                    case 0 -> 0L;
                    case 1 -> -1L;
                    default -> rnd.nextLong() & rnd.nextLong();
                };
            }
            List<Boolean> kept = new ArrayList<>();
            for (int i = 0; i < words * 64; i++) {
                if ((mask[i >>> 6] >>> i & 1) != 0) {
                    kept.add((bits[i >>> 6] >>> i & 1) != 0);
                }
            }
            long[] expected = new long[(kept.size() + 63) / 64];
            for (int i = 0; i < kept.size(); i++) {
                if (kept.get(i)) {
                    expected[i / 64] |= 1L << (i % 64);
                }
            }
            assertArrayEquals(expected, BitsetSearch.compress(bits, mask, kept.size()), "round " + round);
        }
    }
}
