package org.hetscope.formats.starpu;

import java.util.Arrays;

/**
 * The task executions read from worker states that carry a JobId, in columns: a trace of millions of tasks keeps
 * them as a few arrays, not as millions of boxed map entries. They are added in any order; {@link #sort} then
 * orders them by JobId, where a JobId seen again keeps its last execution and the earlier ones are reported.
 */
final class TaskExecutions {
    /** Told of every execution whose JobId had one added before it (the one before is dropped). */
    interface Duplicates {
        void seenAgain(long jobId, long line);
    }

    private long[] jobId = new long[256];
    private long[] sliceId = new long[256];
    private long[] start = new long[256];
    private long[] end = new long[256];
    private long[] line = new long[256];
    private int[] worker = new int[256];
    private String[] name = new String[256];
    private int rows;
    private boolean sorted;

    void add(long job, long slice, long from, long to, int workerId, String taskName, long lineNo) {
        if (rows == jobId.length) {
            int cap = rows + (rows >> 1); // 1.5x: these columns are the largest the import keeps
            jobId = Arrays.copyOf(jobId, cap);
            sliceId = Arrays.copyOf(sliceId, cap);
            start = Arrays.copyOf(start, cap);
            end = Arrays.copyOf(end, cap);
            line = Arrays.copyOf(line, cap);
            worker = Arrays.copyOf(worker, cap);
            name = Arrays.copyOf(name, cap);
        }
        jobId[rows] = job;
        sliceId[rows] = slice;
        start[rows] = from;
        end[rows] = to;
        line[rows] = lineNo;
        worker[rows] = workerId;
        name[rows] = taskName;
        rows++;
        sorted = false;
    }

    /**
     * Orders the executions by JobId and keeps, of each JobId, the one added last; every one added after the first
     * of its JobId goes to {@code duplicates} (as when it arrived: "seen already").
     */
    void sort(Duplicates duplicates) {
        int[] idx = new int[rows];
        for (int i = 0; i < rows; i++) {
            idx[i] = i;
        }
        mergeSort(idx, new int[rows], 0, rows);
        int kept = 0;
        for (int k = 0; k < rows; k++) {
            if (k + 1 < rows && jobId[idx[k + 1]] == jobId[idx[k]]) {
                duplicates.seenAgain(jobId[idx[k + 1]], line[idx[k + 1]]);
                continue; // a later execution of the same JobId replaces this one
            }
            idx[kept++] = idx[k];
        }
        rows = kept;
        jobId = permute(jobId, idx);
        sliceId = permute(sliceId, idx);
        start = permute(start, idx);
        end = permute(end, idx);
        line = null;
        int[] w = new int[rows];
        String[] nm = new String[rows];
        for (int k = 0; k < rows; k++) {
            w[k] = worker[idx[k]];
            nm[k] = name[idx[k]];
        }
        worker = w;
        name = nm;
        sorted = true;
    }

    private long[] permute(long[] from, int[] idx) {
        long[] to = new long[rows];
        for (int k = 0; k < rows; k++) {
            to[k] = from[idx[k]];
        }
        return to;
    }

    private void mergeSort(int[] a, int[] tmp, int from, int to) {
        if (to - from < 24) {
            for (int i = from + 1; i < to; i++) {
                int v = a[i];
                int j = i - 1;
                while (j >= from && jobId[a[j]] > jobId[v]) {
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
        if (jobId[a[mid - 1]] <= jobId[a[mid]]) {
            return;
        }
        System.arraycopy(a, from, tmp, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || (i < mid && jobId[tmp[i]] <= jobId[tmp[j]])) {
                a[k] = tmp[i++];
            } else {
                a[k] = tmp[j++];
            }
        }
    }

    /** How many JobIds have an execution (after {@link #sort}). */
    int size() {
        return rows;
    }

    /** The row of a JobId's execution, or -1 (after {@link #sort}). */
    int row(long job) {
        if (!sorted) {
            throw new IllegalStateException("not sorted");
        }
        int r = Arrays.binarySearch(jobId, 0, rows, job);
        return r < 0 ? -1 : r;
    }

    long jobId(int row) {
        return jobId[row];
    }

    long sliceId(int row) {
        return sliceId[row];
    }

    long start(int row) {
        return start[row];
    }

    long end(int row) {
        return end[row];
    }

    int worker(int row) {
        return worker[row];
    }

    String name(int row) {
        return name[row];
    }
}
