package org.hetscope.formats.ctf.mapping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hetscope.formats.ctf.CtfTrace;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.CounterSample;
import org.hetscope.model.Progress;
import org.hetscope.model.Track;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records a real LTTng-UST trace (libc wrapper, two threads) with the shared script, then checks our event count
 * against babeltrace2's, and our live-heap counter at the end against a recomputation from babeltrace2's text.
 */
class LttngRecordingTest {
    private static final Pattern LINE = Pattern.compile(
            "lttng_ust_libc:(\\w+): .*?procname = \"([^\"]*)\".*?\\}, \\{ (.*) \\}$");

    static String run(Path dir, String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + new String(out, StandardCharsets.UTF_8));
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    static boolean onPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(d, tool))) {
                return true;
            }
        }
        return false;
    }

    @Test
    void recordedTraceMatchesBabeltrace2(@TempDir Path tmp) throws Exception {
        Assumptions.assumeTrue(onPath("lttng") && onPath("lttng-sessiond") && onPath("gcc") && onPath("babeltrace2"),
                "needs lttng-tools, liblttng-ust-dev, gcc and babeltrace2 to record and check a trace");
        Path script = Path.of(System.getProperty("hetscope.root", ".")).resolve("../shared/scripts/make-lttng-trace.sh");
        String traceDir;
        try {
            String out = run(tmp, "bash", script.toString(), tmp.resolve("session").toString(), "4000");
            String[] lines = out.strip().split("\n");
            traceDir = lines[lines.length - 1].strip();
        } catch (IOException e) {
            Assumptions.abort("cannot record an LTTng trace here (no session daemon?): " + e.getMessage());
            return;
        }
        Path session = tmp.resolve("session");
        assertTrue(Files.isRegularFile(Path.of(traceDir, "metadata")), traceDir);

        String text = run(tmp, "babeltrace2", session.toString());
        List<String> lines = text.lines().toList();

        long ours;
        try (CtfTrace t = CtfTrace.open(session)) {
            ours = t.count(2).stream().mapToLong(CtfTrace.ClassCount::events).sum();
            assertTrue(t.problems().isEmpty(), t.problems().toString());
        }
        assertEquals(lines.size(), ours, "events: ours vs babeltrace2");
        List<String> diffs = org.hetscope.formats.ctf.BabeltraceAgreementTest.compare(session);
        assertTrue(diffs != null && diffs.isEmpty(), "field-level agreement: " + diffs);
        assertTrue(ours > 16000, "two threads x 4000 iterations x malloc+free");

        // Independent recomputation of live heap bytes per process name from babeltrace2's text.
        Map<String, Map<Long, Long>> live = new HashMap<>();
        Map<String, Long> bytes = new HashMap<>();
        for (String l : lines) {
            Matcher m = LINE.matcher(l);
            if (!m.find()) {
                continue;
            }
            Map<String, String> f = new HashMap<>();
            for (String kv : m.group(3).split(", ")) {
                String[] p = kv.split(" = ");
                f.put(p[0], p[1]);
            }
            Map<Long, Long> blocks = live.computeIfAbsent(m.group(2), k -> new HashMap<>());
            String proc = m.group(2);
            long delta = 0;
            switch (m.group(1)) {
                case "malloc", "memalign" -> delta += add(blocks, hex(f.get("ptr")), dec(f.get("size")));
                case "calloc" -> delta += add(blocks, hex(f.get("ptr")), dec(f.get("nmemb")) * dec(f.get("size")));
                case "posix_memalign" -> {
                    if (dec(f.get("result")) == 0) {
                        delta += add(blocks, hex(f.get("out_ptr")), dec(f.get("size")));
                    }
                }
                case "realloc" -> {
                    long out = hex(f.get("ptr"));
                    long size = dec(f.get("size"));
                    if (out != 0 || size == 0) {
                        delta -= remove(blocks, hex(f.get("in_ptr")));
                    }
                    delta += add(blocks, out, size);
                }
                case "free" -> delta -= remove(blocks, hex(f.get("ptr")));
                default -> { }
            }
            bytes.merge(proc, delta, Long::sum);
        }
        assertTrue(bytes.containsKey("allocs"), bytes.toString());

        CollectingSink sink = new CollectingSink();
        new CtfTraceFormat().read(session, sink, Progress.NONE);
        Track counter = sink.tracks.stream().filter(t -> t.name().equals(LibcHeapMapper.COUNTER)
                && sink.processes.stream().anyMatch(p -> p.id() == t.processId() && "allocs".equals(p.name())))
                .findFirst().orElseThrow();
        CounterSample lastSample = null;
        for (CounterSample s : sink.counters) {
            if (s.trackId() == counter.id()) {
                lastSample = s;
            }
        }
        assertEquals((double) bytes.get("allocs"), lastSample.value(), "live heap bytes at the end");
        assertEquals(Long.toString(bytes.get("allocs")), sink.info.get("ctf.heap.live_bytes_at_end.name:allocs"));
        long slices = sink.slices.stream().filter(s -> s.sourceCategory().equals("lttng_ust_libc")).count();
        assertTrue(slices >= 8000, "allocation slices: " + slices);
        // blocks on one lane (depth) never overlap
        Map<Integer, Long> laneEnd = new HashMap<>();
        sink.slices.stream().filter(s -> s.sourceCategory().equals("lttng_ust_libc"))
                .sorted(java.util.Comparator.comparingLong(org.hetscope.model.Slice::ts)).forEach(s -> {
                    long end = laneEnd.getOrDefault(s.depth(), Long.MIN_VALUE);
                    assertTrue(s.ts() >= end, "overlap on lane " + s.depth());
                    laneEnd.put(s.depth(), s.end());
                });
    }

    private static long hex(String s) {
        return Long.parseUnsignedLong(s.substring(2), 16);
    }

    private static long dec(String s) {
        return Long.parseLong(s);
    }

    private static long add(Map<Long, Long> blocks, long ptr, long size) {
        if (ptr == 0) {
            return 0;
        }
        Long old = blocks.put(ptr, size);
        return size - (old == null ? 0 : old);
    }

    private static long remove(Map<Long, Long> blocks, long ptr) {
        Long old = ptr == 0 ? null : blocks.remove(ptr);
        return old == null ? 0 : old;
    }
}
