package org.hetscope.capture.agent;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A CTF 1.8 trace folder being written: the metadata file, and one file per {@link EventStream}, each made of
 * packets that the stream's owner maps and fills itself (no locks, no flusher thread, no copies). Every file is
 * readable at every moment, so the folder holds everything recorded up to the instant the process ends, however
 * it ends. The writer only hands out packet space within the trace size limit and closes the files.
 */
public final class TraceWriter {
    static final int CTF_MAGIC = 0xC1FC1FC1;

    final Path dir;
    final UUID uuid;
    final byte[] uuidBytes;
    /** Bytes per packet (a larger event gets a packet of its own size). */
    final int packetBytes;
    private final long maxBytes;
    private final AtomicLong reserved = new AtomicLong();
    private final AtomicLong packets = new AtomicLong();
    private final CopyOnWriteArrayList<EventStream> streams = new CopyOnWriteArrayList<>();
    private volatile boolean closed;
    private volatile String failure;

    /**
     * @param packetBytes bytes per packet
     * @param maxBytes    trace size limit: packets beyond it are not made and their events are counted as
     *                    discarded (0 = no limit)
     */
    public TraceWriter(Path dir, UUID uuid, String metadata, int packetBytes, long maxBytes) throws IOException {
        this.dir = dir;
        this.uuid = uuid;
        this.packetBytes = packetBytes;
        this.maxBytes = maxBytes <= 0 ? Long.MAX_VALUE : maxBytes;
        ByteBuffer u = ByteBuffer.allocate(16);
        u.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
        uuidBytes = u.array();
        zeros = ByteBuffer.allocateDirect(packetBytes).asReadOnlyBuffer();
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("metadata"), metadata, StandardCharsets.UTF_8);
    }

    public EventStream newStream(int streamClass, long instanceId, long[] contextExtra, String fileName) {
        EventStream s = new EventStream(this, streamClass, instanceId, contextExtra, fileName);
        streams.add(s);
        return s;
    }

    private final ByteBuffer zeros;

    /** {@code n} zero bytes to write (a view of one shared read-only buffer when it is large enough). */
    ByteBuffer zeros(long n) {
        if (n <= zeros.capacity()) {
            return zeros.duplicate().limit((int) n);
        }
        return ByteBuffer.allocate(Math.toIntExact(n));
    }

    /** Takes {@code bytes} of the size limit for a new packet; false when the limit or the close says no. */
    boolean reserve(long bytes) {
        if (closed) {
            return false;
        }
        if (reserved.addAndGet(bytes) > maxBytes) {
            reserved.addAndGet(-bytes);
            return false;
        }
        return true;
    }

    void packetMapped() {
        packets.incrementAndGet();
    }

    void failed(String file, Exception e) {
        if (!closed && failure == null) {
            failure = file + ": " + e;
            System.err.println("hetscope agent: cannot grow " + dir.resolve(file) + " (" + e
                    + "); its further events are counted as discarded");
        }
    }

    public long packetsWritten() {
        return packets.get();
    }

    /**
     * Closes the files. Events still being written go on into their mapped packets (and so into the files); no
     * new packet is made.
     */
    public void close() {
        closed = true;
        for (EventStream s : streams) {
            try {
                s.closeFile();
            } catch (IOException e) {
                System.err.println("hetscope agent: closing " + dir.resolve(s.fileName) + ": " + e);
            }
        }
    }
}
