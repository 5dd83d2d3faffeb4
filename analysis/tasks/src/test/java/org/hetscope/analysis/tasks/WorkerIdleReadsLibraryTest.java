package org.hetscope.analysis.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.hetscope.model.Category;
import org.hetscope.model.Device;
import org.hetscope.model.DeviceKind;
import org.hetscope.model.Entity;
import org.hetscope.model.Slice;
import org.hetscope.model.Task;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.hetscope.store.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24, one definition of every number: {@code tasks critical-path}'s makespan and idle time per worker are
 * the library's ({@code hs_activity_bounds}, {@code hs_device_utilisation}), the figures {@code gpu} shows for the
 * same store. Before, they were computed over the task table alone: on a store where a GPU stream's kernels run
 * beyond the tasks, a worker was 0 % idle for {@code tasks} and 75 % idle for {@code gpu}.
 */
class WorkerIdleReadsLibraryTest {
    @TempDir
    Path dir;

    @Test
    void workerIdleAndMakespanAreTheLibrarys() throws Exception {
        Path file = dir.resolve("t.hets");
        StoreWriter w = StoreWriter.create(file);
        long cpu = w.newId(Entity.DEVICE);
        long gpu = w.newId(Entity.DEVICE);
        w.device(new Device(cpu, DeviceKind.CPU, 0, null, "CPU0", null, null, null, null, null, null, null));
        w.device(new Device(gpu, DeviceKind.GPU, 0, null, "GPU", null, null, null, null, null, null, null));
        long worker = w.newId(Entity.TRACK);
        long stream = w.newId(Entity.TRACK);
        w.track(new Track(worker, null, TrackKind.WORKER, "CPU0", null, null, cpu, null, 0, null));
        w.track(new Track(stream, null, TrackKind.STREAM, "Stream 7", null, null, gpu, 7L, 1, null));
        long slice = w.newId(Entity.SLICE);
        w.slice(new Slice(slice, worker, 1_000, 1_000, "gemm", Category.TASK, null, 0, null, null));
        w.task(new Task(w.newId(Entity.TASK), slice, 1, "gemm", worker, null, 0L, 1_000, 2_000, null));
        w.slice(new Slice(w.newId(Entity.SLICE), stream, 0, 500, "k1", Category.KERNEL, null, 0, null, null));
        w.slice(new Slice(w.newId(Entity.SLICE), stream, 3_000, 1_000, "k2", Category.KERNEL, null, 0, null, null));
        w.commit();
        try (Store store = Store.open(file)) {
            TaskGraph g = TaskGraph.load(store);
            assertEquals(4_000L, g.makespan());
            assertEquals(4_000L, store.scalarLong("SELECT dur_ns FROM hs_activity_bounds"));
            assertEquals(4_000L, CriticalPath.summary(g).get(0, "makespan_ns"));
            Table idle = WorkerIdle.of(store);
            assertEquals(1, idle.size());
            assertEquals("CPU0", idle.get(0, "worker"));
            assertEquals(1L, idle.get(0, "tasks"));
            assertEquals(1_000L, idle.get(0, "busy_ns"));
            assertEquals(3_000L, idle.get(0, "idle_ns"));
            assertEquals(75.0, (Double) idle.get(0, "idle_percent"), 1e-12);
            // the run it is idle in, as a column: the title is the table's --json key and stays the same on every
            // trace (it was "Idle time per worker over the run of 4000 ns")
            assertEquals(4_000L, idle.get(0, "run_ns"));
            assertEquals("Idle time per worker over the run", idle.title());
            Object[] lib = store.query(null, "SELECT busy_ns, idle_ns, idle_pct FROM hs_device_utilisation "
                    + "WHERE level = 'worker'").rows().get(0);
            assertEquals(lib[0], idle.get(0, "busy_ns"));
            assertEquals(lib[1], idle.get(0, "idle_ns"));
            assertEquals(lib[2], idle.get(0, "idle_percent"));
        }
    }
}
