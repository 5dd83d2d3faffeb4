package org.hetscope.formats.paje.starpu;

import java.io.Closeable;
import java.io.IOException;
import org.hetscope.model.Residency;

/**
 * The residency intervals of a trace, read back sorted by (block, node, start), which is the order they go to the
 * sink in and the order the checks walk; equal keys keep the order they were added in. A trace has millions of
 * them, so they are records of longs that wait on disk past a budget ({@link SortedLongRecords}).
 */
final class Residencies implements Closeable {
    static final int BLOCK = 0;
    static final int NODE = 1;
    static final int TS = 2;
    static final int DUR = 3;
    static final int OWNER = 4;
    private final SortedLongRecords records = new SortedLongRecords("residencies", 5, 3, SortedLongRecords.budget(5));
    private final long[] record = new long[5];

    void add(long blockId, long nodeId, long start, long duration, String state) {
        record[BLOCK] = blockId;
        record[NODE] = nodeId;
        record[TS] = start;
        record[DUR] = duration;
        record[OWNER] = state.equals("owner") ? 1 : 0;
        records.add(record);
    }

    long size() {
        return records.size();
    }

    /** Puts the intervals in order now (the first cursor would otherwise), e.g. on the thread that made them. */
    void sort() {
        records.sort();
    }

    /** The intervals in order; read the columns with the constants above. */
    SortedLongRecords.Cursor cursor() {
        return records.cursor();
    }

    /** The interval under a cursor as a model record. */
    static Residency record(SortedLongRecords.Cursor c) {
        return new Residency(c.get(BLOCK), c.get(NODE), c.get(TS), c.get(DUR), c.get(OWNER) == 1 ? "owner" : "shared");
    }

    @Override
    public void close() throws IOException {
        records.close();
    }
}
