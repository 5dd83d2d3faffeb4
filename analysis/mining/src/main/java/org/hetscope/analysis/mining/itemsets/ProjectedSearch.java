package org.hetscope.analysis.mining.itemsets;

import java.util.Arrays;

/**
 * The depth-first search both fast miners share. Each node holds a projected database: the transactions that hold
 * the current itemset, cut to their items above the node's tail that were frequent in the parent, packed in one
 * array (so deeper levels scan small, contiguous data), with each transaction's original id kept for the closed
 * miner's prefix-preservation check. One counting scan gives every extension's support (and, for closed mining,
 * the items in all transactions, which join the closure); one more sequential scan per batch of extensions (batches
 * bounded in size) copies each extension's projection, so large databases are read in order, not row by row.
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
            int[] rowsOf = new int[candidates];
            long[] sizeOf = new long[candidates];
            for (int c = 0; c < candidates; c++) {
                slot[cand[c]] = c;
                rowsOf[c] = counts[cand[c]];
                counts[cand[c]] = 0;
            }
            // Size of each child's projection: for every candidate in a row, the candidates after it.
            for (int j = 0; j < p.n(); j++) {
                int after = 0;
                for (int i = offsets[j + 1] - 1; i >= offsets[j]; i--) {
                    int c = slot[items[i]];
                    if (c >= 0) {
                        sizeOf[c] += after;
                        after++;
                    }
                }
            }
            long budget = Math.max(1L << 23, items.length);
            int[] row = new int[m];
            for (int from = 0; from < candidates; ) {
                int to = from;
                long batch = 0;
                while (to < candidates && (to == from || batch + sizeOf[to] <= budget)) {
                    batch += sizeOf[to++];
                }
                Projection[] children = project(p, slot, from, to, rowsOf, sizeOf, row);
                for (int c = from; c < to; c++) {
                    Projection child = children[c - from];
                    children[c - from] = null;
                    int f = cand[c];
                    if (closed && !prefixPreserving(f, child.tids())) {
                        continue;
                    }
                    stack[stackSize++] = f;
                    inSet[f] = true;
                    node(depth + 1, child, f);
                    inSet[f] = false;
                    stackSize--;
                }
                from = to;
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

    /**
     * The projections of candidates {@code [from, to)} (by slot), built in one sequential pass over {@code p}: each
     * row's candidate items are gathered, and every candidate in the batch receives the ones after it.
     */
    private static Projection[] project(Projection p, int[] slot, int from, int to, int[] rowsOf, long[] sizeOf,
                                        int[] row) {
        int k = to - from;
        int[][] offs = new int[k][];
        int[][] its = new int[k][];
        int[][] tids = new int[k][];
        int[] fillRows = new int[k];
        int[] fillItems = new int[k];
        for (int c = 0; c < k; c++) {
            offs[c] = new int[rowsOf[from + c] + 1];
            its[c] = new int[Math.toIntExact(sizeOf[from + c])];
            tids[c] = new int[rowsOf[from + c]];
        }
        int[] offsets = p.offsets();
        int[] items = p.items();
        int[] ptids = p.tids();
        for (int j = 0; j < p.n(); j++) {
            int len = 0;
            for (int i = offsets[j]; i < offsets[j + 1]; i++) {
                if (slot[items[i]] >= 0) {
                    row[len++] = items[i];
                }
            }
            for (int q = 0; q < len; q++) {
                int c = slot[row[q]] - from;
                if (c < 0 || c >= k) {
                    continue;
                }
                int n = len - q - 1;
                System.arraycopy(row, q + 1, its[c], fillItems[c], n);
                fillItems[c] += n;
                tids[c][fillRows[c]] = ptids[j];
                offs[c][++fillRows[c]] = fillItems[c];
            }
        }
        Projection[] out = new Projection[k];
        for (int c = 0; c < k; c++) {
            out[c] = new Projection(rowsOf[from + c], offs[c], its[c], tids[c]);
        }
        return out;
    }

    /**
     * LCM's prefix-preservation test for closure(set + e): the items below e outside the set, intersected over the
     * full (base) transactions, must be empty; the intersection usually empties after a few transactions.
     */
    private boolean prefixPreserving(int e, int[] tids) {
        int[] offsets = base.offsets;
        int[] ranks = base.ranks;
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

    private void emit(int support) {
        found++;
        for (int i = 0; i < stackSize; i++) {
            emitted[i] = base.itemOfRank[stack[i]];
        }
        out.accept(emitted, stackSize, support);
    }
}
