package org.hetscope.formats.paje;

/** Stable ordering of records by time without boxing; records appended in line order keep it on ties. */
public final class TimeOrder {
    private TimeOrder() {}

    /** Indices 0..n-1 sorted by {@code time}, stable; the identity when already sorted. */
    public static int[] of(long[] time, int n, boolean sorted) {
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        if (sorted || n < 2) {
            return idx;
        }
        int[] tmp = new int[n];
        mergeSort(idx, tmp, 0, n, time);
        return idx;
    }

    private static void mergeSort(int[] a, int[] tmp, int from, int to, long[] key) {
        if (to - from < 24) {
            for (int i = from + 1; i < to; i++) {
                int v = a[i];
                int j = i - 1;
                while (j >= from && key[a[j]] > key[v]) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(a, tmp, from, mid, key);
        mergeSort(a, tmp, mid, to, key);
        if (key[a[mid - 1]] <= key[a[mid]]) {
            return;
        }
        System.arraycopy(a, from, tmp, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || (i < mid && key[tmp[i]] <= key[tmp[j]])) {
                a[k] = tmp[i++];
            } else {
                a[k] = tmp[j++];
            }
        }
    }
}
