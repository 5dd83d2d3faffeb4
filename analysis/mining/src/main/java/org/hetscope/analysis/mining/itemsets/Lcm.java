package org.hetscope.analysis.mining.itemsets;

import java.util.Arrays;

/**
 * Closed frequent itemsets by LCM (Uno, Kiyomi, Arimura): depth-first prefix-preserving closure extension, so every
 * closed itemset is reached exactly once and no result needs to be remembered. For a closed set P and an item e
 * above its core, Q = closure(P + e) is taken only when Q adds no item below e (checked by intersecting the items
 * below e over Q's transactions, which mostly stops after a few); the counts of the items above e give the rest of
 * the closure and the frequent extensions, whose tid lists come from one more scan (occurrence deliver).
 */
public final class Lcm {
    private final RankedDatabase db;
    private final int minCount;
    private final ItemsetConsumer out;
    private final boolean[] inSet;
    private final int[] stack;
    private int stackSize;
    private final int[] emitted;
    private final int[][] countsByDepth;
    private final int[][] touchedByDepth;
    private final int[][] slotByDepth;
    private final int[] ppcBuffer;
    private long found;

    private Lcm(TransactionDatabase source, int minCount, ItemsetConsumer out) {
        this.db = new RankedDatabase(source, minCount);
        this.minCount = minCount;
        this.out = out;
        int m = db.items();
        this.inSet = new boolean[m];
        this.stack = new int[m];
        this.emitted = new int[m];
        this.countsByDepth = new int[m + 1][];
        this.touchedByDepth = new int[m + 1][];
        this.slotByDepth = new int[m + 1][];
        this.ppcBuffer = new int[m];
    }

    /** Reports every closed itemset whose support is at least {@code minCount}; returns how many there were. */
    public static long mine(TransactionDatabase source, int minCount, ItemsetConsumer out) {
        Lcm l = new Lcm(source, Math.max(1, minCount), out);
        l.run();
        return l.found;
    }

    private void run() {
        int m = db.items();
        int n = db.transactions;
        if (n < minCount || n == 0) {
            return;
        }
        for (int r = 0; r < m; r++) {
            if (db.countOfRank[r] == n) {
                inSet[r] = true;
                stack[stackSize++] = r;
            }
        }
        if (stackSize > 0) {
            emit(n);
        }
        int[][] occ = new int[m][];
        for (int r = 0; r < m; r++) {
            if (!inSet[r]) {
                occ[r] = new int[db.countOfRank[r]];
            }
        }
        int[] fill = new int[m];
        for (int t = 0; t < n; t++) {
            for (int i = db.offsets[t]; i < db.offsets[t + 1]; i++) {
                int r = db.ranks[i];
                if (occ[r] != null) {
                    occ[r][fill[r]++] = t;
                }
            }
        }
        for (int r = 0; r < m; r++) {
            if (occ[r] != null) {
                int[] tids = occ[r];
                occ[r] = null;
                extend(0, r, tids);
            }
        }
    }

    /**
     * Whether closure(current set + e) adds no item below e: the items below e outside the set are intersected over
     * the transactions, stopping as soon as the intersection is empty (which is usually after a few transactions).
     */
    private boolean prefixPreserving(int e, int[] tids) {
        int[] offsets = db.offsets;
        int[] ranks = db.ranks;
        int len = 0;
        int t0 = tids[0];
        for (int i = offsets[t0]; i < offsets[t0 + 1] && ranks[i] < e; i++) {
            if (!inSet[ranks[i]]) {
                ppcBuffer[len++] = ranks[i];
            }
        }
        for (int k = 1; k < tids.length && len > 0; k++) {
            int t = tids[k];
            int i = offsets[t];
            int end = offsets[t + 1];
            int kept = 0;
            for (int b = 0; b < len; b++) {
                int want = ppcBuffer[b];
                while (i < end && ranks[i] < want) {
                    i++;
                }
                if (i < end && ranks[i] == want) {
                    ppcBuffer[kept++] = want;
                }
            }
            len = kept;
        }
        return len == 0;
    }

    /** Tries closure(current set + e) over its transactions {@code tids}; recurses when it is a ppc extension. */
    private void extend(int depth, int e, int[] tids) {
        if (!prefixPreserving(e, tids)) {
            return;
        }
        int m = db.items();
        int[] counts = countsByDepth[depth];
        int[] touched = touchedByDepth[depth];
        if (counts == null) {
            counts = countsByDepth[depth] = new int[m];
            touched = touchedByDepth[depth] = new int[m];
        }
        int[] offsets = db.offsets;
        int[] ranks = db.ranks;
        int touchedCount = 0;
        for (int t : tids) {
            for (int i = offsets[t + 1] - 1; i >= offsets[t]; i--) {
                int r = ranks[i];
                if (r <= e) {
                    break;
                }
                if (counts[r]++ == 0) {
                    touched[touchedCount++] = r;
                }
            }
        }
        int n = tids.length;
        int base = stackSize;
        inSet[e] = true;
        stack[stackSize++] = e;
        for (int k = 0; k < touchedCount; k++) {
            int r = touched[k];
            if (counts[r] == n && !inSet[r]) {
                inSet[r] = true;
                stack[stackSize++] = r;
            }
        }
        emit(n);
        int[] slot = slotByDepth[depth];
        if (slot == null) {
            slot = slotByDepth[depth] = new int[m];
            Arrays.fill(slot, -1);
        }
        int candidates = 0;
        for (int k = 0; k < touchedCount; k++) {
            int r = touched[k];
            if (r > e && !inSet[r] && counts[r] >= minCount) {
                touched[candidates++] = r;
            } else {
                counts[r] = 0;
            }
        }
        if (candidates > 0) {
            int[] cand = Arrays.copyOf(touched, candidates);
            Arrays.sort(cand);
            int[][] child = new int[candidates][];
            int[] fill = new int[candidates];
            for (int c = 0; c < candidates; c++) {
                slot[cand[c]] = c;
                child[c] = new int[counts[cand[c]]];
                counts[cand[c]] = 0;
            }
            for (int t : tids) {
                for (int i = offsets[t + 1] - 1; i >= offsets[t]; i--) {
                    int r = ranks[i];
                    if (r <= e) {
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
                extend(depth + 1, cand[c], tl);
            }
        }
        for (int k = base; k < stackSize; k++) {
            inSet[stack[k]] = false;
        }
        stackSize = base;
    }

    private void emit(int support) {
        found++;
        for (int i = 0; i < stackSize; i++) {
            emitted[i] = db.itemOfRank[stack[i]];
        }
        out.accept(emitted, stackSize, support);
    }

}
