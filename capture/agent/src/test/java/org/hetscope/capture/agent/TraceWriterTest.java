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
    @Test
    void packetsAreWholePagesAndLongEventsSpanThem() throws Exception {
        assumeTrue(Babeltrace.available(), "babeltrace2 is not installed");
        Path out = dir.resolve("pages");
        TraceWriter w = writer(out, 16 * 1024, 64L * 1024 * 1024);
        w.start(); // partial flushes every 10 ms cut windows in the middle too
        Thread me = Thread.currentThread();
        EventStream s = w.newStream(TraceMetadata.STREAM_HOST, 7, new long[] {7}, "host-7");
        HostRecorder r = new HostRecorder(s, me);
        java.util.Random random = new java.util.Random(5);
        List<Integer> longNames = new ArrayList<>();
        int calls = 0;
        for (int i = 0; i < 20000; i++) {
            if (random.nextInt(500) == 0) {
                // a thread event whose name is longer than a page: it spans windows, in a packet of several pages
                int len = 3000 + random.nextInt(9000);
                byte[] name = "n".repeat(len).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                java.nio.ByteBuffer b = s.begin(i, TraceMetadata.THREAD, 24 + len + 1 + 8);
                EventStream.putString(b, name);
                b.putLong(1).put((byte) 0);
                s.commit();
                longNames.add(len);
            } else {
                r.apiCall(i, i + 1, i % ClFunctions.NAMES.size(), 0);
                calls++;
            }
            if (i % 2000 == 0) {
                Thread.sleep(15);
            }
        }
        w.close();
        byte[] file = java.nio.file.Files.readAllBytes(out.resolve("host-7"));
        assertEquals(0, file.length % EventStream.PAGE, "the file is whole pages");
        java.nio.ByteBuffer f = java.nio.ByteBuffer.wrap(file).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int packets = 0;
        for (int at = 0; at < file.length; packets++) {
            assertEquals(TraceWriter.CTF_MAGIC, f.getInt(at), "a packet starts at " + at);
            long packetBytes = f.getLong(at + 56) / 8;
            long contentBytes = f.getLong(at + 48) / 8;
            assertEquals(0, packetBytes % EventStream.PAGE, "packet at " + at + " is whole pages");
            assertTrue(contentBytes <= packetBytes && packetBytes - contentBytes < EventStream.PAGE);
            at += (int) packetBytes;
        }
        assertTrue(packets > file.length / EventStream.PAGE / 2, "most packets are one page: " + packets);
        // the text parser's regular expression recurses per character of a string field: give it a deep stack
        List<List<Babeltrace.Event>> read = new ArrayList<>();
        Thread parse = new Thread(null, () -> {
            try {
                read.add(Babeltrace.read(out, true));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "babeltrace-parse", 512L << 20);
        parse.start();
        parse.join();
        assertEquals(1, read.size(), "babeltrace2 read the trace");
        List<Babeltrace.Event> events = read.get(0);
        assertEquals(calls, events.stream().filter(e -> e.name().equals("api_call")).count());
        assertEquals(longNames, events.stream().filter(e -> e.name().equals("thread"))
                .map(e -> e.fields().get("name")).filter(n -> !n.equals(me.getName())) // the recorder's own
                .map(String::length).toList(), "long events, whole and in order");
    }
}
