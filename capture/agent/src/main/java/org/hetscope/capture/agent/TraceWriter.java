package org.hetscope.capture.agent;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes a CTF 1.8 trace folder: the metadata file, and one file per {@link EventStream} made of complete packets.
 * Threads fill their own chunks without locks; a background thread turns handed-off chunks, and every
 * {@code flushIntervalMs} the complete part of the chunks still being filled, into packets. {@link #close()}
 * (run from the shutdown hook) writes whatever is complete at that moment, so the folder stays readable however
 * the program ends.
 */
public final class TraceWriter {
    static final int CTF_MAGIC = 0xC1FC1FC1;

    private record HandOff(EventStream stream, Chunk chunk) {}

    final Path dir;
    final UUID uuid;
    private final int chunkSize;
    private final long maxChunks;
    private final long flushIntervalNs;
    private final ConcurrentLinkedQueue<Chunk> pool = new ConcurrentLinkedQueue<>();
    private final AtomicLong allocated = new AtomicLong();
    private final ConcurrentLinkedQueue<HandOff> full = new ConcurrentLinkedQueue<>();
    private final CopyOnWriteArrayList<EventStream> streams = new CopyOnWriteArrayList<>();
    private final ReentrantLock flushLock = new ReentrantLock();
    private final byte[] uuidBytes;
    private volatile boolean running = true;
    private volatile boolean closed;
    private final Thread flusher;
    private final AtomicLong packets = new AtomicLong();
    private volatile IOException failure;

    public TraceWriter(Path dir, UUID uuid, String metadata, int chunkSize, long maxBytes, long flushIntervalMs)
            throws IOException {
        this.dir = dir;
        this.uuid = uuid;
        this.chunkSize = chunkSize;
        this.maxChunks = Math.max(4, maxBytes / chunkSize);
        this.flushIntervalNs = TimeUnit.MILLISECONDS.toNanos(flushIntervalMs);
        ByteBuffer u = ByteBuffer.allocate(16);
        u.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
        uuidBytes = u.array();
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("metadata"), metadata, StandardCharsets.UTF_8);
        flusher = new Thread(this::run, "hetscope-trace-flusher");
        flusher.setDaemon(true);
    }

    public void start() {
        flusher.start();
    }

    public EventStream newStream(int streamClass, long instanceId, long[] contextExtra, String fileName) {
        EventStream s = new EventStream(this, streamClass, instanceId, contextExtra, fileName);
        streams.add(s);
        return s;
    }

    Chunk takeChunk() {
        Chunk c = pool.poll();
        if (c != null) {
            return c;
        }
        if (allocated.incrementAndGet() > maxChunks) {
            allocated.decrementAndGet();
            return null;
        }
        return new Chunk(chunkSize);
    }

    void handOff(EventStream s, Chunk c) {
        full.offer(new HandOff(s, c));
        if (full.size() > 2) {
            LockSupport.unpark(flusher);
        }
    }

    public long packetsWritten() {
        return packets.get();
    }

    private void run() {
        long lastPartial = System.nanoTime();
        while (running) {
            LockSupport.parkNanos(20_000_000L);
            flushLock.lock();
            try {
                drainFull();
                if (System.nanoTime() - lastPartial >= flushIntervalNs) {
                    flushPartials();
                    lastPartial = System.nanoTime();
                }
            } catch (IOException e) {
                failure = e;
            } finally {
                flushLock.unlock();
            }
        }
    }

    /** Writes everything complete so far and closes the files; later events are not written. */
    public void close() {
        running = false;
        LockSupport.unpark(flusher);
        try {
            flusher.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flushLock.lock();
        try {
            if (closed) {
                return;
            }
            for (int i = 0; i < 3; i++) {
                drainFull();
                flushPartials();
            }
            drainFull();
            for (EventStream s : streams) {
                if (s.channel != null) {
                    // no fsync: what the process wrote survives its exit; only a machine crash could lose it
                    s.channel.close();
                }
            }
        } catch (IOException e) {
            failure = e;
        } finally {
            closed = true;
            flushLock.unlock();
        }
        if (failure != null) {
            System.err.println("hetscope agent: writing the trace in " + dir + " failed: " + failure);
        }
    }

    private void drainFull() throws IOException {
        HandOff h;
        while ((h = full.poll()) != null) {
            Chunk c = h.chunk();
            writeRange(h.stream(), c, c.flushed, c.committed, c.lastStart);
            h.stream().expectedSeq = c.seq + 1;
            pool.offer(c);
        }
    }

    private void flushPartials() throws IOException {
        for (EventStream s : streams) {
            Chunk c = s.current;
            if (c == null || c.seq != s.expectedSeq) {
                continue; // an older chunk of this stream is still queued: keep the file in order
            }
            int end;
            int last;
            int tries = 0;
            do {
                end = c.committed;
                last = c.lastStart;
            } while ((last >= end) && ++tries < 1000);
            if (last < 0 || last >= end || c.seq != s.expectedSeq) {
                continue;
            }
            writeRange(s, c, c.flushed, end, last);
        }
    }

    /** Bytes of a packet header with {@code contextExtra} stream-specific context fields. */
    static int headSize(int contextExtra) {
        return 80 + 8 * contextExtra;
    }

    private static final ByteBuffer ZEROS = ByteBuffer.allocate(EventStream.PAGE);

    /**
     * Writes the events of {@code c} in [flushed, to) as packets of whole pages: one packet per window of the chunk
     * (several windows joined when an event spans them), each header, content and zero padding up to the page, all
     * in one gathering write. Every packet starts on a page boundary of the file.
     */
    private void writeRange(EventStream s, Chunk c, int flushed, int to, int lastStart) throws IOException {
        int from = EventStream.align8(flushed); // events start 8-aligned; what lies before is padding
        if (to <= from || lastStart < from) {
            return;
        }
        if (closed) {
            return;
        }
        if (s.channel == null) {
            s.channel = FileChannel.open(dir.resolve(s.fileName), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        }
        ByteBuffer data = c.data;
        int window = s.window;
        int headSize = headSize(s.contextExtra.length);
        int lastWindow = (to - 1) / window;
        java.util.List<ByteBuffer> parts = new java.util.ArrayList<>();
        long want = 0;
        int p = from;
        while (p < to) {
            int e = p / window;
            while (e < lastWindow && c.windowEnd[e] == Chunk.JOINED) {
                e++;
            }
            int end = e >= lastWindow ? to : c.windowEnd[e];
            int last = e >= lastWindow ? lastStart : c.windowLast[e];
            if (end > p && last >= p) {
                long contentBytes = headSize + (end - p);
                long packetBytes = (contentBytes + EventStream.PAGE - 1) / EventStream.PAGE * EventStream.PAGE;
                ByteBuffer head = ByteBuffer.allocate(headSize).order(ByteOrder.LITTLE_ENDIAN);
                head.putInt(CTF_MAGIC).put(uuidBytes).putInt(s.streamClass).putLong(s.instanceId);
                head.putLong(data.getLong(p)).putLong(data.getLong(last));
                head.putLong(8 * contentBytes).putLong(8 * packetBytes).putLong(s.packetSeq++).putLong(s.discarded);
                for (long x : s.contextExtra) {
                    head.putLong(x);
                }
                head.flip();
                parts.add(head);
                parts.add(data.duplicate().limit(end).position(p));
                int pad = (int) (packetBytes - contentBytes); // less than a page
                if (pad > 0) {
                    parts.add(ZEROS.duplicate().limit(pad));
                }
                want += packetBytes;
                packets.incrementAndGet();
            }
            p = (e + 1) * window;
        }
        ByteBuffer[] all = parts.toArray(ByteBuffer[]::new);
        long done = 0;
        while (done < want) {
            done += s.channel.write(all);
        }
        c.flushed = to;
    }
}
