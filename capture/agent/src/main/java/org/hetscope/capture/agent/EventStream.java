package org.hetscope.capture.agent;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.StandardOpenOption;

/**
 * One CTF stream instance (a thread's API calls, or a command queue's device commands), written by its single
 * owner straight into a memory-mapped packet of its file. The packet header is made complete when the packet is
 * mapped, and its content size and last timestamp are advanced after every event, so the file is a readable CTF
 * stream at every instant: whatever the process wrote is in the page cache and survives any end of the process,
 * SIGKILL included, with no flusher thread and no copy.
 *
 * <p>Every event starts 8-byte aligned with its 64-bit timestamp, then a 16-bit event id, then the payload, which
 * is byte-packed; this matches the layout declared in {@link TraceMetadata}. Packets have the writer's packet
 * size; the unused end of the last one is padding (CTF's content size < packet size), a hole in the file.
 */
public final class EventStream {
    // offsets in the packet header written by begin(): see TraceMetadata's packet.header and packet.context
    private static final int TS_BEGIN = 32;
    private static final int TS_END = 40;
    private static final int CONTENT_SIZE = 48;
    private static final int DISCARDED = 72;
    private static final int CONTEXT_EXTRA = 80;

    final TraceWriter writer;
    final int streamClass;
    final long instanceId;
    /** Packet-context fields after the common ones (thread id; or queue and device). */
    final long[] contextExtra;
    final String fileName;
    private final int headSize;
    private FileChannel channel;
    private MappedByteBuffer packet;
    private long packetStart;
    private long packets;
    private boolean empty;
    private boolean failed;
    private int eventStart;
    private long eventTs;
    /** Events dropped (trace size limit reached, or the file could not grow); also in the packet header. */
    volatile long discarded;

    EventStream(TraceWriter writer, int streamClass, long instanceId, long[] contextExtra, String fileName) {
        this.writer = writer;
        this.streamClass = streamClass;
        this.instanceId = instanceId;
        this.contextExtra = contextExtra;
        this.fileName = fileName;
        this.headSize = CONTEXT_EXTRA + 8 * contextExtra.length;
    }

    /**
     * Starts an event of at most {@code maxSize} bytes (header included) and returns the buffer to put the payload
     * into, or null when the event must be dropped (it is counted as discarded).
     */
    public ByteBuffer begin(long ts, int eventId, int maxSize) {
        MappedByteBuffer p = packet;
        if (p == null || p.capacity() - align8(p.position()) < maxSize) {
            p = nextPacket(ts, maxSize);
            if (p == null) {
                discard();
                return null;
            }
        }
        int start = align8(p.position());
        p.position(start);
        p.putLong(ts);
        p.putShort((short) eventId);
        eventStart = start;
        eventTs = ts;
        return p;
    }

    /** Makes the event started by the last {@link #begin} part of the packet's content. */
    public void commit() {
        MappedByteBuffer p = packet;
        if (empty) {
            p.putLong(TS_BEGIN, eventTs);
            empty = false;
        }
        p.putLong(TS_END, eventTs);
        // last: a process killed before this store leaves the packet as it was before the event
        p.putLong(CONTENT_SIZE, 8L * p.position());
    }

    private void discard() {
        long d = discarded + 1;
        discarded = d;
        if (packet != null) {
            packet.putLong(DISCARDED, d);
        }
    }

    /** Maps the next packet of the file, header complete and no event yet; null if it cannot be had. */
    private MappedByteBuffer nextPacket(long ts, int maxSize) {
        if (failed) {
            return null;
        }
        long size = align8(Math.max(writer.packetBytes, headSize + maxSize));
        long at = packet == null ? 0 : packetStart + packet.capacity();
        if (!writer.reserve(size)) {
            return null;
        }
        try {
            if (channel == null) {
                channel = FileChannel.open(writer.dir.resolve(fileName), StandardOpenOption.CREATE,
                        StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
            }
            // The packet, header and zeroed body, is written in one system call before it is mapped: a signal
            // cannot split a write to a regular file, so a killed process never leaves a half-made packet; and
            // the file's blocks then exist, whereas a hole would be allocated by the file system at the first
            // store into each page (several microseconds a page, measured: +0.2 us per traced call).
            ByteBuffer head = ByteBuffer.allocate(headSize).order(ByteOrder.LITTLE_ENDIAN);
            head.putInt(TraceWriter.CTF_MAGIC).put(writer.uuidBytes).putInt(streamClass).putLong(instanceId);
            head.putLong(ts).putLong(ts).putLong(8L * headSize).putLong(8L * size).putLong(packets)
                    .putLong(discarded);
            for (long x : contextExtra) {
                head.putLong(x);
            }
            head.flip();
            ByteBuffer[] parts = {head, writer.zeros(size - headSize)};
            channel.position(at);
            while (parts[1].hasRemaining()) {
                channel.write(parts);
            }
            MappedByteBuffer m = channel.map(FileChannel.MapMode.READ_WRITE, at, size);
            m.order(ByteOrder.LITTLE_ENDIAN);
            m.position(headSize);
            packets++;
            packet = m;
            packetStart = at;
            empty = true;
            writer.packetMapped();
            return m;
        } catch (IOException | RuntimeException e) {
            failed = true; // the disk is full, the folder went away or the writer closed: count, never throw
            writer.failed(fileName, e);
            return null;
        }
    }

    void closeFile() throws IOException {
        if (channel != null) {
            channel.close(); // the mapping of the current packet stays valid: late events still reach the file
        }
    }

    static int align8(int p) {
        return (p + 7) & ~7;
    }

    static long align8(long p) {
        return (p + 7) & ~7L;
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
