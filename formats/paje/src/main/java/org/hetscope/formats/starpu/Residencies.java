package org.hetscope.formats.starpu;

import java.util.Arrays;
import org.hetscope.model.Residency;

/**
 * Residency intervals in columns: a trace has millions of them, and the checks need them all at once, so they are
 * kept as arrays rather than as an object each. Once complete, {@link #sort} orders them by (block, node, start),
 * stable, which is the order they go to the sink in and the order the checks walk.
 */
final class Residencies {
    private long[] block = new long[256];
    private long[] node = new long[256];
    private long[] ts = new long[256];
    private long[] dur = new long[256];
    private boolean[] owner = new boolean[256];
    private int n;

    void add(long blockId, long nodeId, long start, long duration, String state) {
        if (n == block.length) {
            int cap = n + (n >> 1); // 1.5x: these columns are the largest the import keeps
            block = Arrays.copyOf(block, cap);
            node = Arrays.copyOf(node, cap);
            ts = Arrays.copyOf(ts, cap);
            dur = Arrays.copyOf(dur, cap);
            owner = Arrays.copyOf(owner, cap);
        }
        block[n] = blockId;
        node[n] = nodeId;
        ts[n] = start;
        dur[n] = duration;
        owner[n] = state.equals("owner");
        n++;
    }

    int size() {
        return n;
    }

    long block(int i) {
        return block[i];
    }

    long node(int i) {
        return node[i];
    }

    long ts(int i) {
        return ts[i];
    }

    long dur(int i) {
        return dur[i];
    }

    boolean owner(int i) {
        return owner[i];
    }

    Residency record(int i) {
        return new Residency(block[i], node[i], ts[i], dur[i], owner[i] ? "owner" : "shared");
    }

    /** Orders the intervals by (block, node, start); equal keys keep the order they were added in. */
    void sort() {
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        mergeSort(idx, new int[n], 0, n);
        block = permute(block, idx);
        node = permute(node, idx);
        ts = permute(ts, idx);
        dur = permute(dur, idx);
        boolean[] o = new boolean[n];
        for (int k = 0; k < n; k++) {
            o[k] = owner[idx[k]];
        }
        owner = o;
    }

    /** The first n values of {@code from} in the order of {@code idx}, in a new array. */
    private long[] permute(long[] from, int[] idx) {
        long[] to = new long[n];
        for (int k = 0; k < n; k++) {
            to[k] = from[idx[k]];
        }
        return to;
    }

    private int compare(int a, int b) {
        int c = Long.compare(block[a], block[b]);
        if (c == 0) {
            c = Long.compare(node[a], node[b]);
        }
        return c != 0 ? c : Long.compare(ts[a], ts[b]);
    }

    private void mergeSort(int[] a, int[] tmp, int from, int to) {
        if (to - from < 24) {
            for (int i = from + 1; i < to; i++) {
                int v = a[i];
                int j = i - 1;
                while (j >= from && compare(a[j], v) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(a, tmp, from, mid);
        mergeSort(a, tmp, mid, to);
        if (compare(a[mid - 1], a[mid]) <= 0) {
            return;
        }
        System.arraycopy(a, from, tmp, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || (i < mid && compare(tmp[i], tmp[j]) <= 0)) {
                a[k] = tmp[i++];
            } else {
                a[k] = tmp[j++];
            }
        }
    }

    /** The first position whose (block, node) is not below the given pair; size() when none. */
    int lowerBound(long blockId, long nodeId) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int c = Long.compare(block[mid], blockId);
            if (c == 0) {
                c = Long.compare(node[mid], nodeId);
            }
            if (c < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
