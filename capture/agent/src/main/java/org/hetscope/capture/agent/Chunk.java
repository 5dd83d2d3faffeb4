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
    }

    void reset(long seq) {
        data.clear();
        committed = 0;
        lastStart = -1;
        flushed = 0;
        this.seq = seq;
    }
}
