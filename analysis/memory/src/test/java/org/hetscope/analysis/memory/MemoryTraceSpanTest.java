package org.hetscope.analysis.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.hetscope.model.Category;
import org.hetscope.model.Entity;
import org.hetscope.model.MemoryNode;
import org.hetscope.model.Slice;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.hetscope.model.Transfer;
import org.hetscope.model.TransferKind;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.hetscope.store.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24, one definition of every number: the memory views' trace span (the default window of {@code memory
 * gantt}, the heat map's fall-back lifetime) is the library's {@code hs_trace_bounds}, not a span of its own that
 * left transfers out.
 */
class MemoryTraceSpanTest {
    @TempDir
    Path dir;

    @Test
    void aTransferAfterTheLastSliceEndsTheTrace() throws Exception {
        Path file = dir.resolve("t.hets");
        StoreWriter w = StoreWriter.create(file);
        long ram = w.newId(Entity.MEMORY_NODE);
        long gpu = w.newId(Entity.MEMORY_NODE);
        w.memoryNode(new MemoryNode(ram, "RAM", null, "RAM"));
        w.memoryNode(new MemoryNode(gpu, "GPU0", null, "device"));
        long worker = w.newId(Entity.TRACK);
        w.track(Track.of(worker, null, TrackKind.WORKER, "CPU0"));
        w.slice(new Slice(w.newId(Entity.SLICE), worker, 1_000, 500, "t", Category.TASK, null, 0, null, null));
        // the write-back of the result, 2 us after the last task
        w.transfer(new Transfer(w.newId(Entity.TRANSFER), null, 3_500, 400, 8, TransferKind.DTOH, null, null, gpu,
                ram, null, null));
        w.commit();
        try (Store store = Store.open(file)) {
            MemoryTrace m = MemoryTrace.load(store);
            Object[] b = store.query(null, "SELECT start_ns, end_ns FROM hs_trace_bounds").rows().get(0);
            assertEquals(1_000L, b[0]);
            assertEquals(3_900L, b[1]);
            assertEquals(b[0], m.traceStart);
            assertEquals(b[1], m.traceEnd);
            // no device activity (the worker has no device): the run is the trace's span
            assertEquals(1_000L, m.runStart);
            assertEquals(3_900L, m.runEnd);
        }
    }

    @Test
    void theStarpuFixturesSpanIsTheLibrarys() throws Exception {
        try (Store store = MemoryFixtureTest.importFixture("chol-dmda-nb6", dir)) {
            MemoryTrace m = MemoryTrace.load(store);
            Object[] b = store.query(null, "SELECT start_ns, end_ns FROM hs_trace_bounds").rows().get(0);
            assertEquals(b[0], m.traceStart);
            assertEquals(b[1], m.traceEnd);
            // the run of the heat map's RUN normalisation: the library's window, which for StarPU is the first
            // task start to the last task end of the tasks the memory analyses load (tasks.rec)
            Object[] run = store.query(null, "SELECT start_ns, end_ns FROM hs_utilisation_window").rows().get(0);
            assertEquals(run[0], m.runStart);
            assertEquals(run[1], m.runEnd);
            assertEquals(m.tasks.stream().mapToLong(MemoryTrace.TaskRun::startTs).min().orElseThrow(), m.runStart);
            assertEquals(m.tasks.stream().mapToLong(MemoryTrace.TaskRun::endTs).max().orElseThrow(), m.runEnd);
            Table heat = Heatmap.of(m, Heatmap.Normalisation.RUN);
            assertTrue(heat.size() > 0);
            for (Object[] r : heat.rows()) {
                assertTrue(r[heat.column("value")] == null || ((Number) r[heat.column("value")]).doubleValue() <= 1.0
                        + 1e-12, java.util.Arrays.toString(r));
            }
        }
    }
}
