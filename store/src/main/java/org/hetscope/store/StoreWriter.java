package org.hetscope.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.hetscope.model.CounterSample;
import org.hetscope.model.Device;
import org.hetscope.model.Dim3;
import org.hetscope.model.Entity;
import org.hetscope.model.Flow;
import org.hetscope.model.Instant;
import org.hetscope.model.JsonText;
import org.hetscope.model.KernelCounter;
import org.hetscope.model.KernelLaunch;
import org.hetscope.model.MemoryBlock;
import org.hetscope.model.MemoryNode;
import org.hetscope.model.Residency;
import org.hetscope.model.Slice;
import org.hetscope.model.Task;
import org.hetscope.model.TaskAccess;
import org.hetscope.model.TaskDependency;
import org.hetscope.model.TraceProcess;
import org.hetscope.model.TraceSink;
import org.hetscope.model.TraceThread;
import org.hetscope.model.Track;
import org.hetscope.model.Transfer;

/**
 * Writes the model into a new store file. Everything goes to {@code FILE.partial} first; only {@link #commit()}
 * finishes the derived columns, marks the store complete and renames it into place, so a failed or interrupted
 * import never leaves a file that opens as if complete. Not thread-safe: one reader thread feeds it.
 */
public final class StoreWriter implements TraceSink, AutoCloseable {
    static final String COMPLETE_KEY = "import_complete";

    private final Path target;
    private final Path partial;
    private final DuckDBConnection connection;
    private final Map<Entity, Long> nextIds = new EnumMap<>(Entity.class);
    private final Map<String, DuckDBAppender> appenders = new LinkedHashMap<>();
    private final Map<String, Long> skippedCounts = new LinkedHashMap<>();
    private final Map<String, String> skippedWhere = new LinkedHashMap<>();
    private final List<String[]> info = new ArrayList<>();
    private boolean depthPending;
    private boolean finished;

    private StoreWriter(Path target) throws IOException {
        this.target = target.toAbsolutePath();
        this.partial = this.target.resolveSibling(this.target.getFileName() + ".partial");
        Files.deleteIfExists(partial);
        Files.deleteIfExists(partial.resolveSibling(partial.getFileName() + ".wal"));
        try {
            Properties props = new Properties();
            connection = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:" + partial, props);
            try (Statement st = connection.createStatement()) {
                st.execute("SET preserve_insertion_order = false");
                String limit = System.getProperty("hetscope.duckdb.memory", "512MB");
                st.execute("SET memory_limit = '" + limit.replace("'", "") + "'");
            }
            Schema.create(connection);
            // One transaction for the whole import: appended rows then go straight to the database file at
            // commit instead of through the write-ahead log and its repeated automatic checkpoints.
            connection.setAutoCommit(false);
        } catch (SQLException e) {
            deletePartial();
            throw new IOException("cannot create store " + partial + ": " + e.getMessage(), e);
        }
    }

    /** Starts a new store that will replace {@code target} on {@link #commit()}. */
    public static StoreWriter create(Path target) throws IOException {
        return new StoreWriter(target);
    }

    public Path partialPath() {
        return partial;
    }

    private DuckDBAppender appender(String table) {
        DuckDBAppender a = appenders.get(table);
        if (a == null) {
            try {
                a = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, table);
            } catch (SQLException e) {
                throw new StoreException("cannot append to table " + table, e);
            }
            appenders.put(table, a);
        }
        return a;
    }

    private static void put(DuckDBAppender a, Long v) throws SQLException {
        if (v == null) {
            a.appendNull();
        } else {
            a.append(v.longValue());
        }
    }

    private static void put(DuckDBAppender a, Integer v) throws SQLException {
        if (v == null) {
            a.appendNull();
        } else {
            a.append(v.intValue());
        }
    }

    private static void put(DuckDBAppender a, Double v) throws SQLException {
        if (v == null) {
            a.appendNull();
        } else {
            a.append(v.doubleValue());
        }
    }

    private static void put(DuckDBAppender a, String v) throws SQLException {
        if (v == null) {
            a.appendNull();
        } else {
            a.append(v);
        }
    }

    @Override
    public long newId(Entity entity) {
        return nextIds.merge(entity, 1L, Long::sum);
    }

    @Override
    public void process(TraceProcess p) {
        try {
            DuckDBAppender a = appender("process").beginRow();
            a.append(p.id()).append(p.pid());
            put(a, p.name());
            a.endRow();
        } catch (SQLException e) {
            throw new StoreException("writing process " + p.pid(), e);
        }
    }

    @Override
    public void thread(TraceThread t) {
        try {
            DuckDBAppender a = appender("thread").beginRow();
            a.append(t.id()).append(t.tid()).append(t.processId());
            put(a, t.name());
            a.endRow();
        } catch (SQLException e) {
            throw new StoreException("writing thread " + t.tid(), e);
        }
    }

    @Override
    public void device(Device d) {
        try {
            DuckDBAppender a = appender("device").beginRow();
            a.append(d.id()).append(d.kind().name()).append(d.ordinal());
            put(a, d.vendor());
            put(a, d.name());
            put(a, d.computeUnits());
            put(a, d.memoryBytes());
            put(a, d.warpSize());
            put(a, d.peakFlops());
            put(a, d.peakBandwidth());
            put(a, d.clockMhz());
            JsonText props = new JsonText();
            d.properties().forEach(props::put);
            put(a, props.toStringOrNull());
            a.endRow();
        } catch (SQLException e) {
            throw new StoreException("writing device " + d.name(), e);
        }
    }

    @Override
    public void track(Track t) {
        try {
            DuckDBAppender a = appender("track").beginRow();
            a.append(t.id());
            put(a, t.parentId());
            a.append(t.kind().label());
            put(a, t.name());
            put(a, t.processId());
            put(a, t.threadId());
            put(a, t.deviceId());
            put(a, t.stream());
            a.append(t.sortIndex());
            put(a, t.unit());
            a.endRow();
        } catch (SQLException e) {
            throw new StoreException("writing track " + t.name(), e);
        }
    }

    @Override
    public void slice(Slice s) {
        try {
            DuckDBAppender a = appender("slice").beginRow();
            a.append(s.id()).append(s.trackId()).append(s.ts()).append(s.dur());
            put(a, s.name());
            a.append(s.category().label());
            put(a, s.sourceCategory());
            a.append(s.depth());
            a.appendNull();
            put(a, s.correlationId());
            put(a, s.argsJson());
            a.endRow();
            if (s.depth() < 0) {
                depthPending = true;
            }
        } catch (SQLException e) {
            throw new StoreException("writing slice " + s.name(), e);
        }
    }

    @Override
    public void instant(Instant i) {
        try {
            DuckDBAppender a = appender("instant").beginRow();
            a.append(i.id()).append(i.trackId()).append(i.ts());
            put(a, i.name());
            a.append(i.category().label());
            put(a, i.sourceCategory());
            put(a, i.argsJson());
            a.endRow();
        } catch (SQLException e) {
            throw new StoreException("writing instant " + i.name(), e);
        }
    }

    @Override
    public void counter(CounterSample c) {
        try {
            appender("counter").beginRow().append(c.trackId()).append(c.ts()).append(c.value()).endRow();
        } catch (SQLException e) {
            throw new StoreException("writing counter sample", e);
        }
    }

    @Override
    public void flow(Flow f) {
        try {
            DuckDBAppender a = appender("flow").beginRow();
            a.append(f.id()).append(f.fromSliceId()).append(f.toSliceId());
            put(a, f.kind());
            put(a, f.correlationId());
            a.append(f.rule().name().toLowerCase(java.util.Locale.ROOT));
            a.endRow();
        } catch (SQLException e) {
            throw new StoreException("writing flow", e);
        }
    }

    private static void dim(DuckDBAppender a, Dim3 d) throws SQLException {
        if (d == null) {
            a.appendNull().appendNull().appendNull();
        } else {
            a.append(d.x()).append(d.y()).append(d.z());
        }
    }

    @Override
    public void kernel(KernelLaunch k) {
        try {
            DuckDBAppender a = appender("kernel").beginRow();
            a.append(k.sliceId());
            put(a, k.deviceId());
            put(a, k.stream());
            put(a, k.correlationId());
            dim(a, k.grid());
            dim(a, k.block());
            put(a, k.registersPerThread());
            put(a, k.sharedMemoryStatic());
            put(a, k.sharedMemoryDynamic());
            a.endRow();
        } catch (SQLException e) {
            throw new StoreException("writing kernel attributes", e);
        }
    }

    @Override
    public void kernelCounter(KernelCounter c) {
        try {
            appender("kernel_counter").beginRow().append(c.sliceId()).append(c.name()).append(c.value()).endRow();
        } catch (SQLException e) {
            throw new StoreException("writing kernel counter " + c.name(), e);
        }
    }

    @Override
    public void transfer(Transfer t) {
        try {
            DuckDBAppender a = appender("transfer").beginRow();
            a.append(t.id());
            put(a, t.sliceId());
            a.append(t.ts()).append(t.dur()).append(t.bytes()).append(t.kind().label());
            put(a, t.srcDeviceId());
            put(a, t.dstDeviceId());
            put(a, t.srcNodeId());
            put(a, t.dstNodeId());
            put(a, t.blockId());
            put(a, t.correlationId());
            a.endRow();
        } catch (SQLException e) {
            throw new StoreException("writing transfer", e);
        }
    }

    @Override
    public void memoryNode(MemoryNode n) {
        try {
            DuckDBAppender a = appender("memory_node").beginRow();
            a.append(n.id());
            put(a, n.name());
            put(a, n.deviceId());
            put(a, n.kind());
            a.endRow();
        } catch (SQLException e) {
            throw new StoreException("writing memory node " + n.name(), e);
        }
    }

    @Override
    public void memoryBlock(MemoryBlock b) {
        try {
            DuckDBAppender a = appender("memory_block").beginRow();
            a.append(b.id());
            put(a, b.handle());
            put(a, b.name());
            put(a, b.sizeBytes());
            put(a, b.homeNodeId());
            put(a, b.coordinates());
            a.endRow();
        } catch (SQLException e) {
            throw new StoreException("writing memory block " + b.handle(), e);
        }
    }

    @Override
    public void residency(Residency r) {
        try {
            DuckDBAppender a = appender("residency").beginRow();
            a.append(r.blockId()).append(r.nodeId()).append(r.ts()).append(r.dur());
            put(a, r.state());
            a.endRow();
        } catch (SQLException e) {
            throw new StoreException("writing residency", e);
        }
    }

    @Override
    public void task(Task t) {
        try {
            DuckDBAppender a = appender("task").beginRow();
            a.append(t.id());
            put(a, t.sliceId());
            a.append(t.jobId());
            put(a, t.name());
            put(a, t.workerTrackId());
            put(a, t.nodeId());
            put(a, t.submitTs());
            a.append(t.startTs()).append(t.endTs());
            put(a, t.priority());
            a.endRow();
        } catch (SQLException e) {
            throw new StoreException("writing task " + t.jobId(), e);
        }
    }

    @Override
    public void taskAccess(TaskAccess t) {
        try {
            DuckDBAppender a = appender("task_access").beginRow();
            a.append(t.taskId()).append(t.blockId());
            put(a, t.mode());
            a.endRow();
        } catch (SQLException e) {
            throw new StoreException("writing task access", e);
        }
    }

    @Override
    public void taskDependency(TaskDependency d) {
        try {
            appender("task_dependency").beginRow().append(d.fromTaskId()).append(d.toTaskId()).endRow();
        } catch (SQLException e) {
            throw new StoreException("writing task dependency", e);
        }
    }

    private final Map<String, String> extraTables = new LinkedHashMap<>();

    @Override
    public void defineTable(String table, String columns) {
        if (!table.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("bad table name '" + table + "'");
        }
        String old = extraTables.putIfAbsent(table, columns);
        if (old != null) {
            if (!old.equals(columns)) {
                throw new IllegalArgumentException("table " + table + " already declared as (" + old + ")");
            }
            return;
        }
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE " + table + "(" + columns + ")");
        } catch (SQLException e) {
            throw new StoreException("cannot create table " + table, e);
        }
    }

    @Override
    public void row(String table, Object... values) {
        if (!extraTables.containsKey(table)) {
            throw new IllegalArgumentException("table " + table + " was not declared");
        }
        try {
            DuckDBAppender a = appender(table).beginRow();
            for (Object v : values) {
                if (v == null) {
                    a.appendNull();
                } else if (v instanceof Long l) {
                    a.append(l.longValue());
                } else if (v instanceof Integer i) {
                    a.append(i.intValue());
                } else if (v instanceof Double d) {
                    a.append(d.doubleValue());
                } else if (v instanceof Boolean b) {
                    a.append(b.booleanValue());
                } else {
                    a.append(v.toString());
                }
            }
            a.endRow();
        } catch (SQLException e) {
            throw new StoreException("writing a row of " + table, e);
        }
    }

    @Override
    public void info(String key, String value) {
        info.add(new String[] {key, value});
    }

    @Override
    public void skipped(String what, String where, long count) {
        skippedCounts.merge(what, count, Long::sum);
        skippedWhere.putIfAbsent(what, where);
    }

    /**
     * Flushes and closes the open appenders; later rows open new ones. DuckDB appenders are confined to the thread
     * that created them, so a writer thread calls this before another thread commits.
     */
    public void closeAppenders() {
        try {
            for (DuckDBAppender a : appenders.values()) {
                a.close();
            }
        } catch (SQLException e) {
            throw new StoreException("flushing rows into the store", e);
        } finally {
            appenders.clear();
        }
    }

    /** Total of everything reported through {@link #skipped}. */
    public long skippedTotal() {
        return skippedCounts.values().stream().mapToLong(Long::longValue).sum();
    }

    public Map<String, Long> skippedCounts() {
        return Map.copyOf(skippedCounts);
    }

    /**
     * Finishes derived columns (slice depth and parent, time-sorted slices), marks the store complete and moves
     * it to its final name. After this the writer is closed.
     */
    public void commit() throws IOException {
        if (finished) {
            throw new IllegalStateException("store already committed or aborted");
        }
        try {
            closeAppenders();
            phase("appenders closed");
            if (depthPending) {
                SliceNesting.compute(connection);
                phase("slice nesting");
            }
            sortSlices(depthPending);
            phase("slices sorted");
            try (PreparedStatement ps = connection.prepareStatement("INSERT INTO trace_info VALUES (?, ?)")) {
                for (String[] kv : info) {
                    ps.setString(1, kv[0]);
                    ps.setString(2, kv[1]);
                    ps.addBatch();
                }
                ps.setString(1, "schema_version");
                ps.setString(2, Integer.toString(Schema.VERSION));
                ps.addBatch();
                ps.executeBatch();
            }
            try (PreparedStatement ps = connection.prepareStatement("INSERT INTO skipped VALUES (?, ?, ?)")) {
                for (Map.Entry<String, Long> e : skippedCounts.entrySet()) {
                    ps.setString(1, e.getKey());
                    ps.setString(2, skippedWhere.get(e.getKey()));
                    ps.setLong(3, e.getValue());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            // Written last: a store without this row is not complete.
            try (Statement st = connection.createStatement()) {
                st.execute("INSERT INTO trace_info VALUES ('" + COMPLETE_KEY + "', 'true')");
                connection.commit();
                connection.setAutoCommit(true);
                st.execute("CHECKPOINT");
            }
            phase("checkpoint");
            connection.close();
        } catch (SQLException | RuntimeException e) {
            abort();
            throw new IOException("cannot finish store " + target + ": " + e.getMessage(), e);
        }
        finished = true;
        Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static final boolean DEBUG = Boolean.getBoolean("hetscope.debug");
    private long phaseStart = System.nanoTime();

    private void phase(String what) {
        if (DEBUG) {
            long now = System.nanoTime();
            System.err.printf("hetscope: store %s in %.2f s%n", what, (now - phaseStart) / 1e9);
            phaseStart = now;
        }
    }

    private void sortSlices(boolean withNesting) throws SQLException {
        // Time-window queries read one track at a time: sorting by (track, ts) lets zone maps skip the rest.
        String select = withNesting
                ? "SELECT s.id, s.track_id, s.ts, s.dur, s.name, s.category, s.source_category,"
                        + " coalesce(n.depth, s.depth) AS depth, coalesce(n.parent_id, s.parent_id) AS parent_id,"
                        + " s.correlation_id, s.args FROM slice s LEFT JOIN slice_nesting n ON n.id = s.id"
                : "SELECT * FROM slice s";
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE slice_sorted AS " + select + " ORDER BY s.track_id, s.ts, s.id");
            st.execute("DROP TABLE slice");
            st.execute("ALTER TABLE slice_sorted RENAME TO slice");
            if (withNesting) {
                st.execute("DROP TABLE slice_nesting");
            }
        }
    }

    /** Throws the partial store away. Safe to call more than once. */
    public void abort() {
        if (finished) {
            return;
        }
        finished = true;
        try {
            for (DuckDBAppender a : appenders.values()) {
                try {
                    a.close();
                } catch (SQLException ignored) {
                    // the file is deleted below anyway
                }
            }
            connection.close();
        } catch (SQLException ignored) {
            // closing a broken connection; the file goes away below
        }
        deletePartial();
    }

    private void deletePartial() {
        try {
            Files.deleteIfExists(partial);
            Files.deleteIfExists(partial.resolveSibling(partial.getFileName() + ".wal"));
        } catch (IOException ignored) {
            // nothing better to do: the name ends in .partial and lacks the completion mark
        }
    }

    @Override
    public void close() {
        abort();
    }
}
