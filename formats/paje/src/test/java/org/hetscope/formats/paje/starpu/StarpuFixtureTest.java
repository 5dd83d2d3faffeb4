package org.hetscope.formats.paje.starpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.hetscope.formats.paje.PajeFormat;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.MemoryBlock;
import org.hetscope.model.Progress;
import org.hetscope.model.Residency;
import org.hetscope.model.Slice;
import org.hetscope.model.Task;
import org.hetscope.model.Track;
import org.hetscope.model.Transfer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The two real StarPU traces, checked against an independent reading of their raw lines (plain splitting and
 * BigDecimal arithmetic written here, sharing nothing with the reader) and against tasks.rec, which is a separate
 * output of StarPU.
 */
class StarpuFixtureTest {

    static Path fixture(String name) {
        return Path.of(System.getProperty("hetscope.root", ".")).resolve("../shared/fixtures/starpu/" + name);
    }

    static CollectingSink load(String name) throws Exception {
        return org.hetscope.formats.paje.StoredSink.read(fixture(name));
    }

    /** A raw body line: its number, time in ns (exact), and its whitespace-separated fields. */
    record Raw(long line, long ns, String[] f) {}

    static List<Raw> raw(String name) throws IOException {
        List<Raw> out = new ArrayList<>();
        long no = 0;
        for (String line : Files.readAllLines(fixture(name).resolve("paje.trace"))) {
            no++;
            String[] f = line.trim().split("\\s+");
            if (f.length < 3 || !f[0].matches("\\d+") || !f[1].matches("[0-9.]+")) {
                continue;
            }
            // StarPU writes work-steal link ends 1 ps after their start: below the nanosecond, rounded half-even.
            out.add(new Raw(no, new BigDecimal(f[1]).movePointRight(6).setScale(0, java.math.RoundingMode.HALF_EVEN)
                    .longValueExact(), f));
        }
        return out;
    }

    static long ms(String text) {
        return new BigDecimal(text).movePointRight(6).longValueExact();
    }

    /** The records of a rec file, as field maps. */
    static List<Map<String, String>> rec(String name, String file) throws IOException {
        List<Map<String, String>> out = new ArrayList<>();
        Map<String, String> cur = new HashMap<>();
        for (String line : Files.readAllLines(fixture(name).resolve(file))) {
            if (line.isBlank()) {
                if (!cur.isEmpty()) {
                    out.add(cur);
                }
                cur = new HashMap<>();
            } else {
                int c = line.indexOf(':');
                cur.put(line.substring(0, c), line.substring(c + 1).trim());
            }
        }
        if (!cur.isEmpty()) {
            out.add(cur);
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"chol-dmda-nb6", "chol-lws-nb12"})
    void everyExecutedTaskOfTasksRecIsOnItsWorkerTrackWithTheSameStartAndEnd(String name) throws Exception {
        CollectingSink s = load(name);
        Map<Long, Track> tracks = s.tracks.stream().collect(Collectors.toMap(Track::id, t -> t));
        Map<Long, Slice> slices = s.slices.stream().collect(Collectors.toMap(Slice::id, t -> t));
        Map<Long, Task> byJob = s.tasks.stream().collect(Collectors.toMap(Task::jobId, t -> t));
        // Worker aliases and names from the raw container lines: "7 time wN W parent NAME".
        Map<String, String> workerName = new HashMap<>();
        for (Raw r : raw(name)) {
            if (r.f()[0].equals("7") && r.f()[3].equals("W")) {
                workerName.put(r.f()[2].substring(1), r.f()[5]);
            }
        }
        int executed = 0;
        for (Map<String, String> rec : rec(name, "tasks.rec")) {
            if (!rec.containsKey("WorkerId")) {
                continue;
            }
            executed++;
            Task t = byJob.get(Long.parseLong(rec.get("JobId")));
            assertNotNull(t, "task " + rec.get("JobId"));
            assertEquals(ms(rec.get("StartTime")), t.startTs());
            assertEquals(ms(rec.get("EndTime")), t.endTs());
            Slice slice = slices.get(t.sliceId());
            assertNotNull(slice, "worker state of job " + rec.get("JobId"));
            assertEquals(t.startTs(), slice.ts());
            assertEquals(t.endTs(), slice.end(), "end of job " + rec.get("JobId"));
            assertEquals(rec.get("Name").replace("chol_", ""), slice.name().replace("chol_", ""));
            Track w = tracks.get(slice.trackId());
            assertEquals(workerName.get(rec.get("WorkerId")), w.name());
            assertEquals(t.workerTrackId(), w.id());
        }
        assertEquals(executed, s.tasks.size());
        assertEquals("0", s.info.get("starpu.tasks.state_mismatch"));
    }

    /** Residency recomputed from the raw SI/SS/SO lines with separate simple code. */
    /** One segment of a handle's time between two ends of its intervals, with how many cover it. */
    interface Segment {
        void at(String handle, long start, long dur, long valid, long owners);
    }

    /**
     * Brute force over {@code intervals} ({start, end, owner} by "handle@node"): per handle, each segment between two
     * consecutive interval ends, with how many intervals are valid there and how many of them own the block. With
     * {@code onlyLonger}, intervals of length 0 are left out (their ends do not cut segments either).
     */
    static void replicaSegments(Map<String, List<long[]>> intervals, boolean onlyLonger, Segment segment) {
        Map<String, List<long[]>> byHandle = new TreeMap<>();
        intervals.forEach((k, v) -> byHandle.computeIfAbsent(k.substring(0, k.indexOf('@')), x -> new ArrayList<>())
                .addAll(v));
        for (var e : byHandle.entrySet()) {
            List<long[]> iv = e.getValue().stream().filter(a -> !onlyLonger || a[1] > a[0]).toList();
            java.util.TreeSet<Long> cuts = new java.util.TreeSet<>();
            iv.forEach(a -> {
                cuts.add(a[0]);
                cuts.add(a[1]);
            });
            Long prev = null;
            for (long t : cuts) {
                if (prev != null) {
                    long at = prev;
                    long valid = iv.stream().filter(a -> a[0] <= at && at < a[1]).count();
                    long owners = iv.stream().filter(a -> a[0] <= at && at < a[1] && a[2] == 1).count();
                    segment.at(e.getKey(), prev, t - prev, valid, owners);
                }
                prev = t;
            }
        }
    }

    static Map<String, List<long[]>> rawResidency(List<Raw> raw) {
        Map<String, Long> unregister = new HashMap<>();
        long end = 0;
        List<Raw> msi = new ArrayList<>();
        for (Raw r : raw) {
            end = Math.max(end, r.ns());
            if (r.f()[0].equals("9") && r.f()[2].equals("unregister")) {
                unregister.merge(r.f()[4], r.ns(), Math::min);
            }
            if (r.f()[0].equals("9") && r.f()[2].matches("SI|SS|SO")) {
                msi.add(r);
            }
        }
        msi.sort(Comparator.comparingLong(Raw::ns).thenComparingLong(Raw::line));
        // key "handle@mmN" -> intervals {start, end, 1 owner / 0 shared}
        Map<String, List<long[]>> out = new TreeMap<>();
        Map<String, long[]> open = new HashMap<>();
        for (Raw r : msi) {
            String key = r.f()[4] + "@" + r.f()[3];
            long[] o = open.get(key);
            int st = r.f()[2].equals("SO") ? 1 : r.f()[2].equals("SS") ? 0 : -1;
            if (o != null && o[2] == st) {
                continue;
            }
            if (o != null) {
                out.computeIfAbsent(key, k -> new ArrayList<>()).add(new long[] {o[0], r.ns(), o[2]});
                open.remove(key);
            }
            if (st >= 0) {
                open.put(key, new long[] {r.ns(), 0, st});
            }
        }
        for (var e : open.entrySet()) {
            String handle = e.getKey().substring(0, e.getKey().indexOf('@'));
            long close = unregister.getOrDefault(handle, end);
            out.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(new long[] {e.getValue()[0], close,
                e.getValue()[2]});
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"chol-dmda-nb6", "chol-lws-nb12"})
    void residencyMatchesTheRawMsiLinesAndNeverOverlaps(String name) throws Exception {
        CollectingSink s = load(name);
        Map<Long, String> handle = s.memoryBlocks.stream().collect(Collectors.toMap(MemoryBlock::id,
                MemoryBlock::handle));
        Map<Long, String> node = new HashMap<>();
        s.memoryNodes.forEach(n -> node.put(n.id(), "mm" + n.name().replaceAll("\\D", "")));
        Map<String, List<long[]>> model = new TreeMap<>();
        for (Residency r : s.residencies) {
            model.computeIfAbsent(handle.get(r.blockId()) + "@" + node.get(r.nodeId()), k -> new ArrayList<>())
                    .add(new long[] {r.ts(), r.ts() + r.dur(), r.state().equals("owner") ? 1 : 0});
        }
        Map<String, List<long[]>> expected = rawResidency(raw(name));
        assertEquals(expected.keySet(), model.keySet());
        for (String k : expected.keySet()) {
            List<long[]> m = model.get(k);
            m.sort(Comparator.comparingLong(a -> a[0]));
            assertEquals(expected.get(k).stream().map(java.util.Arrays::toString).toList(),
                    m.stream().map(java.util.Arrays::toString).toList(), k);
            for (int i = 1; i < m.size(); i++) {
                assertTrue(m.get(i)[0] >= m.get(i - 1)[1], "overlap on " + k);
            }
        }
    }

    /**
     * MSI promises one owner or at least one sharer at every instant. The raw trace breaks this for tens of
     * nanoseconds each time a block is written: StarPU logs SI on the node and then SO on the same node a few
     * ticks later. The reader must report exactly those gaps; here they are found again from the raw lines.
     */
    @ParameterizedTest
    @ValueSource(strings = {"chol-dmda-nb6", "chol-lws-nb12"})
    void validReplicaInvariantBreachesAreReportedExactlyAsTheRawLinesShowThem(String name) throws Exception {
        CollectingSink s = load(name);
        List<String> expectedGaps = new ArrayList<>();
        long[] expectedOwnerShared = {0};
        replicaSegments(rawResidency(raw(name)), false, (handle, start, dur, valid, owners) -> {
            if (valid == 0) {
                expectedGaps.add(handle + " " + start + " " + dur);
            } else if (owners > 0 && valid > 1) {
                expectedOwnerShared[0]++;
            }
        });
        Map<Long, String> handle = s.memoryBlocks.stream().collect(Collectors.toMap(MemoryBlock::id,
                MemoryBlock::handle));
        List<String> reported = s.extraRows.get("starpu_anomaly").stream()
                .filter(r -> r[0].equals("no_valid_replica"))
                .map(r -> handle.get((Long) r[1]) + " " + r[2] + " " + r[3]).sorted().toList();
        assertEquals(expectedGaps.stream().sorted().toList(), reported);
        assertEquals(Long.toString(expectedGaps.size()), s.info.get("starpu.check.no_valid_replica.count"));
        assertEquals(Long.toString(expectedOwnerShared[0]), s.info.get("starpu.check.owner_not_exclusive.count"));
        assertTrue(expectedGaps.size() > 0, "the real traces do have such gaps");
        // What the raw lines say at each gap: it opens with an SI of that handle (its last valid replica is
        // invalidated) and closes with an SO or SS of the same handle, less than a microsecond later.
        java.util.Set<String> msiAt = new java.util.HashSet<>();
        for (Raw r : raw(name)) {
            if (r.f()[0].equals("9") && r.f()[2].matches("SI|SS|SO")) {
                msiAt.add(r.f()[2] + " " + r.f()[4] + " " + r.ns());
            }
        }
        for (String g : expectedGaps) {
            String[] p = g.split(" ");
            long from = Long.parseLong(p[1]);
            long to = from + Long.parseLong(p[2]);
            assertTrue(msiAt.contains("SI " + p[0] + " " + from), g);
            assertTrue(msiAt.contains("SO " + p[0] + " " + to) || msiAt.contains("SS " + p[0] + " " + to), g);
            assertTrue(to - from < 1_000, g);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"chol-dmda-nb6", "chol-lws-nb12"})
    void everyTransferEndsOnTheNodeWhereTheBlockBecomesValid(String name) throws Exception {
        CollectingSink s = load(name);
        List<Raw> raw = raw(name);
        // From the raw lines: for each DCoE (dst manager, handle, com id), the last MSI line of that handle on
        // the destination at or before the copy end must be SS or SO, and come after the DCo start.
        Map<String, Long> copyStart = new HashMap<>();
        for (Raw r : raw) {
            if (r.f()[0].equals("22") && r.f()[2].equals("DCo")) {
                copyStart.put(r.f()[3] + "/" + r.f()[6], r.ns());
            }
        }
        List<Raw> msi = raw.stream().filter(r -> r.f()[0].equals("9") && r.f()[2].matches("SI|SS|SO"))
                .sorted(Comparator.comparingLong(Raw::ns).thenComparingLong(Raw::line)).toList();
        int copies = 0;
        for (Raw r : raw) {
            if (!(r.f()[0].equals("22") && r.f()[2].equals("DCoE"))) {
                continue;
            }
            copies++;
            String dst = r.f()[3];
            String h = r.f()[5];
            long start = copyStart.get(dst + "/" + r.f()[6]);
            Raw last = null;
            for (Raw m : msi) {
                if (m.ns() <= r.ns() && m.f()[3].equals(dst) && m.f()[4].equals(h)) {
                    last = m;
                }
            }
            assertNotNull(last, "copy ending at line " + r.line());
            assertTrue(last.f()[2].matches("SS|SO"), "line " + r.line());
            assertTrue(last.ns() >= start, "line " + r.line());
        }
        assertEquals(copies, s.transfers.size());
        assertEquals("0", s.info.get("starpu.check.transfer_not_landing.count"));
        assertEquals("0", s.info.get("starpu.check.transfer_to_valid_replica.count"));
        // Transfers in the model agree with the raw DCo lines one by one.
        Map<String, Long> nodeOf = new HashMap<>();
        s.memoryNodes.forEach(n -> nodeOf.put("mm" + n.name().replaceAll("\\D", ""), n.id()));
        Map<Long, Transfer> byCom = s.transfers.stream().collect(Collectors.toMap(Transfer::correlationId,
                t -> t));
        for (Raw r : raw) {
            if (r.f()[0].equals("22") && r.f()[2].equals("DCo")) {
                Transfer t = byCom.get(Long.parseLong(r.f()[6]));
                assertEquals(r.ns(), t.ts());
                assertEquals(Long.parseLong(r.f()[7]), t.bytes());
                assertEquals(nodeOf.get(r.f()[3]), t.dstNodeId());
                assertEquals(nodeOf.get(r.f()[8]), t.srcNodeId());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"chol-dmda-nb6", "chol-lws-nb12"})
    void requestsAndManagerActionsMatchTheRawLines(String name) throws Exception {
        CollectingSink s = load(name);
        List<Raw> raw = raw(name);
        List<String> rawRequests = new ArrayList<>();
        Map<String, Integer> rawCounts = new TreeMap<>();
        for (Raw r : raw) {
            if (r.f()[0].equals("22")) {
                rawCounts.merge(r.f()[2], 1, Integer::sum);
                if (r.f()[2].equals("rc")) {
                    long prio = Long.parseLong(r.f()[7]);
                    rawRequests.add(r.ns() + " " + r.f()[5] + " " + r.f()[6] + " " + (int) prio);
                }
            }
        }
        Map<Long, String> handle = s.memoryBlocks.stream().collect(Collectors.toMap(MemoryBlock::id,
                MemoryBlock::handle));
        List<String> model = s.extraRows.get("starpu_request").stream()
                .map(r -> r[0] + " " + handle.get((Long) r[1]) + " "
                        + switch ((String) r[4]) {
                            case "fetch" -> "0";
                            case "prefetch" -> "1";
                            default -> "2";
                        } + " " + r[5])
                .toList();
        assertEquals(rawRequests, model);
        Map<String, Integer> actions = new TreeMap<>();
        s.extraRows.get("starpu_manager_action").forEach(r -> actions.merge((String) r[3], 1, Integer::sum));
        assertEquals(rawCounts.get("Al"), actions.get("Allocating"));
        assertEquals(rawCounts.get("Alr"), actions.get("AllocatingReuse"));
        assertEquals(rawCounts.get("Fe"), actions.get("Freeing"));
        assertEquals(rawCounts.get("DCo"), actions.get("DriverCopy"));
        assertEquals(rawCounts.get("DCoA"), actions.get("DriverCopyAsync"));
        long wa = raw.stream().filter(r -> r.f()[0].equals("11") && r.f()[3].equals("MS") && r.f()[4].equals("Wa"))
                .count();
        assertEquals(wa, (long) actions.getOrDefault("WritingBackAsync", 0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"chol-dmda-nb6"})
    void specCountsForCholDmdaNb6(String name) throws Exception {
        CollectingSink s = load(name);
        assertEquals(21, s.memoryBlocks.size());
        assertEquals(77, s.tasks.size());
        assertEquals("39", s.info.get("starpu.tasks.not_executed"));
        Map<String, Long> byName = s.tasks.stream().collect(Collectors.groupingBy(
                t -> t.name().replace("chol_", ""), Collectors.counting()));
        assertEquals(Map.of("plgsy", 21L, "potrf", 6L, "trsm", 15L, "syrk", 15L, "gemm", 20L), byName);
        Track opencl = s.tracks.stream().filter(t -> t.name().equals("OPENCL0")).findFirst().orElseThrow();
        assertEquals(11, s.tasks.stream().filter(t -> t.name().endsWith("gemm")
                && t.workerTrackId() == opencl.id()).count());
        // the dependencies are derived by the store (StarpuDependenciesTest): here only the edges go out
        assertTrue(s.taskDependencies.isEmpty());
        assertEquals(126, s.extraRows.entrySet().stream().filter(e -> e.getKey().startsWith("starpu_dependency_edge"))
                .mapToInt(e -> e.getValue().size()).sum());
        Map<String, Long> residencyOpens = new TreeMap<>();
        assertEquals("37", s.info.get("starpu.events.rc"));
        List<Object[]> rc = s.extraRows.get("starpu_request");
        assertEquals(8, rc.stream().filter(r -> r[4].equals("fetch")).count());
        assertEquals(29, rc.stream().filter(r -> r[4].equals("prefetch")).count());
        List<Object[]> al = s.extraRows.get("starpu_manager_action").stream()
                .filter(r -> r[3].equals("Allocating")).toList();
        assertEquals(15, al.size());
        assertEquals(3, al.stream().filter(r -> r[6].equals("fetch")).count());
        assertEquals(12, al.stream().filter(r -> r[6].equals("prefetch")).count());
        assertTrue(al.stream().allMatch(r -> r[8].equals(36864L) && r[9].equals(true)));
        assertTrue(s.extraRows.get("starpu_manager_action").stream().filter(r -> r[3].equals("AllocatingReuse"))
                .allMatch(r -> r[8].equals(0L)));
        assertEquals(29, s.transfers.size());
        // their classes, from the links the store joins to them: StarpuDerivedTablesTest
        long mm1 = s.memoryNodes.stream().filter(n -> n.name().equals("MEMNODE1")).findFirst().orElseThrow().id();
        assertEquals(21, s.transfers.stream().filter(t -> t.dstNodeId() == mm1).count());
        assertEquals(8, s.transfers.stream().filter(t -> t.dstNodeId() != mm1).count());
        assertEquals(1_069_056L, s.transfers.stream().mapToLong(Transfer::bytes).sum());
        // Peak "use" on mm1: the counter track named "Used (MB)" under MEMMANAGER1.
        long mgr = s.tracks.stream().filter(t -> t.name().equals("MEMMANAGER1")).findFirst().orElseThrow().id();
        long use = s.tracks.stream().filter(t -> t.parentId() != null && t.parentId() == mgr
                && t.name().equals("Used (MB)")).findFirst().orElseThrow().id();
        assertEquals(0.527344, s.counters.stream().filter(c -> c.trackId() == use)
                .mapToDouble(c -> c.value()).max().orElse(0), 0);
        assertEquals(residencyOpens, new TreeMap<String, Long>());
        // Manager actions (spec 6): mm1 allocations total 1.685297 ms; copies into mm1 sum 7.431191 ms.
        long mm1Alloc = al.stream().filter(r -> r[1].equals(mm1)).mapToLong(r -> (Long) r[5]).sum();
        assertEquals(1_685_297L, mm1Alloc);
        long mm1Copies = s.transfers.stream().filter(t -> t.dstNodeId() == mm1).mapToLong(Transfer::dur).sum();
        assertEquals(7_431_191L, mm1Copies);
        assertEquals(3_192_743L, s.transfers.stream().filter(t -> t.dstNodeId() != mm1)
                .mapToLong(Transfer::dur).sum());
    }

    @ParameterizedTest
    @ValueSource(strings = {"chol-lws-nb12"})
    void specCountsForCholLwsNb12(String name) throws Exception {
        CollectingSink s = load(name);
        assertEquals(78, s.memoryBlocks.size());
        assertEquals(442, s.tasks.size());
        assertEquals(595, s.tasks.size() + Long.parseLong(s.info.get("starpu.tasks.not_executed")));
        Track opencl = s.tracks.stream().filter(t -> t.name().equals("OPENCL0")).findFirst().orElseThrow();
        assertEquals(220, s.tasks.stream().filter(t -> t.name().endsWith("gemm")).count());
        assertEquals(119, s.tasks.stream().filter(t -> t.name().endsWith("gemm")
                && t.workerTrackId() == opencl.id()).count());
        assertEquals(153, s.transfers.size());
        Map<Object, Long> links = s.extraRows.get("paje_link").stream()
                .collect(Collectors.groupingBy(r -> r[0], Collectors.counting()));
        assertEquals(Map.of("F", 112L, "PF", 41L, "WSL", 81L), links);
    }

    @ParameterizedTest
    @ValueSource(strings = {"chol-dmda-nb6", "chol-lws-nb12"})
    void withoutSideFilesTasksComeFromTheWorkerStatesAndAgreeWithTasksRec(String name) throws Exception {
        Path dir = Files.createTempDirectory("hetscope-starpu-alone");
        try {
            Path trace = Files.copy(fixture(name).resolve("paje.trace"), dir.resolve("paje.trace"));
            CollectingSink s = org.hetscope.formats.paje.StoredSink.read(trace);
            assertEquals("paje worker states", s.info.get("starpu.tasks.source"));
            Map<Long, Task> byJob = s.tasks.stream().collect(Collectors.toMap(Task::jobId, t -> t));
            int executed = 0;
            for (Map<String, String> rec : rec(name, "tasks.rec")) {
                if (!rec.containsKey("WorkerId")) {
                    continue;
                }
                executed++;
                Task t = byJob.get(Long.parseLong(rec.get("JobId")));
                assertEquals(ms(rec.get("StartTime")), t.startTs());
                assertEquals(ms(rec.get("EndTime")), t.endTs());
                assertEquals(rec.get("Name").replace("chol_", ""), t.name().replace("chol_", ""));
            }
            assertEquals(executed, s.tasks.size());
            // Without data.rec the blocks are still there, named by handle only.
            assertTrue(s.memoryBlocks.stream().allMatch(b -> b.coordinates() == null));
            assertEquals(load(name).residencies.size(), s.residencies.size());
        } finally {
            try (var w = Files.walk(dir)) {
                w.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
