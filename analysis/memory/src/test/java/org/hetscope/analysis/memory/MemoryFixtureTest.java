package org.hetscope.analysis.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.hetscope.formats.paje.PajeFormat;
import org.hetscope.model.Progress;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.hetscope.store.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The worked examples of the specification (section 9, items 6 to 10) on the real chol-dmda-nb6 trace. */
class MemoryFixtureTest {
    static Store store;
    static MemoryTrace m;
    static Path dir;

    static Store importFixture(String name, Path into) throws Exception {
        Path folder = Path.of(System.getProperty("hetscope.root", ".")).resolve("../shared/fixtures/starpu/" + name);
        Path file = into.resolve(name + ".hets");
        StoreWriter w = StoreWriter.create(file);
        new PajeFormat().read(folder, w, Progress.NONE);
        w.commit();
        return Store.open(file);
    }

    @BeforeAll
    static void load() throws Exception {
        dir = Files.createTempDirectory("hetscope-memory");
        store = importFixture("chol-dmda-nb6", dir);
        m = MemoryTrace.load(store);
    }

    @AfterAll
    static void close() throws Exception {
        store.close();
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    static Object cell(Table t, Map<String, Object> where, String column) {
        List<Object[]> rows = t.rows().stream().filter(r -> where.entrySet().stream()
                .allMatch(e -> e.getValue().equals(r[t.column(e.getKey())]))).toList();
        assertEquals(1, rows.size(), "rows matching " + where + " in " + t.title());
        return rows.get(0)[t.column(column)];
    }

    @Test
    void managerActionsOfSpecItem6() {
        Table shares = ManagerGantt.shares(m, m.traceStart, m.traceEnd);
        assertEquals(15L, cell(shares, Map.of("node", "MEMNODE1", "action", "Allocating"), "intervals"));
        assertEquals(1_685_297L, cell(shares, Map.of("node", "MEMNODE1", "action", "Allocating"), "busy_ns"));
        assertEquals(21L, cell(shares, Map.of("node", "MEMNODE1", "action", "DriverCopy"), "intervals"));
        // Nested copies count once: union 4.604179 ms although the 21 copies add up to 7.431191 ms.
        assertEquals(4_604_179L, cell(shares, Map.of("node", "MEMNODE1", "action", "DriverCopy"), "busy_ns"));
        long sum = ManagerGantt.actions(m).rows().stream().filter(r -> r[0].equals("MEMNODE1")
                && r[2].equals("DriverCopy")).mapToLong(r -> (Long) r[6]).sum();
        assertEquals(7_431_191L, sum);
        assertEquals(8L, cell(shares, Map.of("node", "MEMNODE0", "action", "DriverCopy"), "intervals"));
        assertEquals(3_192_743L, cell(shares, Map.of("node", "MEMNODE0", "action", "DriverCopy"), "busy_ns"));
        // Percent is busy / window, and the dominant action has the largest share on its node.
        double pct = (Double) cell(shares, Map.of("node", "MEMNODE1", "action", "DriverCopy"), "percent");
        assertEquals(100.0 * 4_604_179L / (m.traceEnd - m.traceStart), pct, 1e-12);
        assertEquals(true, cell(shares, Map.of("node", "MEMNODE1", "action", "DriverCopy"), "dominant"));
        // Sub-lanes never hold two overlapping actions.
        Table actions = ManagerGantt.actions(m);
        Map<String, List<Object[]>> lanes = actions.rows().stream()
                .collect(Collectors.groupingBy(r -> r[0] + "/" + r[1]));
        for (List<Object[]> lane : lanes.values()) {
            for (int i = 1; i < lane.size(); i++) {
                assertTrue((Long) lane.get(i)[5] >= (Long) lane.get(i - 1)[5] + (Long) lane.get(i - 1)[6]);
            }
        }
    }

    @Test
    void residencyOfBlock21OfSpecItem7() {
        MemoryTrace.Block b = m.findBlock("55f29bb99940");
        assertEquals(b, m.findBlock("2 1"));
        assertEquals(b, m.findBlock("(2,1)"));
        Table iv = ResidencyAnalysis.intervals(m, b.id());
        long mm0 = iv.rows().stream().filter(r -> r[2].equals("MEMNODE0")).mapToLong(r -> (Long) r[6]).sum();
        long mm1 = iv.rows().stream().filter(r -> r[2].equals("MEMNODE1")).mapToLong(r -> (Long) r[6]).sum();
        assertEquals(14_550_492L, mm0);
        assertEquals(17_261_554L, mm1);
        Table bins = ResidencyAnalysis.bins(m, ResidencyAnalysis.DEFAULT_BIN_NS, b.id());
        assertEquals(68.9114, (Double) cell(bins, Map.of("node", "MEMNODE0", "bin_start_ts", 80_000_000L), "percent"),
                5e-5);
        assertEquals(82.4667, (Double) cell(bins, Map.of("node", "MEMNODE1", "bin_start_ts", 80_000_000L), "percent"),
                5e-5);
        assertEquals(3.8411, (Double) cell(bins, Map.of("node", "MEMNODE0", "bin_start_ts", 100_000_000L), "percent"),
                5e-5);
        assertEquals(3.8411, (Double) cell(bins, Map.of("node", "MEMNODE1", "bin_start_ts", 100_000_000L), "percent"),
                5e-5);
        Table heat = Heatmap.of(m, Heatmap.Normalisation.LIFETIME);
        assertEquals(0.69701, (Double) cell(heat, Map.of("node", "MEMNODE0", "handle", "55f29bb99940"), "value"),
                5e-6);
        assertEquals(0.82688, (Double) cell(heat, Map.of("node", "MEMNODE1", "handle", "55f29bb99940"), "value"),
                5e-6);
        Table abs = Heatmap.of(m, Heatmap.Normalisation.ABSOLUTE);
        assertEquals(14.550492, (Double) cell(abs, Map.of("node", "MEMNODE0", "handle", "55f29bb99940"), "value"),
                1e-9);
        Table max = Heatmap.of(m, Heatmap.Normalisation.FACET_MAX);
        assertEquals(1.0, max.rows().stream().filter(r -> r[0].equals("MEMNODE1"))
                .mapToDouble(r -> (Double) r[5]).max().orElse(0), 0);
        assertTrue(heat.title().contains("unregister - register"));
    }

    @Test
    void snapshotAt83msOfSpecItem8() {
        long t = 83_000_000L;
        Table blocks = Snapshot.blocks(m, t);
        Set<String> mm1 = new TreeSet<>();
        Set<String> mm0 = new TreeSet<>();
        for (Object[] r : blocks.rows()) {
            (r[0].equals("MEMNODE1") ? mm1 : mm0).add(r[1] + " " + r[4]);
        }
        assertEquals(new TreeSet<>(List.of("(1,0) shared", "(2,0) shared", "(3,0) shared", "(4,0) shared",
                "(5,0) shared", "(2,1) owner", "(3,1) owner", "(4,2) owner", "(5,2) owner")), mm1);
        assertEquals(17, mm0.size());
        for (String owned : List.of("(2,1)", "(3,1)", "(4,2)", "(5,2)")) {
            assertTrue(mm0.stream().noneMatch(s -> s.startsWith(owned + " ")));
        }
        for (int i = 1; i <= 5; i++) {
            assertTrue(mm0.contains("(" + i + ",0) shared"));
        }
        Table tasks = Snapshot.tasks(m, t);
        assertEquals(Set.of(30L), tasks.rows().stream().map(r -> r[0]).collect(Collectors.toSet()));
        assertEquals(Set.of("(2,0) R", "(1,0) R", "(2,1) RW"), tasks.rows().stream().map(r -> r[4] + " " + r[6])
                .collect(Collectors.toSet()));
        assertEquals("OPENCL0", tasks.rows().get(0)[2]);
        assertEquals("chol_gemm", tasks.rows().get(0)[1]);
    }

    @Test
    void waitOfJob30OfSpecItem9() {
        TaskWait.Result r = TaskWait.of(m, 30);
        assertEquals(81_088_310L, r.lastDepEnd());
        assertEquals(24L, r.lastDepJob());
        assertEquals(null, r.prevEnd());
        assertEquals(82_781_065L, r.startTs());
        assertEquals(1_692_755L, r.waitAfterDeps());
        assertEquals(82_774_685L, r.lastInputArrival());
        assertEquals(6_380L, r.inputBeforeStart());
        List<Table> history = BlockHistory.of(m, m.findBlock("2 1"));
        Table requests = history.get(2);
        // The prefetch for JobId 30 (priority 9), then a fetch whose source and destination are the same manager.
        assertEquals(List.of("81112015 MEMNODE0>MEMNODE1 prefetch 9", "81255395 MEMNODE1>MEMNODE1 fetch 0"),
                requests.rows().stream().filter(x -> (Long) x[0] < 82_000_000L)
                        .map(x -> x[0] + " " + x[1] + ">" + x[2] + " " + x[3] + " " + x[4]).toList());
        Table moves = history.get(4);
        assertEquals(82_774_685L, moves.rows().stream().filter(x -> x[6].equals(3L)).findFirst().orElseThrow()[1]);
    }

    @Test
    void pingPongOfSpecItem10() throws Exception {
        Table pp = Detectors.pingPong(m, 3);
        assertEquals(6, pp.rows().stream().map(r -> r[1]).distinct().count());
        assertEquals("3 11 14", cell(pp, Map.of("handle", "55f29bb99940"), "com_ids"));
        assertEquals(4L, cell(pp, Map.of("handle", "55f29bad0420"), "run_length"));
        assertTrue(pp.rows().stream().allMatch(r -> Set.of("RAM", "device").equals(Set.of(r[4], r[5]))));
        try (Store lws = importFixture("chol-lws-nb12", dir)) {
            Table pl = Detectors.pingPong(MemoryTrace.load(lws), 3);
            assertEquals(41, pl.rows().stream().map(r -> r[1]).distinct().count());
        }
    }

    @Test
    void fetchVsPrefetchAndRequestGapsOnTheFixture() {
        Table fp = Detectors.fetchVsPrefetch(m);
        assertEquals(3L, cell(fp, Map.of("what", "transfers", "class", "fetch"), "count"));
        assertEquals(26L, cell(fp, Map.of("what", "transfers", "class", "prefetch"), "count"));
        assertEquals(8L, cell(fp, Map.of("what", "requests", "class", "fetch"), "count"));
        assertEquals(29L, cell(fp, Map.of("what", "requests", "class", "prefetch"), "count"));
        // Request of (2,0) (handle 55f29bdf12e0) at 81.105686, its allocation on MEMNODE1 at 81.119191.
        Table gaps = Detectors.requestToAllocation(m, 1_000_000L);
        assertEquals(13_505L, cell(gaps, Map.of("block", "(2,0)", "request_ts", 81_105_686L), "gap_ns"));
        assertEquals(0, Detectors.allocationRetries(m).size());
    }
}
