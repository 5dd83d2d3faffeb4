package org.hetscope.formats.paje;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.CounterSample;
import org.hetscope.model.Device;
import org.hetscope.model.Entity;
import org.hetscope.model.Flow;
import org.hetscope.model.Instant;
import org.hetscope.model.KernelCounter;
import org.hetscope.model.KernelLaunch;
import org.hetscope.model.MemoryBlock;
import org.hetscope.model.MemoryNode;
import org.hetscope.model.Progress;
import org.hetscope.model.Residency;
import org.hetscope.model.SkipReason;
import org.hetscope.model.Slice;
import org.hetscope.model.TableSpec;
import org.hetscope.model.Task;
import org.hetscope.model.TaskAccess;
import org.hetscope.model.TaskDependency;
import org.hetscope.model.TraceProcess;
import org.hetscope.model.TraceThread;
import org.hetscope.model.Track;
import org.hetscope.model.Transfer;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;

/**
 * A {@link CollectingSink} that also writes everything to a store, so that what the store derives from a reader's
 * rows ({@code derive}: the StarPU tasks, transfer links, state mismatches and the problems those joins count) is
 * in the lists too once {@link #read} is done: {@code tasks}, the rows of {@code starpu_transfer} and
 * {@code starpu_anomaly}, {@code info} and the skipped items. The store gives the ids.
 */
public class StoredSink extends CollectingSink {
    private static final List<String> DERIVED_TABLES = List.of("starpu_transfer", "starpu_anomaly");
    private final Path dir;
    private final StoreWriter writer;

    public StoredSink() {
        try {
            dir = Files.createTempDirectory("hetscope-stored-sink");
            writer = StoreWriter.create(dir.resolve("store.duckdb"));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Reads {@code input} with the Paje format into this sink and the store, and takes back what was derived. */
    public static <S extends StoredSink> S read(Path input, S sink) throws Exception {
        StoredSink s = sink;
        try {
            s.writer.beginSource(input.toString(), "paje");
            try {
                new PajeFormat().read(input, s, Progress.NONE);
            } finally {
                s.writer.endSource();
            }
            s.writer.commit();
            try (Store store = Store.open(s.dir.resolve("store.duckdb"))) {
                s.takeDerived(store);
            }
        } finally {
            try (var files = Files.walk(s.dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        return sink;
    }

    public static StoredSink read(Path input) throws Exception {
        return read(input, new StoredSink());
    }

    private void takeDerived(Store store) {
        taking = true;
        tasks.clear();
        for (Object[] r : store.query("SELECT id, slice_id, job_id, name, worker_track_id, node_id, submit_ts, "
                + "start_ts, end_ts, priority FROM task ORDER BY id").rows()) {
            tasks.add(new Task((Long) r[0], (Long) r[1], (Long) r[2], (String) r[3], (Long) r[4], (Long) r[5],
                    (Long) r[6], (Long) r[7], (Long) r[8], r[9] == null ? null : ((Number) r[9]).intValue()));
        }
        for (String t : DERIVED_TABLES) {
            TableSpec spec = extraTables.get(t);
            if (spec != null) {
                List<Object[]> rows = new ArrayList<>(store.query("SELECT " + spec.columnList() + " FROM " + t
                        + " ORDER BY rowid").rows());
                extraRows.put(t, rows);
            }
        }
        for (Object[] r : store.query("SELECT key, value FROM trace_info").rows()) {
            info.putIfAbsent((String) r[0], (String) r[1]);
        }
        // the skipped items the store counted beyond those told here (the joins' problems), as if told now
        for (Object[] r : store.query("SELECT reason, detail, location, count FROM skipped ORDER BY rowid").rows()) {
            SkipReason reason = SkipReason.byId((String) r[0]);
            long more = ((Number) r[3]).longValue() - skips.count(reason, (String) r[1]);
            if (more > 0) {
                skipped(reason, (String) r[1], (String) r[2], more);
            }
        }
    }

    @Override
    public long newId(Entity entity) {
        return writer.newId(entity);
    }

    @Override public void process(TraceProcess p) { super.process(p); writer.process(p); }
    @Override public void thread(TraceThread t) { super.thread(t); writer.thread(t); }
    @Override public void device(Device d) { super.device(d); writer.device(d); }
    @Override public void track(Track t) { super.track(t); writer.track(t); }
    @Override public void slice(Slice s) { super.slice(s); writer.slice(s); }
    @Override public void instant(Instant i) { super.instant(i); writer.instant(i); }
    @Override public void counter(CounterSample c) { super.counter(c); writer.counter(c); }
    @Override public void flow(Flow f) { super.flow(f); writer.flow(f); }
    @Override public void kernel(KernelLaunch k) { super.kernel(k); writer.kernel(k); }
    @Override public void kernelCounter(KernelCounter c) { super.kernelCounter(c); writer.kernelCounter(c); }
    @Override public void transfer(Transfer t) { super.transfer(t); writer.transfer(t); }
    @Override public void memoryNode(MemoryNode n) { super.memoryNode(n); writer.memoryNode(n); }
    @Override public void memoryBlock(MemoryBlock b) { super.memoryBlock(b); writer.memoryBlock(b); }
    @Override public void residency(Residency r) { super.residency(r); writer.residency(r); }
    @Override public void task(Task t) { super.task(t); writer.task(t); }
    @Override public void taskAccess(TaskAccess a) { super.taskAccess(a); writer.taskAccess(a); }
    @Override public void taskDependency(TaskDependency d) { super.taskDependency(d); writer.taskDependency(d); }
    @Override public void defineTable(TableSpec t) { super.defineTable(t); writer.defineTable(t); }
    @Override public void row(TableSpec t, Object... v) { super.row(t, v); writer.row(t, v); }
    @Override public void info(String k, String v) { super.info(k, v); writer.info(k, v); }
    @Override public void derive(String sql) { super.derive(sql); writer.derive(sql); }
    @Override public void deriveSkipped(String q) { super.deriveSkipped(q); writer.deriveSkipped(q); }

    @Override
    public void skipped(SkipReason reason, String detail, String where, long count) {
        super.skipped(reason, detail, where, count);
        if (!taking) {
            writer.skipped(reason, detail, where, count);
        }
    }

    private boolean taking;
}
