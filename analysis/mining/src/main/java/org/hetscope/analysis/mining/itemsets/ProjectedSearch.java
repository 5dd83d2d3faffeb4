package org.hetscope.analysis.mining.itemsets;

import java.util.Arrays;

/**
 * The depth-first search both fast miners share. Each node holds a projected database: the transactions that hold
 * the current itemset, cut to their items above the node's tail that were frequent in the parent, packed in one
 * array (so deeper levels scan small, contiguous data), with each transaction's original id kept for the closed
 * miner's prefix-preservation check. One counting scan gives every extension's support (and, for closed mining,
 * the items in all transactions, which join the closure); one more sequential scan per batch of extensions (batches
 * bounded in size) copies each extension's projection, so large databases are read in order, not row by row.
 * A node whose projection is dense (one bit per transaction and candidate is much less than its items) hands the
 * rest of its subtree to {@link BitsetSearch}; on dense databases that happens at the root.
 */
final class ProjectedSearch {
    /** How many times smaller than the projection the bitsets must be for a node to go to {@link BitsetSearch}. */
    private static final int DENSE_FACTOR = 2;

    private final RankedDatabase base;
    private final int minCount;
    private final boolean closed;
    private final CurrentItemset set;
    private final PrefixPreservation prefix;
    private final BitsetSearch dense;
    private final int[][] countsByDepth;
    private final int[][] touchedByDepth;
    private final int[][] slotByDepth;
    private final Layout layout;

    /**
     * Where the search goes to bitsets: by the size rule; or, for tests, never, at the root, or at every node below
     * the root.
     */
    enum Layout { AUTO, PROJECTIONS, BITSETS, BITSETS_BELOW_ROOT }

    /** A projected database: {@code n} transactions, items (ranks, ascending) packed with offsets. */
    private record Projection(int n, int[] offsets, int[] items, int[] tids) {}

    ProjectedSearch(TransactionDatabase source, int minCount, boolean closed, ItemsetConsumer out) {
        this(source, minCount, closed, out, Layout.AUTO);
    }

    ProjectedSearch(TransactionDatabase source, int minCount, boolean closed, ItemsetConsumer out, Layout layout) {
        this.layout = layout;
        this.base = new RankedDatabase(source, minCount);
        this.minCount = minCount;
        this.closed = closed;
        this.set = new CurrentItemset(base.itemOfRank, out);
        this.prefix = closed ? new PrefixPreservation(base, set) : null;
        this.dense = new BitsetSearch(set, prefix, minCount, base.items());
        int m = base.items();
        this.countsByDepth = new int[m + 2][];
        this.touchedByDepth = new int[m + 2][];
        this.slotByDepth = new int[m + 2][];
    }

    long run() {
        int n = base.transactions;
        if (n == 0 || n < minCount) {
            return 0;
        }
        int[] tids = null;
        if (closed) {
            tids = new int[n];
            for (int t = 0; t < n; t++) {
                tids[t] = t;
            }
        }
        node(0, new Projection(n, base.offsets, base.ranks, tids), -1);
        return set.reported();
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
        int setBase = set.size();
        if (closed) {
            for (int k = 0; k < touchedCount; k++) {
                int r = touched[k];
                if (counts[r] == p.n() && !set.contains(r)) {
                    set.push(r);
                }
            }
        }
        if (set.size() > 0) {
            set.report(p.n());
        }
        int candidates = 0;
        for (int k = 0; k < touchedCount; k++) {
            int r = touched[k];
            if (counts[r] >= minCount && !set.contains(r)) {
                touched[candidates++] = r;
            } else {
                counts[r] = 0;
            }
        }
        if (candidates > 0) {
            int[] cand = Arrays.copyOf(touched, candidates);
            Arrays.sort(cand);
            int[] rowsOf = new int[candidates];
            for (int c = 0; c < candidates; c++) {
                slot[cand[c]] = c;
                rowsOf[c] = counts[cand[c]];
                counts[cand[c]] = 0;
            }
            if (isDense(p, candidates, depth)) {
                dense.search(p.n(), p.tids(), cand, bitsets(p, slot, candidates), rowsOf);
            } else {
                children(depth, p, slot, cand, rowsOf);
            }
            for (int c = 0; c < candidates; c++) {
                slot[cand[c]] = -1;
            }
        }
        set.truncate(setBase);
    }

    /**
     * Whether the rest of the search below this node is cheaper on bitsets: one bit per transaction and candidate
     * against the projection's items.
     */
    private boolean isDense(Projection p, int candidates, int depth) {
        long bitsetWords = (long) candidates * ((p.n() + 63) >>> 6);
        long projected = p.offsets()[p.n()] - p.offsets()[0];
        return switch (layout) {
            case AUTO -> bitsetWords * DENSE_FACTOR <= projected;
            case PROJECTIONS -> false;
            case BITSETS -> true;
            case BITSETS_BELOW_ROOT -> depth > 0;
        };
    }

    /** For each candidate (by slot), the rows of {@code p} that hold it, as a bitset. */
    private static long[][] bitsets(Projection p, int[] slot, int candidates) {
        int words = (p.n() + 63) >>> 6;
        long[][] bits = new long[candidates][words];
        int[] items = p.items();
        int[] offsets = p.offsets();
        for (int j = 0; j < p.n(); j++) {
            long bit = 1L << j;
            for (int i = offsets[j]; i < offsets[j + 1]; i++) {
                int c = slot[items[i]];
                if (c >= 0) {
                    bits[c][j >>> 6] |= bit;
                }
            }
        }
        return bits;
    }

    /** Builds and mines the children of a sparse node, a batch of extensions at a time. */
    private void children(int depth, Projection p, int[] slot, int[] cand, int[] rowsOf) {
        int candidates = cand.length;
        int[] items = p.items();
        int[] offsets = p.offsets();
        long[] sizeOf = new long[candidates];
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
        int[] row = new int[base.items()];
        for (int from = 0; from < candidates; ) {
            int to = from;
            long batch = 0;
            while (to < candidates && (to == from || batch + sizeOf[to] <= budget)) {
                batch += sizeOf[to++];
            }
            Projection[] batchOf = project(p, slot, from, to, rowsOf, sizeOf, row);
            for (int c = from; c < to; c++) {
                Projection child = batchOf[c - from];
                batchOf[c - from] = null;
                int f = cand[c];
                if (closed && !prefix.holds(f, child.tids())) {
                    continue;
                }
                set.push(f);
                node(depth + 1, child, f);
                set.truncate(set.size() - 1);
            }
            from = to;
        }
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
            tids[c] = p.tids() == null ? null : new int[rowsOf[from + c]];
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
                if (ptids != null) {
                    tids[c][fillRows[c]] = ptids[j];
                }
                offs[c][++fillRows[c]] = fillItems[c];
            }
        }
        Projection[] out = new Projection[k];
        for (int c = 0; c < k; c++) {
            out[c] = new Projection(rowsOf[from + c], offs[c], its[c], tids[c]);
        }
        return out;
    }
}
