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
 *
 * <p>A chunk is cut into windows of a page minus the packet header, and an event never crosses from one window
 * into the next (it starts the next window instead), so that the flusher can write every window as a packet of one
 * page: Linux stops a write at a page boundary when a fatal signal (SIGKILL) is pending, and whole pages then make
 * whole packets. Only an event longer than a window (build logs, long device strings) spans windows, in a packet
 * of several pages.
 */
public final class EventStream {
    static final int PAGE = 4096;
    /** The window of the stream class with the largest packet header (device streams: two context fields). */
    static final int SMALLEST_WINDOW = PAGE - TraceWriter.headSize(2);

    final TraceWriter writer;
    final int streamClass;
    final long instanceId;
    /** Packet-context fields after the common ones (thread id; or queue and device). */
    final long[] contextExtra;
    final String fileName;
    volatile Chunk current;
    private long nextChunkSeq;
    private int eventStart;
    /** Bytes of a window: a page less this stream's packet header (a multiple of 8). */
    final int window;
    /** Window of the last event begun in the current chunk, or -1. */
    private int lastWindow = -1;
    /** Whether the last event was longer than a window: the next one starts a window of its own. */
    private boolean afterLong;
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
        this.window = PAGE - TraceWriter.headSize(contextExtra.length);
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
        int start = c == null ? -1 : place(c, maxSize);
        if (start < 0) {
            c = replace(c);
            start = c == null ? -1 : place(c, maxSize);
            if (start < 0) {
                discarded++;
                return null;
            }
        }
        ByteBuffer b = c.data;
        if (start >= windowLimit()) {
            // the event opens a window (start is its first byte): the last one is closed, say where its content ends
            if (lastWindow >= 0) {
                c.windowEnd[lastWindow] = b.position();
                c.windowLast[lastWindow] = eventStart;
            }
            lastWindow = start / window;
        }
        afterLong = maxSize > window;
        b.position(start);
        b.putLong(ts);
        b.putShort((short) eventId);
        eventStart = start;
        return b;
    }

    /** Where the window of the last event ends in the chunk (0 before the chunk's first event). */
    private int windowLimit() {
        return (lastWindow + 1) * window;
    }

    /**
     * Where an event of at most {@code maxSize} bytes starts in {@code c}: 8-aligned, in one window (or, when longer
     * than a window, at a window's start), after a long event in a fresh window; -1 when it does not fit.
     */
    private int place(Chunk c, int maxSize) {
        int start = align8(c.data.position());
        int limit = windowLimit();
        if (afterLong || maxSize > window || start + maxSize > limit) {
            start = start <= limit ? limit : (start + window - 1) / window * window;
        }
        return start + maxSize <= c.data.capacity() ? start : -1;
    }

    /** Publishes the event started by the last {@link #begin}. */
    public void commit() {
        Chunk c = current;
        int end = c.data.position();
        if (end > windowLimit()) {
            // a long event ran on past its window: its windows go out as one packet
            int last = (end - 1) / window;
            for (int w = lastWindow; w < last; w++) {
                c.windowEnd[w] = Chunk.JOINED;
            }
            lastWindow = last;
        }
        c.publish(eventStart, end);
    }

    private Chunk replace(Chunk full) {
        Chunk fresh = writer.takeChunk();
        if (fresh == null) {
            return null;
        }
        fresh.reset(nextChunkSeq++);
        lastWindow = -1;
        afterLong = false;
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
