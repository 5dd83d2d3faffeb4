package org.hetscope.formats.paje.starpu;

import java.io.Closeable;
import java.io.IOException;
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
            long slice;
            long from;
            long to;
            long workerId;
            long nameId;
            while (true) {
                slice = c.get(SLICE);
                from = c.get(START);
                to = c.get(END);
                workerId = c.get(WORKER);
                nameId = c.get(NAME);
                if (!(more = c.next()) || c.get(JOB) != job) {
                    break;
                }
                duplicates.seenAgain(job, c.get(LINE)); // a later execution of the same JobId replaces this one
            }
            visitor.execution(job, slice, from, to, (int) workerId, names.get((int) nameId));
        }
    }

    @Override
    public void close() throws IOException {
        records.close();
    }
}
