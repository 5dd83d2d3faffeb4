package org.hetscope.formats.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hetscope.model.Category;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.CounterSample;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.hetscope.model.Transfer;
import org.hetscope.model.TraceThread;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs each example program under the packaged agent, imports its trace, and checks the model against what the
 * program counted itself and against babeltrace2's reading of the same trace.
 */
class OpenclImportTest {
    @TempDir
    static Path work;

    @BeforeAll
    static void needs() {
        AgentRun.require();
    }

    @Test
    void vectorAdd() throws Exception {
        AgentRun r = AgentRun.run(work, "vadd", "VectorAdd", "65536");
        CollectingSink s = importAndCheck(r, true);
        // three 256 KiB buffers live together, all released at the end
        assertEquals(3 * 65536L * 4, maxMemory(s));
        // residency (spec §3): a and b are written to the device and only read by the kernel, so both copies are
        // valid from the write on; c is written by the kernel (device only) until it is read back (both)
        Map<Long, List<org.hetscope.model.Residency>> byBlock = new TreeMap<>();
        s.residencies.forEach(x -> byBlock.computeIfAbsent(x.blockId(), k -> new java.util.ArrayList<>()).add(x));
        assertEquals(3, byBlock.size());
        long deviceOnly = 0;
        for (List<org.hetscope.model.Residency> rs : byBlock.values()) {
            long lastEnd = rs.stream().mapToLong(x -> x.ts() + x.dur()).max().orElseThrow();
            assertEquals(2, rs.stream().filter(x -> x.ts() + x.dur() == lastEnd && x.state().equals("shared")).count(),
                    "host and device copies valid at the end: " + rs);
            deviceOnly += rs.stream().filter(x -> x.state().equals("owner") && x.nodeId() != s.memoryNodes.stream()
                    .filter(n -> n.kind().equals("host")).findFirst().orElseThrow().id()).count();
        }
        assertEquals(1, deviceOnly, "only c is device-only (between the kernel and the read)");
    }

    @Test
    void matrixMultiply() throws Exception {
        AgentRun r = AgentRun.run(work, "matmul", "MatrixMultiply", "128", "3");
        CollectingSink s = importAndCheck(r, true);
        assertEquals(3 * 128L * 128 * 4, maxMemory(s));
        // 128 x 128 work-items in 16 x 16 groups = 8 x 8 groups
        s.kernels.forEach(k -> {
            assertEquals(8, k.grid().x());
            assertEquals(8, k.grid().y());
            assertEquals(16, k.block().x());
        });
    }

    @Test
    void launchHeavy() throws Exception {
        AgentRun r = AgentRun.run(work, "launch", "LaunchHeavy", "2000");
        importAndCheck(r, true);
    }

    @Test
    void subBuffersAndImages() throws Exception {
        int half = 4096;
        long halfBytes = half * 4L;
        long imageBytes = 16L * 8 * 16; // 16 x 8 RGBA float pixels
        AgentRun r = AgentRun.run(work, "subimg", "SubBuffersAndImages", "" + half, "16", "8");
        CollectingSink s = importAndCheck(r, true);
        Map<Long, Track> tracks = new HashMap<>();
        s.tracks.forEach(t -> tracks.put(t.id(), t));
        List<Track> blocks = s.tracks.stream().filter(t -> t.kind() == TrackKind.BLOCK).toList();
        List<Track> subs = blocks.stream().filter(t -> t.name().startsWith("sub-buffer ")).toList();
        assertEquals(2, subs.size(), "tracks: " + blocks);
        for (Track sub : subs) {
            Track parent = tracks.get(sub.parentId());
            assertTrue(parent.name().startsWith("buffer ") && parent.name().contains("(" + 2 * halfBytes + " B)"),
                    "a sub-buffer's track sits under its buffer's: " + sub + " under " + parent);
        }
        assertEquals(Set.of("sub-buffer at +0", "sub-buffer at +" + halfBytes), subs.stream()
                .map(t -> "sub-buffer" + t.name().replaceAll(".*( at \\+\\d+) of .*", "$1")).collect(
                        java.util.stream.Collectors.toSet()));
        List<Long> imageSizes = s.memoryBlocks.stream().filter(b -> b.name().startsWith("image2d "))
                .map(b -> b.sizeBytes()).toList();
        assertEquals(2, imageSizes.size());
        imageSizes.forEach(z -> assertTrue(z >= imageBytes, "an image holds its pixels: " + z));
        // device memory: the parent, the flat buffer and both images at once; sub-buffers allocate nothing
        assertEquals(2 * halfBytes + imageBytes + imageSizes.get(0) + imageSizes.get(1), maxMemory(s));
        // the kernel wrote through a sub-buffer: its buffer holds device-only data until the whole is read back
        long hostNode = s.memoryNodes.stream().filter(n -> n.kind().equals("host")).findFirst().orElseThrow().id();
        long parentBlock = s.memoryBlocks.stream().filter(b -> b.name().startsWith("buffer ")
                && b.sizeBytes() == 2 * halfBytes).findFirst().orElseThrow().id();
        assertTrue(s.residencies.stream().anyMatch(x -> x.blockId() == parentBlock && x.nodeId() != hostNode
                && x.state().equals("owner")), "device-only residency of the parent: " + s.residencies);
    }

    @Test
    void transferPipelineIntoStore() throws Exception {
        AgentRun r = AgentRun.run(work, "pipeline", "TransferPipeline", "6", "32768");
        CollectingSink s = importAndCheck(r, true);
        // clWaitForEvents waits on the program's own events: one sync flow per wait of the program (JOCL's helper
        // threads wait on the same events, their waits are flagged library)
        Map<Long, Slice> byId = new HashMap<>();
        s.slices.forEach(x -> byId.put(x.id(), x));
        assertEquals(r.report().get("call.clWaitForEvents"), s.flows.stream().filter(f -> f.kind().equals("sync"))
                .filter(f -> !byId.get(f.toSliceId()).argsJson().contains("\"library\":true")).count());
        Path db = work.resolve("pipeline.duckdb");
        try (StoreWriter w = StoreWriter.create(db)) {
            new OpenclTraceFormat().read(r.trace(), w, Progress.NONE);
            w.commit();
        }
        try (Store st = Store.open(db)) {
            assertEquals(r.report().get("kernels"), st.scalarLong("select count(*) from kernel"));
            assertEquals(r.report().get("bytes.HtoD") + r.report().get("bytes.unmap"),
                    st.scalarLong("select sum(bytes) from transfer where kind = 'HtoD'"));
            assertEquals(r.report().get("commands"),
                    st.scalarLong("select count(*) from opencl_command where slice_id is not null"));
            assertEquals(0L, st.scalarLong("select count(*) from opencl_command c join slice e "
                    + "on e.id = c.enqueue_slice_id where c.queued_ts < e.ts or c.start_ts < c.queued_ts "
                    + "or c.end_ts < c.start_ts"));
        }
    }

    @Test
    void systemExitMidRunStillImports() throws Exception {
        AgentRun r = AgentRun.run(work, "exit", "LaunchHeavy", "50000", "exit-after=500");
        assertEquals(3, r.exitCode(), r.output());
        importAndCheck(r, false);
    }

    @Test
    void detectionPrefersOpenclOverGenericCtf() throws Exception {
        AgentRun r = AgentRun.run(work, "detect", "VectorAdd", "1024");
        List<org.hetscope.model.TraceFormat> formats = new java.util.ArrayList<>();
        java.util.ServiceLoader.load(org.hetscope.model.TraceFormat.class).forEach(formats::add);
        assertTrue(formats.stream().anyMatch(f -> f.name().equals("ctf")), "the generic CTF reader is present");
        // the CLI's rule: most specific (highest priority) first, the first that accepts wins
        formats.sort(java.util.Comparator.comparingInt(org.hetscope.model.TraceFormat::priority).reversed());
        String chosen = null;
        for (var f : formats) {
            if (f.accepts(r.trace())) {
                chosen = f.name();
                break;
            }
        }
        assertEquals("opencl", chosen);
        assertTrue(formats.stream().filter(f -> f.name().equals("ctf")).findFirst().orElseThrow().accepts(r.trace()),
                "ctf accepts it too, priority decides");
    }

    @Test
    void acceptsOnlyAgentTraces() throws Exception {
        assertFalse(new OpenclTraceFormat().accepts(work));
        Path other = Files.createDirectories(work.resolve("other-ctf"));
        Files.writeString(other.resolve("metadata"), "/* CTF 1.8 */\nenv { tracer_name = \"lttng-ust\"; };\n");
        assertFalse(new OpenclTraceFormat().accepts(other));
    }

    private static CollectingSink importAndCheck(AgentRun run, boolean finished) throws Exception {
        if (finished) {
            assertEquals(0, run.exitCode(), run.output());
        }
        OpenclTraceFormat format = new OpenclTraceFormat();
        assertTrue(format.accepts(run.trace()));
        CollectingSink s = new CollectingSink();
        format.read(run.trace(), s, Progress.NONE);
        Map<String, Long> expected = run.report();

        // babeltrace2 (independent decoder) sees the same number of events of each class as the import consumed
        if (Files.isExecutable(Path.of("/usr/bin/babeltrace2"))) {
            Map<String, Long> bt = babeltraceCounts(run.trace());
            Map<String, Long> mine = new TreeMap<>();
            s.info.forEach((k, v) -> {
                if (k.startsWith("opencl.events.")) {
                    mine.put(k.substring("opencl.events.".length()), Long.parseLong(v));
                }
            });
            assertEquals(bt, mine, "events per class: babeltrace2 vs import");
        }

        // every API call of the program is one API slice on its thread (JOCL's helper threads aside)
        Set<Long> libraryTracks = new HashSet<>();
        Map<Long, Long> threadTrack = new HashMap<>();
        for (Track t : s.tracks) {
            if (t.kind() == TrackKind.THREAD) {
                threadTrack.put(t.threadId(), t.id());
            }
        }
        for (TraceThread t : s.threads) {
            if (t.name().endsWith("(JOCL)")) {
                libraryTracks.add(threadTrack.get(t.id()));
            }
        }
        Map<Long, Track> tracks = new HashMap<>();
        s.tracks.forEach(t -> tracks.put(t.id(), t));
        Map<String, Long> calls = new TreeMap<>();
        Map<Long, Slice> slices = new HashMap<>();
        for (Slice sl : s.slices) {
            slices.put(sl.id(), sl);
            Track t = tracks.get(sl.trackId());
            if (t.kind() == TrackKind.THREAD && !libraryTracks.contains(t.id())) {
                calls.merge("call." + sl.name(), 1L, Long::sum);
            }
        }
        Map<String, Long> programCalls = new TreeMap<>(expected);
        programCalls.keySet().removeIf(k -> !k.startsWith("call."));
        assertEquals(programCalls, calls, "API slices per function");

        // kernels and transfers: counts and bytes as the program did them
        long kernels = s.slices.stream().filter(x -> x.category() == Category.KERNEL
                && tracks.get(x.trackId()).kind() == TrackKind.QUEUE).count();
        long incomplete = s.skipped.entrySet().stream().filter(e -> e.getKey().startsWith("incomplete: commands without"))
                .mapToLong(Map.Entry::getValue).sum();
        if (finished) {
            assertEquals(0, incomplete, "skipped: " + s.skipped);
            assertEquals(expected.get("kernels"), kernels);
            assertEquals(expected.get("kernels").longValue(), s.kernels.size());
            Map<String, Long> got = new TreeMap<>();
            for (Transfer t : s.transfers) {
                got.merge("transfers." + t.kind().label(), 1L, Long::sum);
                got.merge("bytes." + t.kind().label(), t.bytes(), Long::sum);
            }
            Map<String, Long> want = new TreeMap<>();
            expected.forEach((k, v) -> {
                if (k.startsWith("transfers.") || k.startsWith("bytes.")) {
                    String dir = k.substring(k.indexOf('.') + 1);
                    String kind = switch (dir) {
                        case "unmap" -> "HtoD";
                        case "map" -> "DtoH";
                        case "fill" -> "memset";
                        default -> dir;
                    };
                    want.merge(k.substring(0, k.indexOf('.') + 1) + kind, v, Long::sum);
                }
            });
            assertEquals(want, got, "transfers and bytes per kind");
        } else {
            assertEquals(expected.get("kernels"), kernels + incomplete, "kernels with and without device times");
        }

        // one launch flow per command with device times, from its enqueue call; the command never starts
        // before the enqueue call and lies inside its queued -> end window
        long launches = 0;
        for (var f : s.flows) {
            if (!f.kind().equals("launch")) {
                continue;
            }
            launches++;
            Slice api = slices.get(f.fromSliceId());
            Slice cmd = slices.get(f.toSliceId());
            assertNotNull(api);
            assertNotNull(cmd);
            assertEquals(TrackKind.QUEUE, tracks.get(cmd.trackId()).kind());
            assertTrue(cmd.ts() >= api.ts(), "command before its enqueue call: " + cmd + " / " + api);
        }
        assertEquals(expected.get("commands") - incomplete, launches);
        for (Object[] row : s.extraRows.getOrDefault(OpenclMapper.COMMAND_TABLE.name(), List.of())) {
            if (row[0] == null) {
                continue;
            }
            long queued = (Long) row[7];
            long start = (Long) row[9];
            long end = (Long) row[10];
            Slice api = slices.get((Long) row[4]);
            assertTrue(queued <= start && start <= end, "device interval outside queued -> end");
            assertTrue(queued >= api.ts() && queued <= api.end(), "queued outside the enqueue call");
        }

        // one build slice per clBuildProgram on the device's "program builds" track, as long as the call
        long builds = s.slices.stream().filter(x -> tracks.get(x.trackId()).name().equals("program builds")).count();
        assertEquals(expected.getOrDefault("call.clBuildProgram", 0L), builds);

        // buffer lifetime tracks and the device memory counter
        long buffers = s.tracks.stream().filter(t -> t.kind() == TrackKind.BLOCK).count();
        assertEquals(expected.getOrDefault("call.clCreateBuffer", 0L) + expected.getOrDefault("call.clCreateSubBuffer",
                0L) + expected.getOrDefault("call.clCreateImage", 0L), buffers);
        if (finished) {
            List<CounterSample> mem = s.counters;
            assertFalse(mem.isEmpty());
            assertEquals(0.0, mem.get(mem.size() - 1).value(), "memory in use after every release");
            long uses = s.slices.stream().filter(x -> tracks.get(x.trackId()).kind() == TrackKind.BLOCK
                    && x.category() != Category.ALLOC).count();
            long perBuffer = 0;
            for (var e : expected.entrySet()) {
                if (e.getKey().startsWith("transfers.")) {
                    perBuffer += e.getKey().equals("transfers.DtoD") ? 2 * e.getValue() : e.getValue();
                }
            }
            assertEquals(perBuffer, uses, "transfers shown on buffer tracks");
        }
        return s;
    }

    private static long maxMemory(CollectingSink s) {
        return (long) s.counters.stream().mapToDouble(CounterSample::value).max().orElse(0);
    }

    private static final Pattern NAME = Pattern.compile("^\\[[^]]*] \\([^)]*\\) \\S+ (\\w+): ");

    static Map<String, Long> babeltraceCounts(Path trace) throws Exception {
        Path out = Files.createTempFile(work, "bt", ".txt");
        Process p = new ProcessBuilder("babeltrace2", trace.toString()).redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "babeltrace2 failed to read " + trace);
        Map<String, Long> counts = new TreeMap<>();
        try (var lines = Files.lines(out)) {
            lines.forEach(l -> {
                Matcher m = NAME.matcher(l);
                assertTrue(m.find(), l);
                counts.merge(m.group(1), 1L, Long::sum);
            });
        }
        return counts;
    }
}
