package org.hetscope.capture.agent;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One CTF stream instance (a thread's API calls, or a command queue's device commands) as its single writer sees
 * it: events are appended to the current {@link Chunk}; a full chunk is handed to the {@link TraceWriter} and a
 * fresh one taken. Only the owning thread calls the writing methods.
 *
 * <p>Every event starts 8-byte aligned with its 64-bit timestamp, then a 16-bit event id, then the payload, which
 * is byte-packed; this matches the layout declared in {@link TraceMetadata}.
 */
public final class EventStream {
    final TraceWriter writer;
    final int streamClass;
    final long instanceId;
    /** Packet-context fields after the common ones (thread id; or queue and device). */
    final long[] contextExtra;
    final String fileName;
    volatile Chunk current;
    private long nextChunkSeq;
    private int eventStart;
    volatile long discarded;
    /** Flusher-only: the sequence number of the next chunk to write to the file. */
    long expectedSeq;
    /** Flusher-only state of the file. */
    java.nio.channels.FileChannel channel;
    long packetSeq;

    EventStream(TraceWriter writer, int streamClass, long instanceId, long[] contextExtra, String fileName) {
        this.writer = writer;
        this.streamClass = streamClass;
        this.instanceId = instanceId;
        this.contextExtra = contextExtra;
        this.fileName = fileName;
        Chunk c = writer.takeChunk();
        if (c != null) {
            c.reset(nextChunkSeq++);
        }
        current = c;
    }

    /**
     * Starts an event of at most {@code maxSize} bytes (header included) and returns the buffer to put the payload
     * into, or null when the event must be dropped (memory limit reached; it is counted as discarded).
     */
    public ByteBuffer begin(long ts, int eventId, int maxSize) {
        Chunk c = current;
        if (c == null || c.data.capacity() - align8(c.data.position()) < maxSize) {
            c = replace(c);
            if (c == null) {
                discarded++;
                return null;
            }
        }
        ByteBuffer b = c.data;
        int start = align8(b.position());
        b.position(start);
        b.putLong(ts);
        b.putShort((short) eventId);
        eventStart = start;
        return b;
    }

    /** Publishes the event started by the last {@link #begin}. */
    public void commit() {
        Chunk c = current;
        c.publish(eventStart, c.data.position());
    }

    private Chunk replace(Chunk full) {
        Chunk fresh = writer.takeChunk();
        if (fresh == null) {
            return null;
        }
        fresh.reset(nextChunkSeq++);
        current = fresh;
        if (full != null) {
            writer.handOff(this, full);
        }
        return fresh;
    }

    static int align8(int p) {
        return (p + 7) & ~7;
    }

    /** UTF-8 bytes of {@code s}, cut to {@code max} bytes, for a CTF string field. */
    public static byte[] utf8(String s, int max) {
        byte[] b = (s == null ? "" : s).getBytes(StandardCharsets.UTF_8);
        if (b.length > max) {
            return java.util.Arrays.copyOf(b, max);
        }
        return b;
    }

    /** Puts a CTF string: the bytes and a terminating zero (zero bytes inside are replaced by '?'). */
    public static void putString(ByteBuffer b, byte[] utf8) {
        for (byte x : utf8) {
            b.put(x == 0 ? (byte) '?' : x);
        }
        b.put((byte) 0);
    }
}
