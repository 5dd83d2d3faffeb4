package org.hetscope.capture.agent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A block of encoded events that one thread writes and the flusher thread reads. The writer publishes how far the
 * events are complete through {@link #committed} (a release store), so the flusher can copy complete events out of
 * a chunk that its owner is still filling: nothing is locked and a half-written event is never copied.
 */
final class Chunk {
    final ByteBuffer data;
    /** End of the last complete event; written by the owner only, after the event's bytes. */
    volatile int committed;
    /** Start of the last complete event; written by the owner just before {@link #committed}. */
    volatile int lastStart = -1;
    /** Position of this chunk in its stream; chunks of a stream reach the file in this order. */
    long seq;
    /** How much the flusher has already written out; flusher-only. */
    int flushed;
    /**
     * Per window of the chunk (see {@link EventStream}): where its last event ends, and where that event starts;
     * {@link #JOINED} when its last event runs on into the next window. The owner writes a window's entries before
     * it commits anything past the window, so the flusher may read them for every window before the committed end.
     */
    final int[] windowEnd;
    final int[] windowLast;
    static final int JOINED = -1;

    private static final VarHandle COMMITTED;
    private static final VarHandle LAST_START;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            COMMITTED = l.findVarHandle(Chunk.class, "committed", int.class);
            LAST_START = l.findVarHandle(Chunk.class, "lastStart", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Owner: publishes a complete event [start, end) with release stores only (no full fence). */
    void publish(int start, int end) {
        LAST_START.setRelease(this, start);
        COMMITTED.setRelease(this, end);
    }

    Chunk(int capacity) {
        data = ByteBuffer.allocate(capacity).order(ByteOrder.LITTLE_ENDIAN);
        int windows = capacity / EventStream.SMALLEST_WINDOW + 2;
        windowEnd = new int[windows];
        windowLast = new int[windows];
    }

    void reset(long seq) {
        data.clear();
        committed = 0;
        lastStart = -1;
        flushed = 0;
        this.seq = seq;
    }
}
