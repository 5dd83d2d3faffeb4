package org.hetscope.analysis.mining.itemsets;

/**
 * All frequent itemsets, depth first in the Eclat manner: every itemset carries the list of transactions that hold
 * it, and the lists of its one-item extensions are obtained in a single scan of those transactions ("occurrence
 * deliver", as in LCM), which gives the same lists as Eclat's pairwise intersections at lower cost.
 */
public final class Eclat {
    private final RankedDatabase db;
    private final int minCount;
    private final ItemsetConsumer out;
    private final int[] prefix;
    private final int[] emitted;
    private final int[][] countsByDepth;
    private final int[][] touchedByDepth;
    private final int[][] slotByDepth;
    private long found;

    private Eclat(TransactionDatabase source, int minCount, ItemsetConsumer out) {
        this.db = new RankedDatabase(source, minCount);
        this.minCount = minCount;
        this.out = out;
        this.prefix = new int[db.items() + 1];
        this.emitted = new int[db.items() + 1];
        this.countsByDepth = new int[db.items() + 1][];
        this.touchedByDepth = new int[db.items() + 1][];
        this.slotByDepth = new int[db.items() + 1][];
    }

    /** Reports every itemset whose support is at least {@code minCount}; returns how many there were. */
    public static long mine(TransactionDatabase source, int minCount, ItemsetConsumer out) {
        Eclat e = new Eclat(source, Math.max(1, minCount), out);
        e.run();
        return e.found;
    }

    private void run() {
        int m = db.items();
        if (m == 0) {
            return;
        }
        int[][] occ = new int[m][];
        for (int r = 0; r < m; r++) {
            occ[r] = new int[db.countOfRank[r]];
        }
        int[] fill = new int[m];
        for (int t = 0; t < db.transactions; t++) {
            for (int i = db.offsets[t]; i < db.offsets[t + 1]; i++) {
                int r = db.ranks[i];
                occ[r][fill[r]++] = t;
            }
        }
        for (int r = 0; r < m; r++) {
            int[] tids = occ[r];
            occ[r] = null;
            prefix[0] = r;
            extend(1, tids, tids.length, r);
        }
    }

    private void extend(int depth, int[] tids, int n, int tail) {
        emit(depth, n);
        int m = db.items();
        int[] counts = countsByDepth[depth];
        int[] touched = touchedByDepth[depth];
        int[] slot = slotByDepth[depth];
        if (counts == null) {
            counts = countsByDepth[depth] = new int[m];
            touched = touchedByDepth[depth] = new int[m];
            slot = slotByDepth[depth] = new int[m];
            java.util.Arrays.fill(slot, -1);
        }
        int[] offsets = db.offsets;
        int[] ranks = db.ranks;
        int touchedCount = 0;
        for (int k = 0; k < n; k++) {
            int t = tids[k];
            for (int i = offsets[t + 1] - 1; i >= offsets[t]; i--) {
                int r = ranks[i];
                if (r <= tail) {
                    break;
                }
                if (counts[r]++ == 0) {
                    touched[touchedCount++] = r;
                }
            }
        }
        int candidates = 0;
        for (int k = 0; k < touchedCount; k++) {
            int r = touched[k];
            if (counts[r] >= minCount) {
                touched[candidates++] = r;
            } else {
                counts[r] = 0;
            }
        }
        if (candidates == 0) {
            return;
        }
        int[] cand = java.util.Arrays.copyOf(touched, candidates);
        java.util.Arrays.sort(cand);
        int[][] child = new int[candidates][];
        int[] fill = new int[candidates];
        for (int c = 0; c < candidates; c++) {
            slot[cand[c]] = c;
            child[c] = new int[counts[cand[c]]];
            counts[cand[c]] = 0;
        }
        for (int k = 0; k < n; k++) {
            int t = tids[k];
            for (int i = offsets[t + 1] - 1; i >= offsets[t]; i--) {
                int r = ranks[i];
                if (r <= tail) {
                    break;
                }
                int c = slot[r];
                if (c >= 0) {
                    child[c][fill[c]++] = t;
                }
            }
        }
        for (int c = 0; c < candidates; c++) {
            slot[cand[c]] = -1;
        }
        for (int c = 0; c < candidates; c++) {
            int[] tl = child[c];
            child[c] = null;
            prefix[depth] = cand[c];
            extend(depth + 1, tl, tl.length, cand[c]);
        }
    }

    private void emit(int size, int support) {
        found++;
        for (int i = 0; i < size; i++) {
            emitted[i] = db.itemOfRank[prefix[i]];
        }
        out.accept(emitted, size, support);
    }
}
