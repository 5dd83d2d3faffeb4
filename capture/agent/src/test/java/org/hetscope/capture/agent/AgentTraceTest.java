package org.hetscope.capture.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the example programs under the agent on the OpenCL implementation installed (PoCL in CI) and checks the
 * written trace as babeltrace2 decodes it against the counts each program kept of its own calls.
 */
class AgentTraceTest {
    @TempDir
    static Path work;

    @BeforeAll
    static void needs() {
        // CI installs both (.ci/apt-packages): there a missing tool is a failure, not a skip
        boolean ci = System.getenv("CI") != null;
        if (ci) {
            assertTrue(ExampleRun.openClAvailable(), "no OpenCL ICD installed (Debian: pocl-opencl-icd)");
            assertTrue(Babeltrace.available(), "babeltrace2 is not installed");
        }
        assumeTrue(ExampleRun.openClAvailable(), "no OpenCL ICD installed (Debian: pocl-opencl-icd)");
        assumeTrue(Babeltrace.available(), "babeltrace2 is not installed");
    }

    private static final String EX = "org.hetscope.capture.examples.";

    @Test
    void vectorAdd() throws Exception {
        check(ExampleRun.run(work, "vadd", EX + "VectorAdd", "65536"), true);
    }

    @Test
    void matrixMultiply() throws Exception {
        check(ExampleRun.run(work, "matmul", EX + "MatrixMultiply", "128", "3"), true);
    }

    @Test
    void launchHeavy() throws Exception {
        check(ExampleRun.run(work, "launch", EX + "LaunchHeavy", "3000"), true);
    }

    @Test
    void transferPipeline() throws Exception {
        check(ExampleRun.run(work, "pipeline", EX + "TransferPipeline", "8", "65536"), true);
    }

    @Test
    void subBuffersAndImages() throws Exception {
        int half = 4096;
        int w = 16;
        int h = 8;
        ExampleRun r = ExampleRun.run(work, "subimg", EX + "SubBuffersAndImages", "" + half, "" + w, "" + h);
        check(r, true);
        // what each memory object is, as OpenCL told the agent, against what the program asked for
        Map<Long, Babeltrace.Event> created = new TreeMap<>();
        for (Babeltrace.Event e : Babeltrace.read(r.trace())) {
            if (e.name().equals("mem_create")) {
                created.put(e.num("mem"), e);
            }
        }
        assertEquals(6, created.size(), "2 buffers, 2 sub-buffers and 2 images: " + created);
        List<Babeltrace.Event> subs = created.values().stream().filter(e -> e.num("parent") != 0).toList();
        assertEquals(2, subs.size());
        long halfBytes = half * 4L;
        assertEquals(Set.of(0L, halfBytes), Set.of(subs.get(0).num("origin"), subs.get(1).num("origin")));
        for (Babeltrace.Event s : subs) {
            Babeltrace.Event parent = created.get(s.num("parent"));
            assertTrue(parent != null && parent.num("parent") == 0, "a sub-buffer's parent is a traced buffer");
            assertEquals(2 * halfBytes, parent.num("size"));
            assertEquals(halfBytes, s.num("size"));
            assertEquals(0x10F0, s.num("object_type"), "CL_MEM_OBJECT_BUFFER");
        }
        List<Babeltrace.Event> images = created.values().stream()
                .filter(e -> e.num("object_type") == 0x10F1).toList(); // CL_MEM_OBJECT_IMAGE2D
        assertEquals(2, images.size());
        for (Babeltrace.Event i : images) {
            assertEquals(16, i.num("element_bytes"), "RGBA x float");
            assertTrue(i.num("size") >= (long) w * h * 16, "an image holds at least its pixels: " + i);
        }
    }

    @Test
    void deviceTimesThroughJoclAndThroughForeignCallsAgree() throws Exception {
        // both ways of reading device times give complete, ordered command records
        ExampleRun viaJocl = ExampleRun.runWith(work, "jocl", ",ffm=off", EX + "TransferPipeline", "3", "16384");
        check(viaJocl, true);
        assertTrue(java.nio.file.Files.readString(viaJocl.trace().resolve("metadata"))
                .contains("device_queries = \"jocl\""));
        // direct calls from the 6th command on: both paths within one trace
        ExampleRun direct = ExampleRun.runWith(work, "ffm", ",ffm=5", EX + "TransferPipeline", "3", "16384");
        check(direct, true);
        assertTrue(java.nio.file.Files.readString(direct.trace().resolve("metadata"))
                .contains("device_queries = \"jocl, foreign-function after 5 commands\""));
        assertTrue(NativeEvents.create() != null, "the foreign-function path is available (Java 22+, libOpenCL.so.1)");
    }

    @Test
    void apiOnlyModeRecordsCallsButNoCommands() throws Exception {
        ExampleRun r = ExampleRun.runWith(work, "apionly", ",device=off", EX + "VectorAdd", "4096");
        assertEquals(0, r.exitCode(), r.output());
        List<Babeltrace.Event> events = Babeltrace.read(r.trace());
        Map<String, Long> calls = new TreeMap<>();
        for (Babeltrace.Event e : events) {
            if (e.name().equals("api_call")) {
                calls.merge("call." + e.fields().get("function"), 1L, Long::sum);
            }
            if (e.name().equals("queue")) {
                assertEquals(0, e.num("profiling_forced"), "the queue is left as the program made it");
                assertEquals(0, e.num("properties"));
            }
        }
        Map<String, Long> expected = new TreeMap<>(r.report());
        expected.keySet().removeIf(k -> !k.startsWith("call."));
        assertEquals(expected, calls);
        assertEquals(0, events.stream().filter(e -> e.name().equals("command")).count());
    }

    @Test
    void systemExitMidRunLeavesReadableTrace() throws Exception {
        ExampleRun r = ExampleRun.run(work, "exit", EX + "LaunchHeavy", "100000", "exit-after=700");
        assertEquals(3, r.exitCode(), r.output());
        check(r, false);
    }

    @Test
    void sigkillLosesAtMostAboutTheFlushInterval() throws Exception {
        // no shutdown hook runs after SIGKILL: what the flusher wrote (every 100 ms by default) is all there is
        Process p = ExampleRun.start(work, "kill", "", EX + "LaunchHeavy", "100000000");
        Path trace = work.resolve("kill-trace");
        long deadline = System.nanoTime() + 60_000_000_000L;
        // wait until the launch loop runs: its first command lands on the queue's stream
        while (!hasDeviceStream(trace) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        Thread.sleep(1500);
        long killing = System.nanoTime(); // the agent's clock is System.nanoTime too (CLOCK_MONOTONIC)
        p.destroyForcibly(); // SIGKILL on Linux
        assertTrue(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
        long dead = System.nanoTime();
        assertEquals(137, p.exitValue(), "killed by SIGKILL");

        // Linux stops a buffered write at a page boundary when a fatal signal is pending; the agent writes packets
        // of whole pages from page boundaries, so the files hold whole packets however the write was cut, and
        // babeltrace2 reads them as they are.
        try (var files = java.nio.file.Files.list(trace)) {
            for (Path f : files.filter(x -> !x.getFileName().toString().equals("metadata")).toList()) {
                assertEquals(0, java.nio.file.Files.size(f) % EventStream.PAGE, f + " ends inside a page");
            }
        }
        Map<Long, Long> lastSeq = new TreeMap<>();
        long[] lastCall = {0};
        long[] launches = {0};
        // streamed: a second and a half of launches on a fast machine is millions of events
        Babeltrace.forEach(trace, true, e -> { // fails on any damaged packet
            if (e.name().equals("api_call")) {
                long seq = e.num("seq");
                long prev = lastSeq.getOrDefault(e.streamKey(), 0L);
                assertEquals(prev + 1, seq, "thread " + e.streamKey() + ": a call missing before the kill");
                lastSeq.put(e.streamKey(), seq);
                lastCall[0] = Math.max(lastCall[0], e.ts() + e.num("duration"));
            }
            if (e.name().equals("enqueue_kernel")) {
                launches[0]++;
            }
        });
        assertTrue(launches[0] > 1000, "launches recorded: " + launches[0]);
        // the program was launching every few microseconds when it died: the trace ends about one flush interval
        // (100 ms) before the kill at most, with room for a busy machine delaying the flusher
        assertTrue(lastCall[0] <= dead, "a call after the process died?");
        long lostNs = killing - lastCall[0]; // below 0 when calls went on until the signal landed
        assertTrue(lostNs < 500_000_000L, "last recorded call ended " + lostNs / 1e6 + " ms before the kill");
    }

    private static boolean hasDeviceStream(Path trace) throws java.io.IOException {
        if (!java.nio.file.Files.isDirectory(trace)) {
            return false;
        }
        try (var s = java.nio.file.Files.list(trace)) {
            return s.anyMatch(f -> f.getFileName().toString().startsWith("device-"));
        }
    }

    @Test
    void uncaughtExceptionLeavesReadableTrace() throws Exception {
        ExampleRun r = ExampleRun.run(work, "throw", EX + "LaunchHeavy", "100000", "throw-after=400");
        assertEquals(1, r.exitCode(), r.output());
        check(r, false);
    }

    /**
     * Every call the program made is one api_call (on its own threads), every command it enqueued is one enqueue
     * event and one command event; kernel and transfer counts and bytes per direction are the program's.
     */
    private static void check(ExampleRun run, boolean finished) throws Exception {
        if (finished) {
            assertEquals(0, run.exitCode(), run.output());
        }
        Map<String, Long> expected = run.report();
        assertTrue(expected.getOrDefault("commands", 0L) > 0, "the example wrote no report: " + run.output());
        List<Babeltrace.Event> events = Babeltrace.read(run.trace());

        Set<Long> library = new HashSet<>();
        for (Babeltrace.Event e : events) {
            if (e.name().equals("thread") && e.num("library") == 1) {
                library.add(e.streamKey());
            }
        }
        Map<String, Long> calls = new TreeMap<>();
        Map<String, Long> got = new TreeMap<>();
        Map<Long, Long> enqueued = new TreeMap<>();
        Map<Long, Long> completed = new TreeMap<>();
        for (Babeltrace.Event e : events) {
            switch (e.name()) {
                case "api_call" -> {
                    if (!library.contains(e.streamKey())) {
                        calls.merge("call." + e.fields().get("function"), 1L, Long::sum);
                    }
                }
                case "enqueue_kernel" -> {
                    got.merge("kernels", 1L, Long::sum);
                    got.merge("commands", 1L, Long::sum);
                    assertTrue(enqueued.put(e.num("command"), e.num("command")) == null, "command id twice");
                }
                case "enqueue_mem" -> {
                    String dir = e.fields().get("direction");
                    got.merge("transfers." + dir, 1L, Long::sum);
                    got.merge("bytes." + dir, e.num("bytes"), Long::sum);
                    got.merge("commands", 1L, Long::sum);
                    assertTrue(enqueued.put(e.num("command"), e.num("command")) == null, "command id twice");
                }
                case "command" -> {
                    assertTrue(completed.put(e.num("command"), e.num("status")) == null, "command seen twice");
                    if (e.num("status") == 0) {
                        long q = e.num("queued");
                        long sub = e.num("submit");
                        long s = e.num("start");
                        long end = e.num("end");
                        assertTrue(q > 0 && q <= sub && sub <= s && s <= end, "device times out of order: " + e);
                    }
                }
                default -> { }
            }
        }
        Map<String, Long> programCalls = new TreeMap<>(expected);
        programCalls.keySet().removeIf(k -> !k.startsWith("call."));
        assertEquals(programCalls, calls, "API calls per function");
        Map<String, Long> programCounts = new TreeMap<>(expected);
        programCounts.keySet().removeIf(k -> k.startsWith("call."));
        assertEquals(programCounts, got, "commands, kernels, transfers and bytes");
        assertEquals(enqueued.keySet(), completed.keySet(), "every enqueued command has one command event");
        if (finished) {
            assertTrue(completed.values().stream().allMatch(s -> s == 0), "all commands completed");
        }
    }
}
