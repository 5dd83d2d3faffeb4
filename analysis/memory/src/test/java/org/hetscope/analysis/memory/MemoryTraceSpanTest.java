package org.hetscope.analysis.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
        }
    }

    @Test
    void theStarpuFixturesSpanIsTheLibrarys() throws Exception {
        try (Store store = MemoryFixtureTest.importFixture("chol-dmda-nb6", dir)) {
            MemoryTrace m = MemoryTrace.load(store);
            Object[] b = store.query(null, "SELECT start_ns, end_ns FROM hs_trace_bounds").rows().get(0);
            assertEquals(b[0], m.traceStart);
            assertEquals(b[1], m.traceEnd);
        }
    }
}
