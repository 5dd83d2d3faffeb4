package org.hetscope.analysis.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.hetscope.formats.paje.PajeFormat;
import org.hetscope.formats.paje.starpu.StarpuTables;
import org.hetscope.model.Entity;
import org.hetscope.model.MemoryBlock;
import org.hetscope.model.MemoryNode;
import org.hetscope.model.Progress;
import org.hetscope.model.Task;
import org.hetscope.model.TaskAccess;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.hetscope.model.Transfer;
import org.hetscope.model.TransferKind;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.hetscope.store.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The thesis's worked examples (specification section 9, items 1 to 4) on hand-made traces. */
class WorkedExamplesTest {

    /** A minimal StarPU-dialect Paje trace: RAM node 0, a CUDA device as node 1; body lines in ms. */
    static String starpuTrace(String body) {
        return """
                %EventDef PajeDefineContainerType 1
                % Alias string
                % Type string
                % Name string
                %EndEventDef
                %EventDef PajeDefineEventType 2
                % Alias string
                % Type string
                % Name string
                %EndEventDef
                %EventDef PajeCreateContainer 7
                % Time date
                % Alias string
                % Type string
                % Container string
                % Name string
                %EndEventDef
                %EventDef PajeNewEvent 9
                % Time date
                % Type string
                % Container string
                % Value string
                %EndEventDef
                %EventDef PajeNewEvent 22
                % Time date
                % Type string
                % Container string
                % Value string
                % Handle string
                % Info string
                % Size string
                % Tid string
                %EndEventDef
                1 P 0 "Program"
                1 Mn P "Memory Node"
                1 Mm Mn "Memory Manager"
                1 T Mn "Thread"
                1 W T "Worker"
                2 register P "data registration"
                2 unregister P "data unregistration"
                2 SI Mm "data state invalid"
                2 SS Mm "data state shared"
                2 SO Mm "data state owner"
                7 0.0 p P 0 program
                7 0.0 mn0 Mn p MEMNODE0
                7 0.0 mm0 Mm mn0 MEMMANAGER0
                7 0.0 mn1 Mn p MEMNODE1
                7 0.0 mm1 Mm mn1 MEMMANAGER1
                7 0.0 t1 T mn1 T1
                7 0.0 w0 W t1 CUDA0
                """ + body;
    }

    static Store store(Path dir, String name, Consumer<StoreWriter> emit) throws Exception {
        Path file = dir.resolve(name + ".hets");
        StoreWriter w = StoreWriter.create(file);
        emit.accept(w);
        w.commit();
        return Store.open(file);
    }

    static Store paje(Path dir, String body) throws Exception {
        Path trace = Files.writeString(dir.resolve("t.trace"), starpuTrace(body));
        return store(dir, "paje", w -> {
            try {
                new PajeFormat().read(trace, w, Progress.NONE);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void blockLifetimesAreTheReadersFirstRegisterAndLastUnregister(@TempDir Path dir) throws Exception {
        // a: registered twice, unregistered twice; b: never unregistered. The reader stores the lifetimes
        // (starpu_block_lifetime) and MemoryTrace reads them from there.
        try (Store s = paje(dir, """
                9 5.0 register p a
                9 0.0 register p a
                9 0.0 SO mm0 a
                9 20.0 unregister p a
                9 18.0 unregister p a
                9 20.0 register p b
                9 20.0 SS mm0 b
                """)) {
            MemoryTrace m = MemoryTrace.load(s);
            assertEquals(List.of(0L, 20 * MS), java.util.Arrays.asList(m.lifetime.get(m.findBlock("a").id())));
            assertEquals(java.util.Arrays.asList(20 * MS, null),
                    java.util.Arrays.asList(m.lifetime.get(m.findBlock("b").id())));
            assertEquals(2L, s.scalarLong("SELECT count(*) FROM " + StarpuTables.BLOCK_LIFETIME.name()));
        }
    }

    @Test
    void residencyBinOfItem1(@TempDir Path dir) throws Exception {
        // Block a: owned by RAM 0-18 ms, then by the GPU 18-20 ms. Block b: shared on both for all of [20, 40).
        try (Store s = paje(dir, """
                9 0.0 register p a
                9 0.0 SO mm0 a
                9 18.0 SI mm0 a
                9 18.0 SO mm1 a
                9 20.0 unregister p a
                9 20.0 register p b
                9 20.0 SS mm0 b
                9 20.0 SS mm1 b
                9 40.0 unregister p b
                """)) {
            MemoryTrace m = MemoryTrace.load(s);
            Table bins = ResidencyAnalysis.bins(m, 20_000_000L, null);
            Map<String, Double> pct = new java.util.TreeMap<>();
            bins.rows().forEach(r -> pct.put(r[1] + " " + r[2] + " " + r[3], (Double) r[6]));
            assertEquals(Map.of("a MEMNODE0 0", 90.0, "a MEMNODE1 0", 10.0, "b MEMNODE0 20000000", 100.0,
                    "b MEMNODE1 20000000", 100.0), pct);
            // Shared on two nodes: the bin adds up to 200 %.
            assertEquals(200.0, pct.get("b MEMNODE0 20000000") + pct.get("b MEMNODE1 20000000"), 0);
            // A block present for part of a bin gives less than 100 %: 5 ms bins put a's GPU 2 ms in one bin.
            Table five = ResidencyAnalysis.bins(m, 5_000_000L, m.findBlock("a").id());
            assertEquals(40.0, (Double) MemoryFixtureTest.cell(five, Map.of("node", "MEMNODE1",
                    "bin_start_ts", 15_000_000L), "percent"), 0);
            assertEquals(60.0, (Double) MemoryFixtureTest.cell(five, Map.of("node", "MEMNODE0",
                    "bin_start_ts", 15_000_000L), "percent"), 0);
            assertEquals("device", m.nodes.values().stream().filter(n -> n.name().equals("MEMNODE1"))
                    .findFirst().orElseThrow().kind());
            // No task here: the input-layout detector has nothing to count.
            assertEquals(0L, Detectors.inputLayout(m, 10).get(0, "block_uses"));
        }
    }

    static final long MS = 1_000_000L;
    static final long US = 1_000L;

    /**
     * Task 1667 of spec item 2 (002 L872-884). Besides the thesis's times, two transfers into RAM: 0x9's, which
     * satisfies the 5 185 ms prefetch and ends at 5 250 ms, and 2x9's, which ends at {@code arrival2x9}: the
     * detector must blame the block that arrived last, not the first one prefetched.
     */
    static Store task1667(Path dir, String name, long arrival2x9) throws Exception {
        return store(dir, name, w -> {
            long ram = w.newId(Entity.MEMORY_NODE);
            long gpu = w.newId(Entity.MEMORY_NODE);
            w.memoryNode(new MemoryNode(ram, "RAM", null, "RAM"));
            w.memoryNode(new MemoryNode(gpu, "GPU2", null, "device"));
            long cpu3 = w.newId(Entity.TRACK);
            long other = w.newId(Entity.TRACK);
            w.track(Track.of(cpu3, null, TrackKind.WORKER, "CPU3"));
            w.track(Track.of(other, null, TrackKind.WORKER, "CUDA0"));
            long[] blocks = new long[3];
            String[] coords = {"0 2", "0 9", "2 9"};
            for (int i = 0; i < 3; i++) {
                blocks[i] = w.newId(Entity.MEMORY_BLOCK);
                w.memoryBlock(new MemoryBlock(blocks[i], "h" + i, null, 7_372_800L, ram, coords[i]));
            }
            long dep = w.newId(Entity.TASK);
            w.task(new Task(dep, null, 1000, "dep", other, gpu, 0L, 5000 * MS, 5185 * MS, 0));
            long prev = w.newId(Entity.TASK);
            w.task(new Task(prev, null, 1500, "prev", cpu3, ram, 0L, 5300 * MS, 5486 * MS, 0));
            long t = w.newId(Entity.TASK);
            w.task(new Task(t, null, 1667, "dgemm", cpu3, ram, 100 * MS, 5676 * MS, 5800 * MS, 0));
            for (long b : blocks) {
                w.taskAccess(new TaskAccess(t, b, "R"));
            }
            w.defineTable(StarpuTables.DEPENDS_ON);
            w.row(StarpuTables.DEPENDS_ON, 1667L, 1000L, "task");
            w.defineTable(StarpuTables.REQUEST);
            w.row(StarpuTables.REQUEST, 5185 * MS, blocks[1], gpu, ram, "prefetch", 0L, 1L);
            w.row(StarpuTables.REQUEST, 5185 * MS, blocks[2], gpu, ram, "prefetch", 0L, 2L);
            w.row(StarpuTables.REQUEST, 5486 * MS, blocks[2], gpu, ram, "fetch", 0L, 3L);
            w.defineTable(StarpuTables.MANAGER_ACTION);
            w.row(StarpuTables.MANAGER_ACTION, null, ram, blocks[2], "Allocating", 5490 * MS, MS, "fetch", 7_372_800L,
                    -12L, false, null, null, 4L);
            w.row(StarpuTables.MANAGER_ACTION, null, ram, blocks[2], "Allocating", 5590 * MS, MS, "fetch", 7_372_800L,
                    7_372_800L, true, null, null, 5L);
            long tr09 = w.newId(Entity.TRANSFER);
            w.transfer(new Transfer(tr09, null, 5190 * MS, 60 * MS, 7_372_800L, TransferKind.DTOH, null, null, gpu,
                    ram, blocks[1], 1L));
            long tr = w.newId(Entity.TRANSFER);
            w.transfer(new Transfer(tr, null, 5600 * MS, arrival2x9 - 5600 * MS, 7_372_800L, TransferKind.DTOH,
                    null, null, gpu, ram, blocks[2], 2L));
        });
    }

    @Test
    void task1667OfItem2(@TempDir Path dir) throws Exception {
        try (Store s = task1667(dir, "t1667", 5670 * MS)) {
            MemoryTrace m = MemoryTrace.load(s);
            TaskWait.Result r = TaskWait.of(m, 1667);
            assertEquals(491 * MS, r.waitAfterDeps());
            assertEquals(190 * MS, r.idleBefore());
            assertEquals(301 * MS, r.workerBusy());
            assertEquals(5185 * MS - 100 * MS, r.dependencyWait());
            // 2x9 arrived last (5 670 ms; 0x9 at 5 250 ms): with "close" = 10 ms and "large" = 100 ms it is blamed.
            Table late = Detectors.lateData(m, 10 * MS, 100 * MS);
            assertEquals(1, late.size());
            assertEquals(List.of(1667L, 491 * MS, 5670 * MS, 6 * MS, "(2,9)"), List.of(late.get(0, "job_id"),
                    late.get(0, "wait_after_deps_ns"), late.get(0, "last_input_arrival"),
                    late.get(0, "input_before_start_ns"), late.get(0, "late_block")));
            // Both conditions are needed: a 500 ms "large" wait or a 5 ms "close" arrival leaves it out.
            assertEquals(0, Detectors.lateData(m, 10 * MS, 500 * MS).size());
            assertEquals(0, Detectors.lateData(m, 5 * MS, 100 * MS).size());
            // Task 1667 starts at 5676 ms: none of its three blocks has a residency interval in RAM then.
            Table layout = Detectors.inputLayout(m, 10);
            assertEquals(List.of(3L, 3L, 3L), List.of(layout.get(0, "tasks"), layout.get(0, "block_uses"),
                    layout.get(0, "not_in_ram")));
            Table retries = Detectors.allocationRetries(m);
            assertEquals(List.of("RAM (2,9) 2 1 1"), retries.rows().stream()
                    .map(x -> x[0] + " " + x[1] + " " + x[2] + " " + x[3] + " " + x[4]).toList());
            Table gaps = Detectors.requestToAllocation(m, 100 * MS);
            // The 5185 prefetch of (2,9) waited 305 ms for the (failing) first allocation: slow.
            assertEquals(305 * MS, MemoryFixtureTest.cell(gaps, Map.of("request_ts", 5185 * MS, "block", "(2,9)"),
                    "gap_ns"));
            assertEquals(true, MemoryFixtureTest.cell(gaps, Map.of("request_ts", 5185 * MS, "block", "(2,9)"),
                    "slow"));
        }
    }

    @Test
    void task1667WithDefaultThresholds(@TempDir Path dir) throws Exception {
        Detectors.Options d = Detectors.Options.defaults();
        // StarPU starts a task microseconds after the copy that held it ends (0.8 to 23 us in the fixtures):
        // 2x9 arriving 10 us before the start is late data under the defaults, and 491 ms is a large wait.
        try (Store s = task1667(dir, "near", 5676 * MS - 10 * US)) {
            Table late = Detectors.lateData(MemoryTrace.load(s), d.lateInputNs(), d.lateWaitNs());
            assertEquals(List.of("1667 (2,9) 10000"), late.rows().stream()
                    .map(r -> r[0] + " " + r[7] + " " + r[6]).toList());
        }
        // Arriving 6 ms before the start, the copy is not what the default closeness (30 us) calls "close".
        try (Store s = task1667(dir, "far", 5670 * MS)) {
            assertEquals(0, Detectors.lateData(MemoryTrace.load(s), d.lateInputNs(), d.lateWaitNs()).size());
        }
    }

    @Test
    void pageRoundingOfItem3() {
        long page = 2L << 20;
        assertEquals(1_015_808L, Detectors.pageWaste(7_372_800L, page));
        assertEquals(992 * 1024L, Detectors.pageWaste(960L * 960 * 8, page));
        assertEquals(2_060_288L, Detectors.pageWaste(36_864L, page));
        assertEquals(0L, Detectors.pageWaste(page, page));
        // 60x60 tiles: the thesis's ~1 800 MB fits the N(N+1)/2 = 1 830 lower-triangular blocks.
        assertEquals(1_815_360L * 1024, 60 * 61 / 2 * Detectors.pageWaste(7_372_800L, page));
    }

    @Test
    void pingPongOfItem4(@TempDir Path dir) throws Exception {
        try (Store s = store(dir, "pp", w -> {
            long a = w.newId(Entity.MEMORY_NODE);
            long b = w.newId(Entity.MEMORY_NODE);
            w.memoryNode(new MemoryNode(a, "GPU0", null, "device"));
            w.memoryNode(new MemoryNode(b, "GPU1", null, "device"));
            long x = w.newId(Entity.MEMORY_BLOCK);
            long y = w.newId(Entity.MEMORY_BLOCK);
            w.memoryBlock(new MemoryBlock(x, "x", null, 8L, a, null));
            w.memoryBlock(new MemoryBlock(y, "y", null, 8L, a, null));
            long[][] moves = {{x, a, b}, {x, b, a}, {x, a, b}, {y, a, b}, {y, a, b}};
            long com = 0;
            for (long[] mv : moves) {
                long id = w.newId(Entity.TRANSFER);
                com++;
                w.transfer(new Transfer(id, null, com * MS, MS, 8, TransferKind.DTOD, null, null, mv[1], mv[2], mv[0],
                        com));
            }
        })) {
            Table pp = Detectors.pingPong(MemoryTrace.load(s), 3);
            assertEquals(List.of("x GPU0 GPU1 3 device device"), pp.rows().stream()
                    .map(r -> r[1] + " " + r[2] + " " + r[3] + " " + r[6] + " " + r[4] + " " + r[5]).toList());
        }
    }

    @Test
    void dominantShareCountsOverlappingActionsOnce(@TempDir Path dir) throws Exception {
        try (Store s = store(dir, "gantt", w -> {
            long n = w.newId(Entity.MEMORY_NODE);
            w.memoryNode(new MemoryNode(n, "GPU2", null, "device"));
            w.defineTable(StarpuTables.MANAGER_ACTION);
            // Two copies overlapping on [2, 4) ms, one allocation [6, 7) ms.
            w.row(StarpuTables.MANAGER_ACTION, null, n, null, "DriverCopy", 0L, 4 * MS, null, null, null, null, null,
                    null, 1L);
            w.row(StarpuTables.MANAGER_ACTION, null, n, null, "DriverCopy", 2 * MS, 4 * MS, null, null, null, null, null,
                    null, 2L);
            w.row(StarpuTables.MANAGER_ACTION, null, n, null, "Allocating", 6 * MS, MS, null, null, null, null, null,
                    null, 3L);
        })) {
            MemoryTrace m = MemoryTrace.load(s);
            Table sh = ManagerGantt.shares(m, MS, 9 * MS);
            // Window [1, 9) ms: copies cover [1, 6) = 5 ms = 62.5 %, allocation 1 ms = 12.5 %.
            assertEquals(62.5, (Double) MemoryFixtureTest.cell(sh, Map.of("action", "DriverCopy"), "percent"), 0);
            assertEquals(12.5, (Double) MemoryFixtureTest.cell(sh, Map.of("action", "Allocating"), "percent"), 0);
            assertEquals(true, MemoryFixtureTest.cell(sh, Map.of("action", "DriverCopy"), "dominant"));
            Table lanes = ManagerGantt.actions(m);
            assertEquals(List.of(0L, 1L, 0L), lanes.rows().stream().map(r -> r[1]).toList());
            assertTrue(lanes.rows().stream().allMatch(r -> r[0].equals("GPU2")));
        }
    }
}
