package org.hetscope.formats.starpu;

import java.io.Closeable;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import org.hetscope.formats.paje.IdTable;

/**
 * The task executions read from worker states that carry a JobId. A trace has millions, added in any order, so they
 * are records of longs that wait on disk past a budget ({@link SortedLongRecords}) and are read back by JobId, where
 * a JobId seen again keeps its last execution and the earlier ones are reported.
 */
final class TaskExecutions implements Closeable {
    /** Told of every execution whose JobId had one added before it (the one before is dropped). */
    interface Duplicates {
        void seenAgain(long jobId, long line);
    }

    /** Receives the executions, one per JobId, by ascending JobId. */
    interface Visitor {
        void execution(long jobId, long sliceId, long start, long end, int worker, String name);
    }

    private static final int JOB = 0;
    private static final int SLICE = 1;
    private static final int START = 2;
    private static final int END = 3;
    private static final int LINE = 4;
    private static final int WORKER = 5;
    private static final int NAME = 6;
    private final SortedLongRecords records = new SortedLongRecords("task executions", 7, 1,
            SortedLongRecords.budget(7));
    /** Task names: a few per trace. */
    private final IdTable<String> names = new IdTable<>(new HashMap<>());
    private final long[] record = new long[7];

    // After sort(): the executions in memory, by JobId.
    private long[] jobId;
    private long[] sliceId;
    private long[] start;
    private long[] end;
    private int[] worker;
    private String[] name;
    private int rows;

    void add(long job, long slice, long from, long to, int workerId, String taskName, long lineNo) {
        record[JOB] = job;
        record[SLICE] = slice;
        record[START] = from;
        record[END] = to;
        record[LINE] = lineNo;
        record[WORKER] = workerId;
        record[NAME] = names.id(taskName);
        records.add(record);
    }

    /** Hands over one execution per JobId, by JobId, the last added of each; the others go to duplicates. */
    void walk(Duplicates duplicates, Visitor visitor) {
        SortedLongRecords.Cursor c = records.cursor();
        boolean more = c.next();
        while (more) {
            long job = c.get(JOB);
            long slice = c.get(SLICE);
            long from = c.get(START);
            long to = c.get(END);
            long workerId = c.get(WORKER);
            long nameId = c.get(NAME);
            while ((more = c.next()) && c.get(JOB) == job) {
                duplicates.seenAgain(job, c.get(LINE)); // a later execution of the same JobId replaces this one
                slice = c.get(SLICE);
                from = c.get(START);
                to = c.get(END);
                workerId = c.get(WORKER);
                nameId = c.get(NAME);
            }
            visitor.execution(job, slice, from, to, (int) workerId, names.get((int) nameId));
        }
    }

    /** Reads the executions into memory by JobId, for lookups by {@link #row} (tasks.rec names the tasks). */
    void sort(Duplicates duplicates) {
        int cap = (int) Math.min(Integer.MAX_VALUE - 8, records.size());
        jobId = new long[cap];
        sliceId = new long[cap];
        start = new long[cap];
        end = new long[cap];
        worker = new int[cap];
        name = new String[cap];
        rows = 0;
        walk(duplicates, (job, slice, from, to, w, n) -> {
            jobId[rows] = job;
            sliceId[rows] = slice;
            start[rows] = from;
            end[rows] = to;
            worker[rows] = w;
            name[rows] = n;
            rows++;
        });
    }

    /** The row of a JobId's execution, or -1 (after {@link #sort}). */
    int row(long job) {
        if (jobId == null) {
            throw new IllegalStateException("not sorted");
        }
        int r = Arrays.binarySearch(jobId, 0, rows, job);
        return r < 0 ? -1 : r;
    }

    /** How many JobIds have an execution (after {@link #sort}). */
    int size() {
        return rows;
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

    @Override
    public void close() throws IOException {
        records.close();
    }
}
