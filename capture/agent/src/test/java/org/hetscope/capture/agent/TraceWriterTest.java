package org.hetscope.capture.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CTF writer under concurrency: several threads fill small chunks while the flusher writes partly filled
 * chunks every few milliseconds, and the trace is closed while the threads are still writing. babeltrace2 must
 * read every packet, and each thread's events must come out complete and in order up to where the close cut.
 */
class TraceWriterTest {
    @TempDir
    Path dir;

    private static TraceWriter writer(Path out, int chunk, long maxBytes) throws Exception {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("tracer_name", TraceMetadata.TRACER_NAME);
        UUID uuid = UUID.randomUUID();
        return new TraceWriter(out, uuid, TraceMetadata.text(uuid, 0, env), chunk, maxBytes, 10);
    }

    @Test
    void concurrentWritersAndPartialFlushesGiveCompleteOrderedStreams() throws Exception {
        assumeTrue(Babeltrace.available(), "babeltrace2 is not installed");
        Path out = dir.resolve("trace");
        TraceWriter w = writer(out, 16 * 1024, 64L * 1024 * 1024);
        w.start();
        int threads = 4;
        int perThread = 30000;
        CountDownLatch halfway = new CountDownLatch(threads);
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread th = new Thread(() -> {
                Thread me = Thread.currentThread();
                HostRecorder r = new HostRecorder(w.newStream(TraceMetadata.STREAM_HOST, me.threadId(),
                        new long[] {me.threadId()}, "host-" + me.threadId()), me);
                for (int i = 0; i < perThread; i++) {
                    long now = System.nanoTime();
                    r.apiCall(now, now + 5, i % ClFunctions.NAMES.size(), 0);
                    if (i == perThread / 2) {
                        halfway.countDown();
                    }
                }
            }, "writer-" + t);
            th.start();
            ts.add(th);
        }
        halfway.await();
        w.close(); // while the threads still write: only complete events may reach the files
        for (Thread th : ts) {
            th.join();
        }
        List<Babeltrace.Event> events = Babeltrace.read(out);
        Map<Long, Long> lastSeq = new HashMap<>();
        for (Babeltrace.Event e : events) {
            if (!e.name().equals("api_call")) {
                continue;
            }
            long seq = e.num("seq");
            long prev = lastSeq.getOrDefault(e.streamKey(), 0L);
            assertEquals(prev + 1, seq, "thread " + e.streamKey() + ": events missing or out of order");
            lastSeq.put(e.streamKey(), seq);
        }
        assertEquals(threads, lastSeq.size());
        for (long n : lastSeq.values()) {
            assertTrue(n >= perThread / 2, "everything written before the close is in the trace: " + n);
        }
    }

    @Test
    void eventsBeyondTheMemoryLimitAreCountedAsDiscarded() throws Exception {
        assumeTrue(Babeltrace.available(), "babeltrace2 is not installed");
        Path out = dir.resolve("small");
        // 4 chunks of 16 KiB at most and no flusher running: the rest must be dropped and counted, in the packet
        // headers too
        TraceWriter w = writer(out, 16 * 1024, 16 * 1024);
        Thread me = Thread.currentThread();
        EventStream s = w.newStream(TraceMetadata.STREAM_HOST, 1, new long[] {1}, "host-1");
        HostRecorder r = new HostRecorder(s, me);
        int n = 10000;
        for (int i = 0; i < n; i++) {
            r.apiCall(1000 + i, 1001 + i, 0, 0);
        }
        long dropped = s.discarded;
        assertTrue(dropped > 0);
        w.close();
        List<Babeltrace.Event> events = Babeltrace.read(out);
        long kept = events.stream().filter(e -> e.name().equals("api_call")).count();
        assertEquals(n, kept + dropped, "kept + discarded = written");
        // CTF's packet.context events_discarded (after magic, uuid, stream id and instance, two timestamps and two
        // sizes and the sequence number: byte 72) tells readers how many were lost
        java.nio.ByteBuffer head = java.nio.ByteBuffer.wrap(java.nio.file.Files.readAllBytes(out.resolve("host-1")))
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        assertEquals(dropped, head.getLong(72));
    }
}
