package org.hetscope.formats.paje;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Decodes the chunks of a file's body on worker threads, a few chunks ahead of the reader, and hands them back
 * in file order. The workers see a fixed copy of the event definitions, which is why the reader stops using
 * this when a header line comes after the body started.
 */
final class ParallelDecoding implements AutoCloseable {
    private final LineChunks chunks;
    private final ExecutorService pool;
    private final ThreadLocal<LineDecoder> decoders;
    private final ArrayDeque<Future<DecodedLines>> ahead = new ArrayDeque<>();
    /** Chunks the reader is done with, whose arrays are reused (they would otherwise be most of the garbage). */
    private final ArrayDeque<DecodedLines> spare = new ArrayDeque<>();
    private final int depth;

    ParallelDecoding(LineChunks chunks, int workers, EventDefinition[] definitions, int timeShift) {
        this.chunks = chunks;
        this.depth = 2 * workers + 1;
        EventDefinition[] fixed = definitions.clone();
        this.decoders = ThreadLocal.withInitial(() -> {
            LineDecoder d = new LineDecoder();
            d.use(fixed, timeShift, true);
            return d;
        });
        this.pool = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "paje-decode");
            t.setDaemon(true);
            return t;
        });
    }

    /** The next chunk, decoded, or null at the end of the input. */
    DecodedLines next() throws IOException {
        while (ahead.size() < depth) {
            DecodedLines out = spare.poll();
            LineChunks.Chunk c = chunks.next(out == null ? null : out.buf);
            if (c == null) {
                break;
            }
            // About 37 bytes a line in StarPU traces; the arrays grow when lines are shorter.
            DecodedLines into = out != null ? out : new DecodedLines(c.buf(), 0, c.length(), c.endsFile(),
                    c.length() / 32 + 16);
            ahead.add(pool.submit(() -> decoders.get().decode(into, c.buf(), 0, c.length(), c.endsFile())));
        }
        Future<DecodedLines> f = ahead.poll();
        if (f == null) {
            return null;
        }
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error r) {
                throw r;
            }
            throw new IOException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while decoding the trace");
        }
    }

    /** Gives back a chunk the reader has applied, for its arrays to be reused. */
    void recycle(DecodedLines d) {
        spare.add(d);
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
