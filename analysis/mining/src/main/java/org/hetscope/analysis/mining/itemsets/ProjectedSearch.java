package org.hetscope.analysis.mining.itemsets;

import java.util.Arrays;

/**
 * The depth-first search both fast miners share. Each node holds a projected database: the transactions that hold
 * the current itemset, cut to their items above the node's tail that were frequent in the parent, packed in one
 * array (so deeper levels scan small, contiguous data), with each transaction's original id kept for the closed
 * miner's prefix-preservation check. One counting scan gives every extension's support (and, for closed mining,
 * the items in all transactions, which join the closure); one more scan gives each extension's transaction list,
 * from which its own projection is copied just before descending into it.
 */
final class ProjectedSearch {
    private final RankedDatabase base;
    private final int minCount;
    private final boolean closed;
    private final ItemsetConsumer out;
    private final boolean[] inSet;
    private final int[] stack;
    private int stackSize;
    private final int[] emitted;
    private final int[] ppcBuffer;
    private final int[][] countsByDepth;
    private final int[][] touchedByDepth;
    private final int[][] slotByDepth;
    private long found;

    /** A projected database: {@code n} transactions, items (ranks, ascending) packed with offsets. */
    private record Projection(int n, int[] offsets, int[] items, int[] tids) {}

    ProjectedSearch(TransactionDatabase source, int minCount, boolean closed, ItemsetConsumer out) {
        this.base = new RankedDatabase(source, minCount);
        this.minCount = minCount;
        this.closed = closed;
        this.out = out;
        int m = base.items();
        this.inSet = new boolean[m];
        this.stack = new int[m + 1];
        this.emitted = new int[m + 1];
        this.ppcBuffer = new int[m];
        this.countsByDepth = new int[m + 2][];
        this.touchedByDepth = new int[m + 2][];
        this.slotByDepth = new int[m + 2][];
    }

    long run() {
        int n = base.transactions;
        if (n == 0 || n < minCount) {
            return 0;
        }
        int[] tids = new int[n];
        for (int t = 0; t < n; t++) {
            tids[t] = t;
        }
        node(0, new Projection(n, base.offsets, base.ranks, tids), -1);
        return found;
    }

    private void node(int depth, Projection p, int tail) {
        int m = base.items();
        int[] counts = countsByDepth[depth];
        int[] touched = touchedByDepth[depth];
        int[] slot = slotByDepth[depth];
        if (counts == null) {
            counts = countsByDepth[depth] = new int[m];
            touched = touchedByDepth[depth] = new int[m];
            slot = slotByDepth[depth] = new int[m];
            Arrays.fill(slot, -1);
        }
        int[] items = p.items();
        int[] offsets = p.offsets();
        int touchedCount = 0;
        for (int i = offsets[0], end = offsets[p.n()]; i < end; i++) {
            if (counts[items[i]]++ == 0) {
                touched[touchedCount++] = items[i];
            }
        }
        int setBase = stackSize;
        if (closed) {
            for (int k = 0; k < touchedCount; k++) {
                int r = touched[k];
                if (counts[r] == p.n() && !inSet[r]) {
                    inSet[r] = true;
                    stack[stackSize++] = r;
                }
            }
        }
        if (stackSize > 0) {
            emit(p.n());
        }
        int candidates = 0;
        for (int k = 0; k < touchedCount; k++) {
            int r = touched[k];
            if (counts[r] >= minCount && !inSet[r]) {
                touched[candidates++] = r;
            } else {
                counts[r] = 0;
            }
        }
        if (candidates > 0) {
            int[] cand = Arrays.copyOf(touched, candidates);
            Arrays.sort(cand);
            int[][] where = new int[candidates][];
            int[] fill = new int[candidates];
            for (int c = 0; c < candidates; c++) {
                slot[cand[c]] = c;
                where[c] = new int[counts[cand[c]]];
                counts[cand[c]] = 0;
            }
            for (int j = 0; j < p.n(); j++) {
                for (int i = offsets[j]; i < offsets[j + 1]; i++) {
                    int c = slot[items[i]];
                    if (c >= 0) {
                        where[c][fill[c]++] = j;
                    }
                }
            }
            for (int c = 0; c < candidates; c++) {
                int f = cand[c];
                int[] rows = where[c];
                where[c] = null;
                if (closed && !prefixPreserving(f, rows, p.tids())) {
                    continue;
                }
                Projection child = project(p, rows, f, slot);
                stack[stackSize++] = f;
                inSet[f] = true;
                node(depth + 1, child, f);
                inSet[f] = false;
                stackSize--;
            }
            for (int c = 0; c < candidates; c++) {
                slot[cand[c]] = -1;
            }
        }
        for (int k = setBase; k < stackSize; k++) {
            inSet[stack[k]] = false;
        }
        stackSize = setBase;
    }

    /** The rows of {@code p} holding f, cut to their items above f that are extensions here ({@code slot >= 0}). */
    private static Projection project(Projection p, int[] rows, int f, int[] slot) {
        int[] offsets = p.offsets();
        int[] items = p.items();
        int size = 0;
        for (int j : rows) {
            for (int i = offsets[j + 1] - 1; i >= offsets[j] && items[i] > f; i--) {
                if (slot[items[i]] >= 0) {
                    size++;
                }
            }
        }
        int[] childOffsets = new int[rows.length + 1];
        int[] childItems = new int[size];
        int[] childTids = new int[rows.length];
        int q = 0;
        for (int k = 0; k < rows.length; k++) {
            int j = rows[k];
            int i = offsets[j];
            int end = offsets[j + 1];
            while (i < end && items[i] <= f) {
                i++;
            }
            for (; i < end; i++) {
                if (slot[items[i]] >= 0) {
                    childItems[q++] = items[i];
                }
            }
            childOffsets[k + 1] = q;
            childTids[k] = p.tids()[j];
        }
        return new Projection(rows.length, childOffsets, childItems, childTids);
    }

    /**
     * LCM's prefix-preservation test for closure(set + e): the items below e outside the set, intersected over the
     * full (base) transactions, must be empty; the intersection usually empties after a few transactions.
     */
    private boolean prefixPreserving(int e, int[] rows, int[] tids) {
        int[] offsets = base.offsets;
        int[] ranks = base.ranks;
        int len = 0;
        int t0 = tids[rows[0]];
        for (int i = offsets[t0]; i < offsets[t0 + 1] && ranks[i] < e; i++) {
            if (!inSet[ranks[i]]) {
                ppcBuffer[len++] = ranks[i];
            }
        }
        for (int k = 1; k < rows.length && len > 0; k++) {
            int t = tids[rows[k]];
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

    private void emit(int support) {
        found++;
        for (int i = 0; i < stackSize; i++) {
            emitted[i] = base.itemOfRank[stack[i]];
        }
        out.accept(emitted, stackSize, support);
    }
}
