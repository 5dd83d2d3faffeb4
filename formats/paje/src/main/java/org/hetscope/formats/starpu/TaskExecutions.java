package org.hetscope.formats.starpu;

import java.util.Arrays;
import org.hetscope.model.LongLongMap;

/**
 * The task executions read from worker states that carry a JobId, in columns indexed by JobId: a trace of millions
 * of tasks keeps them as a few arrays, not as millions of boxed map entries. A JobId seen again replaces the
 * execution recorded before (the caller reports it).
 */
final class TaskExecutions {
    private static final long NONE = -1;
    private final LongLongMap rowOf = new LongLongMap(1024);
    private long[] jobId = new long[256];
    private long[] sliceId = new long[256];
    private long[] start = new long[256];
    private long[] end = new long[256];
    private int[] worker = new int[256];
    private String[] name = new String[256];
    private int rows;

    /** Records an execution; false when the JobId had one already (this one replaces it). */
    boolean put(long job, long slice, long from, long to, int workerId, String taskName) {
        if (rows == jobId.length) {
            int cap = rows * 2;
            jobId = Arrays.copyOf(jobId, cap);
            sliceId = Arrays.copyOf(sliceId, cap);
            start = Arrays.copyOf(start, cap);
            end = Arrays.copyOf(end, cap);
            worker = Arrays.copyOf(worker, cap);
            name = Arrays.copyOf(name, cap);
        }
        jobId[rows] = job;
        sliceId[rows] = slice;
        start[rows] = from;
        end[rows] = to;
        worker[rows] = workerId;
        name[rows] = taskName;
        return rowOf.put(job, rows++, NONE) == NONE;
    }

    /** The row of a JobId's execution, or -1. */
    int row(long job) {
        return job == Long.MIN_VALUE ? -1 : (int) rowOf.get(job, NONE);
    }

    /** The JobIds that have an execution, ascending. */
    long[] jobIds() {
        long[] ids = new long[rowOf.size()];
        int k = 0;
        for (int r = 0; r < rows; r++) {
            if (rowOf.get(jobId[r], NONE) == r) {
                ids[k++] = jobId[r];
            }
        }
        Arrays.sort(ids);
        return ids;
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
