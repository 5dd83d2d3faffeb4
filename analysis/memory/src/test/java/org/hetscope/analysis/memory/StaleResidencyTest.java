package org.hetscope.analysis.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hetscope.model.CounterSample;
import org.hetscope.model.Entity;
import org.hetscope.model.MemoryBlock;
import org.hetscope.model.MemoryNode;
import org.hetscope.model.Residency;
import org.hetscope.model.Task;
import org.hetscope.model.TaskAccess;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.hetscope.store.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stale residency on hand-made traces whose answers are worked out by hand in the comments: replicas idle while
 * the node is at its peak are reported, the same idleness below the peak is not.
 */
class StaleResidencyTest {
    static final long MS = 1_000_000L;
    static final long US = 1_000L;

    /**
     * RAM (no used-memory counter) and GPU2, whose "Used (MB)" counter, laid out as the StarPU mapping does
     * (memory_node track, memory_manager child, counter grandchild), reads 0 from 0 ms, 1 MiB from 1 ms, 2 MiB
     * (its run maximum) from 10 ms, 1 MiB from 30 ms, 0 from 50 ms.
     *
     * <pre>
     * block  node  present     tasks using it                      stale period   kept   next   peak in it
     * A      GPU2  [0.5, 9)    R on GPU2 [1, 2)                     [2, 9)         7      -      1
     * B      GPU2  [0.5, 40)   R on GPU2 [3, 4)                     [4, 40)        36     -      2
     * C      GPU2  [11, 12.5)  R on GPU2 [11, 12); W on RAM at 20   [12, 12.5)     0.5    W      2
     * D      GPU2  [11, 12)    R on GPU2 [11, 12); W on RAM at 20   empty          0      W      -
     * E      GPU2  [4.5, 10)   none                                 [4.5, 10)      5.5    -      1 (2 comes at 10)
     * F      GPU2  [30, 45)    none                                 [30, 45)       15     -      1 (2 ended at 30)
     * G      RAM   [0, 40)     R on RAM [1, 2)                      [2, 40)        38     -      no counter
     * </pre>
     */
    static Store trace(Path dir) throws Exception {
        Path file = dir.resolve("stale.hets");
        StoreWriter w = StoreWriter.create(file);
        long ram = w.newId(Entity.MEMORY_NODE);
        long gpu = w.newId(Entity.MEMORY_NODE);
        w.memoryNode(new MemoryNode(ram, "RAM", null, "RAM"));
        w.memoryNode(new MemoryNode(gpu, "GPU2", null, "device"));
        long nodeTrack = w.newId(Entity.TRACK);
        long managerTrack = w.newId(Entity.TRACK);
        long useTrack = w.newId(Entity.TRACK);
        long gpuWorker = w.newId(Entity.TRACK);
        long cpuWorker = w.newId(Entity.TRACK);
        w.track(Track.of(nodeTrack, null, TrackKind.MEMORY_NODE, "GPU2"));
        w.track(Track.of(managerTrack, nodeTrack, TrackKind.MEMORY_MANAGER, "MEMMANAGER2"));
        w.track(new Track(useTrack, managerTrack, TrackKind.COUNTER, "Used (MB)", null, null, null, null, 0, "MB"));
        w.track(Track.of(gpuWorker, null, TrackKind.WORKER, "CUDA0"));
        w.track(Track.of(cpuWorker, null, TrackKind.WORKER, "CPU0"));
        long[][] use = {{0, 0}, {1 * MS, 1}, {10 * MS, 2}, {30 * MS, 1}, {50 * MS, 0}};
        for (long[] u : use) {
            w.counter(new CounterSample(useTrack, u[0], u[1]));
        }
        String[] names = {"A", "B", "C", "D", "E", "F", "G"};
        long[] b = new long[names.length];
        for (int i = 0; i < names.length; i++) {
            b[i] = w.newId(Entity.MEMORY_BLOCK);
            w.memoryBlock(new MemoryBlock(b[i], names[i], null, 8L, ram, null));
        }
        long[][] present = {{gpu, 500 * US, 9 * MS}, {gpu, 500 * US, 40 * MS}, {gpu, 11 * MS, 12_500 * US},
                {gpu, 11 * MS, 12 * MS}, {gpu, 4_500 * US, 10 * MS}, {gpu, 30 * MS, 45 * MS}, {ram, 0, 40 * MS}};
        for (int i = 0; i < names.length; i++) {
            w.residency(new Residency(b[i], present[i][0], present[i][1], present[i][2] - present[i][1], "shared"));
        }
        long job = 1;
        // {block index, node, start, end, mode}
        Object[][] uses = {{0, gpu, 1 * MS, 2 * MS, "R"}, {1, gpu, 3 * MS, 4 * MS, "R"},
                {2, gpu, 11 * MS, 12 * MS, "R"}, {3, gpu, 11 * MS, 12 * MS, "R"}, {2, ram, 20 * MS, 21 * MS, "W"},
                {3, ram, 20 * MS, 21 * MS, "W"}, {6, ram, 1 * MS, 2 * MS, "R"}};
        for (Object[] u : uses) {
            long t = w.newId(Entity.TASK);
            long node = (Long) u[1];
            w.task(new Task(t, null, job++, "t", node == gpu ? gpuWorker : cpuWorker, node, 0L, (Long) u[2],
                    (Long) u[3], 0));
            w.taskAccess(new TaskAccess(t, b[(Integer) u[0]], (String) u[4]));
        }
        w.commit();
        return Store.open(file);
    }

    /** Rows as "block reason kept_ns peak max pressure", in table order. */
    static List<String> rows(Table t) {
        List<String> out = new ArrayList<>();
        for (Object[] r : t.rows()) {
            out.add(r[t.column("block")] + " " + r[t.column("reason")] + " " + r[t.column("kept_ns")] + " "
                    + r[t.column("use_peak_mib")] + " " + r[t.column("use_max_mib")] + " "
                    + r[t.column("under_pressure")]);
        }
        return out;
    }

    @Test
    void staleAtPeakIsReportedStaleBelowPeakIsNot(@TempDir Path dir) throws Exception {
        try (Store s = trace(dir)) {
            MemoryTrace m = MemoryTrace.load(s);
            // Threshold 2 ms. A (peak 1 of 2), E (its stale period ends when 2 begins) and F (starts when 2 ends)
            // idle too long below the peak; G's RAM has no counter; D was dropped when its last use ended.
            Table t = Detectors.staleResidency(m, 2 * MS, 0.95, true);
            assertEquals(List.of("B kept 36000000 2.0 2.0 true", "C write-only next 500000 2.0 2.0 true"), rows(t));
            assertEquals(Arrays.asList("GPU2", "B", 500 * US, 40 * MS, 4 * MS, 36 * MS, null),
                    Arrays.asList(t.rows().get(0)).subList(0, 7));
            assertEquals("W", t.get(1, "next_access_mode"));

            // Without the pressure condition every candidate is listed with the reason it is not reported.
            Table all = Detectors.staleResidency(m, 2 * MS, 0.95, false);
            assertEquals(List.of("A kept 7000000 1.0 2.0 false", "B kept 36000000 2.0 2.0 true",
                    "C write-only next 500000 2.0 2.0 true", "E kept 5500000 1.0 2.0 false",
                    "F kept 15000000 1.0 2.0 false", "G kept 38000000 null null null"), rows(all));

            // "Within 50 % of the maximum" makes the 1 MiB periods count as pressure.
            assertEquals(List.of("A", "B", "C", "E", "F"), Detectors.staleResidency(m, 2 * MS, 0.5, true).rows()
                    .stream().map(r -> (String) r[1]).toList());
            // A threshold above every idle time leaves only the write-only case.
            assertEquals(List.of("C write-only next 500000 2.0 2.0 true"),
                    rows(Detectors.staleResidency(m, 100 * MS, 0.95, true)));
            // The default options carry the pressure condition into Detectors.all.
            Detectors.Options o = new Detectors.Options(2 * MS, MS, 50 * US, MS, 2L << 20, 3);
            assertTrue(o.stalePressure());
            Table viaAll = Detectors.all(m, o).get(2);
            assertEquals(rows(t), rows(viaAll));
        }
    }

    @Test
    void peakOfTheUsedMemoryStepFunction() {
        // 1 from 10, 3 and 2 both at 20 (same time stamp), 0 from 30.
        MemoryTrace.Usage u = new MemoryTrace.Usage(new long[] {10, 20, 20, 30}, new double[] {1, 2, 3, 0});
        assertEquals(3.0, u.max());
        assertEquals(Double.NaN, u.peak(0, 10)); // before the first sample: unknown
        assertEquals(1.0, u.peak(5, 11)); // the sample at 10 is inside
        assertEquals(1.0, u.peak(10, 20)); // [10, 20): the samples at 20 are not
        assertEquals(3.0, u.peak(20, 21)); // both samples at 20 count, whatever their order
        assertEquals(3.0, u.peak(25, 26)); // carried from 20
        assertEquals(0.0, u.peak(30, 99));
        assertEquals(Double.NaN, u.peak(15, 15)); // empty interval
    }
}
