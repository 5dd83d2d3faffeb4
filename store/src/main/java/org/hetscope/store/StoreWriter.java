package org.hetscope.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
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
import org.hetscope.model.SkipReason;
import org.hetscope.model.SkipTally;
import org.hetscope.model.Slice;
import org.hetscope.model.TableSpec;
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
 * import never leaves a file that opens as if complete. Rows are gathered per table in {@link ColumnBatch}es and
 * handed to DuckDB a batch at a time through the {@link BatchLoader} chosen when the writer starts (Arrow stream,
 * else the driver's appender; {@code trace_info} {@value BatchLoader#INFO_KEY} names it). Not thread-safe: one
 * thread feeds it.
 */
public final class StoreWriter implements TraceSink, AutoCloseable {
    static final String COMPLETE_KEY = "import_complete";

    private final Path target;
    /** Null for a writer into an in-memory database ({@link #inMemory}). */
    private final Path partial;
    private final DuckDBConnection connection;
    private final BatchLoader loader;
    /** Last id handed out per entity, by ordinal: an array, not a map, as every record takes an id. */
    private final long[] nextIds = new long[Entity.values().length];
    /** The tables of the store by name: the core tables and those readers declared. */
    private final Map<String, TableSpec> tables = new HashMap<>();
    /** Batches by declaration (identity: each declaration object is its own key). */
    private final Map<TableSpec, ColumnBatch> batches = new LinkedHashMap<>();
    /** The batches {@link #row} may fill: those of declared tables, under each declaration object seen. */
    private final Map<TableSpec, ColumnBatch> declaredBatches = new HashMap<>();
    private final SkipTally skips = new SkipTally();
    private final List<String[]> info = new ArrayList<>();
    /** How each track's slice nesting is found; see {@link TrackNesting}. */
    private final Map<Long, TrackNesting> nestingOf = new HashMap<>();
    // Readers emit long runs of slices on one track: skip the boxed map lookup while the track stays the same.
    private TrackNesting lastNesting;
    private long lastNestingTrack;
    /** Full kernel names stored so far, each once (see {@code kernel_name} in CoreTables). */
    private final Map<String, Long> kernelNameIds = new HashMap<>();
    /** With {@code -Dhetscope.debug=true}: time spent in DuckDB's inserts, per table. */
    private final Map<String, Long> insertNanos = new java.util.TreeMap<>();
    /** Tracks whose nesting is left to {@link SliceNesting} at commit. */
    private final java.util.Set<Long> nestLater = new java.util.LinkedHashSet<>();
    private boolean finished;
    /** Held from creation to commit or abort: one import at a time writes a given target. */
    private final OutputLock lock;
    /** Whether the database is in memory: committed, it stays open for {@link #database()} until {@link #close()}. */
    private final boolean memory;
    private boolean committed;
    private final List<Path> removedStale = new ArrayList<>();
    /** The traces read into this store, in order ({@link #beginSource}); empty for stores written otherwise. */
    private final List<Source> sources = new ArrayList<>();
    private Source currentSource;

    private StoreWriter(Path target) throws IOException {
        this.memory = false;
        this.target = target.toAbsolutePath();
        if (Files.isDirectory(this.target)) {
            throw new IOException(this.target + ": is a folder; the store needs a file name");
        }
        Path dir = this.target.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new IOException(this.target + ": no such folder " + dir);
        }
        lock = OutputLock.acquire(this.target);
        // Unique per import: another process never deletes or reuses this one's partial file.
        this.partial = this.target.resolveSibling(this.target.getFileName() + "."
                + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime() & 0xffffffL) + ".partial");
        DuckDBConnection opened = null;
        try {
            removeStale();
            Properties props = new Properties();
            opened = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:" + partial, props);
            connection = opened;
            try (Statement st = connection.createStatement()) {
                st.execute("SET preserve_insertion_order = false");
                String limit = System.getProperty("hetscope.duckdb.memory", "512MB");
                st.execute("SET memory_limit = '" + limit.replace("'", "") + "'");
            }
            Schema.create(connection);
            CoreTables.ALL.forEach(t -> tables.put(t.name(), t));
            loader = BatchLoader.choose(connection);
            // One transaction for the whole import: appended rows then go straight to the database file at
            // commit instead of through the write-ahead log and its repeated automatic checkpoints.
            connection.setAutoCommit(false);
        } catch (SQLException | IOException | RuntimeException e) {
            if (opened != null) {
                try {
                    opened.close(); // before deleting its file
                } catch (SQLException ignored) {
                    // the file is deleted below all the same
                }
            }
            deletePartial();
            lock.release();
            throw new IOException("cannot create store " + partial + ": " + e.getMessage(), e);
        }
    }

    private StoreWriter(String label, Path spill, int threads) throws IOException {
        this.memory = true;
        this.target = Path.of(label);
        this.partial = null;
        this.lock = null;
        DuckDBConnection opened = null;
        try {
            opened = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:", new Properties());
            connection = opened;
            try (Statement st = connection.createStatement()) {
                st.execute("SET preserve_insertion_order = false");
                String limit = System.getProperty("hetscope.duckdb.memory", "512MB");
                st.execute("SET memory_limit = '" + limit.replace("'", "") + "'");
                // DuckDB's temporary files (operators larger than memory) go here, not to the working folder
                st.execute("SET temp_directory = '" + spill.toAbsolutePath().toString().replace("'", "''") + "'");
                if (threads > 0) {
                    st.execute("SET threads = " + threads);
                }
            }
            Schema.create(connection);
            CoreTables.ALL.forEach(t -> tables.put(t.name(), t));
            loader = BatchLoader.choose(connection);
            connection.setAutoCommit(false);
        } catch (SQLException | RuntimeException e) {
            if (opened != null) {
                try {
                    opened.close();
                } catch (SQLException ignored) {
                    // failing already
                }
            }
            throw new IOException("cannot create an in-memory store for " + label + ": " + e.getMessage(), e);
        }
    }

    /**
     * A writer into an in-memory database instead of a file, for a trace whose rows go elsewhere at the end (hetscope
     * spark import writes them as Parquet): {@link #commit()} finishes the tables as for a file and leaves the
     * database open, read through {@link #database()} until {@link #close()}. The tables must fit DuckDB's memory
     * limit ({@code -Dhetscope.duckdb.memory}, 512MB by default), as a file store's one import transaction must;
     * DuckDB's temporary files go to {@code spill}. DuckDB runs at most {@code threads} threads (its default, one per
     * core of the machine, when 0).
     *
     * @param label names the store in messages (the trace)
     */
    public static StoreWriter inMemory(String label, Path spill, int threads) throws IOException {
        return new StoreWriter(label, spill, threads);
    }

    /** The committed in-memory database ({@link #inMemory}), the caller's to read, closed by {@link #close()}. */
    public java.sql.Connection database() {
        if (!memory || !committed) {
            throw new IllegalStateException("only a committed in-memory store is read through its writer");
        }
        return connection;
    }

    /**
     * Deletes what an import to the same target killed before its end left behind ({@code TARGET.partial},
     * {@code TARGET.*.partial} and their {@code .wal}): holding the target's lock, no running import owns them.
     */
    private void removeStale() throws IOException {
        String base = target.getFileName().toString();
        try (java.util.stream.Stream<Path> siblings = Files.list(target.getParent())) {
            for (Path p : siblings.toList()) {
                String n = p.getFileName().toString();
                String core = n.endsWith(".wal") ? n.substring(0, n.length() - 4) : n;
                if (core.startsWith(base + ".") && core.endsWith(".partial") && Files.isRegularFile(p)
                        && !p.equals(partial)) {
                    Files.deleteIfExists(p);
                    removedStale.add(p);
                }
            }
        }
    }

    /** Partial files of earlier, unfinished imports to the same target that {@link #create} deleted. */
    public List<Path> removedStale() {
        return List.copyOf(removedStale);
    }

    /** Starts a new store that will replace {@code target} on {@link #commit()}. */
    public static StoreWriter create(Path target) throws IOException {
        return new StoreWriter(target);
    }

    /** The name of the way rows reach DuckDB in this store ({@code arrow-stream} or {@code appender}). */
    public String loaderName() {
        return loader.name();
    }

    public Path partialPath() {
        return partial;
    }

    /** Starts a row of {@code table}, first handing a full batch of it to DuckDB. */
    private ColumnBatch startRow(TableSpec table) {
        ColumnBatch b = batches.get(table);
        if (b == null) {
            b = new ColumnBatch(table);
            batches.put(table, b);
        } else if (b.isFull()) {
            flush(b);
        }
        return b.beginRow();
    }

    private void flush(ColumnBatch b) {
        long t0 = System.nanoTime();
        loader.insert(b);
        if (DEBUG) {
            insertNanos.merge(b.table, System.nanoTime() - t0, Long::sum);
        }
        b.clear();
    }

    @Override
    public long newId(Entity entity) {
        return ++nextIds[entity.ordinal()];
    }

    @Override
    public void process(TraceProcess p) {
        CoreTables.Process t = CoreTables.PROCESS;
        startRow(t).set(t.id, p.id()).set(t.pid, p.pid()).set(t.name, p.name()).endRow();
    }

    @Override
    public void thread(TraceThread t) {
        CoreTables.Thread c = CoreTables.THREAD;
        startRow(c).set(c.id, t.id()).set(c.tid, t.tid()).set(c.processId, t.processId()).set(c.name, t.name())
                .endRow();
    }

    @Override
    public void device(Device d) {
        CoreTables.Device c = CoreTables.DEVICE;
        JsonText props = new JsonText();
        d.properties().forEach(props::put);
        startRow(c).set(c.id, d.id()).set(c.kind, d.kind().name()).set(c.ordinal, d.ordinal())
                .set(c.vendor, d.vendor()).set(c.name, d.name()).set(c.computeUnits, d.computeUnits())
                .set(c.memoryBytes, d.memoryBytes()).set(c.warpSize, d.warpSize()).set(c.peakFlops, d.peakFlops())
                .set(c.peakBandwidth, d.peakBandwidth()).set(c.clockMhz, d.clockMhz())
                .set(c.properties, props.toStringOrNull()).endRow();
    }

    @Override
    public void track(Track t) {
        CoreTables.Track c = CoreTables.TRACK;
        startRow(c).set(c.id, t.id()).set(c.parentId, t.parentId()).set(c.kind, t.kind().label())
                .set(c.name, t.name()).set(c.processId, t.processId()).set(c.threadId, t.threadId())
                .set(c.deviceId, t.deviceId()).set(c.stream, t.stream()).set(c.sortIndex, t.sortIndex())
                .set(c.unit, t.unit()).endRow();
    }

    @Override
    public void slice(Slice s) {
        int depth = s.depth();
        Long parent = null;
        TrackNesting track = lastNesting;
        if (track == null || lastNestingTrack != s.trackId()) {
            track = nestingOf.get(s.trackId());
            if (track == null) {
                track = new TrackNesting(depth >= 0);
                nestingOf.put(s.trackId(), track);
            }
            lastNesting = track;
            lastNestingTrack = s.trackId();
        }
        if (!track.later) {
            if (depth < 0 && !track.given && track.inOrder(s)) {
                track.sweep.start(s.id(), s.ts(), s.dur());
                depth = track.sweep.depth;
                parent = track.sweep.parent;
            } else if (depth < 0 || !track.given) {
                // out of start order, or given and missing depths mixed on one track: the whole track at commit
                track.later = true;
                nestLater.add(s.trackId());
            }
        }
        CoreTables.Slice c = CoreTables.SLICE;
        startRow(c).set(c.id, s.id()).set(c.trackId, s.trackId()).set(c.ts, s.ts()).set(c.dur, s.dur())
                .set(c.name, s.name()).set(c.category, s.category().label())
                .set(c.sourceCategory, s.sourceCategory()).set(c.depth, depth).set(c.parentId, parent)
                .set(c.correlationId, s.correlationId()).set(c.args, s.argsJson()).endRow();
    }

    /** Number of tracks whose nesting waits for the commit (tests). */
    int tracksNestedAtCommit() {
        return nestLater.size();
    }

    /**
     * The nesting of one track's slices as they arrive. Most readers emit a track's slices in start order (ts, then
     * longer first, then id, the order {@link SliceNesting} sorts them in), so the same sweep runs here, one slice
     * at a time, and the commit has nothing to sort or join for that track. A track whose slices arrive in another
     * order, or that mixes depths the reader gave with missing ones, is left whole to {@link SliceNesting}.
     */
    private static final class TrackNesting {
        /** Whether the reader gave the depth of the track's first slice (then the track keeps the reader's). */
        final boolean given;
        final SliceNesting.Sweep sweep = new SliceNesting.Sweep();
        boolean later;
        private boolean started;
        private long lastTs;
        private long lastDur;
        private long lastId;

        TrackNesting(boolean given) {
            this.given = given;
        }

        /** Whether {@code s} comes after the previous slice in the sweep's order; remembers it if so. */
        boolean inOrder(Slice s) {
            if (started && (s.ts() < lastTs || (s.ts() == lastTs
                    && (s.dur() > lastDur || (s.dur() == lastDur && s.id() < lastId))))) {
                return false;
            }
            started = true;
            lastTs = s.ts();
            lastDur = s.dur();
            lastId = s.id();
            return true;
        }
    }

    @Override
    public void instant(Instant i) {
        CoreTables.Instant c = CoreTables.INSTANT;
        startRow(c).set(c.id, i.id()).set(c.trackId, i.trackId()).set(c.ts, i.ts()).set(c.name, i.name())
                .set(c.category, i.category().label()).set(c.sourceCategory, i.sourceCategory())
                .set(c.args, i.argsJson()).endRow();
    }

    @Override
    public void counter(CounterSample c) {
        CoreTables.Counter t = CoreTables.COUNTER;
        startRow(t).set(t.trackId, c.trackId()).set(t.ts, c.ts()).set(t.value, c.value()).endRow();
    }

    @Override
    public void flow(Flow f) {
        CoreTables.Flow c = CoreTables.FLOW;
        startRow(c).set(c.id, f.id()).set(c.fromSliceId, f.fromSliceId()).set(c.toSliceId, f.toSliceId())
                .set(c.kind, f.kind()).set(c.correlationId, f.correlationId())
                .set(c.rule, FLOW_RULES[f.rule().ordinal()]).endRow();
    }

    private static final String[] FLOW_RULES = java.util.Arrays.stream(org.hetscope.model.FlowRule.values())
            .map(r -> r.name().toLowerCase(java.util.Locale.ROOT)).toArray(String[]::new);

    private static ColumnBatch dim(ColumnBatch a, Dim3 d, TableSpec.Column<Long> x, TableSpec.Column<Long> y,
            TableSpec.Column<Long> z) {
        return d == null ? a.set(x, (Long) null).set(y, (Long) null).set(z, (Long) null)
                : a.set(x, d.x()).set(y, d.y()).set(z, d.z());
    }

    @Override
    public void kernel(KernelLaunch k) {
        Long nameId = k.fullName() == null ? null : kernelNameId(k.fullName());
        CoreTables.KernelDispatch c = CoreTables.KERNEL_DISPATCH;
        ColumnBatch a = startRow(c).set(c.sliceId, k.sliceId()).set(c.deviceId, k.deviceId())
                .set(c.stream, k.stream()).set(c.correlationId, k.correlationId());
        dim(a, k.grid(), c.gridX, c.gridY, c.gridZ);
        dim(a, k.block(), c.blockX, c.blockY, c.blockZ);
        a.set(c.registersPerThread, k.registersPerThread()).set(c.sharedStatic, k.sharedMemoryStatic())
                .set(c.sharedDynamic, k.sharedMemoryDynamic()).set(c.fullNameId, nameId).endRow();
    }

    /** The id of a full kernel name in {@code kernel_name}, adding it on first sight. */
    private long kernelNameId(String name) {
        Long id = kernelNameIds.get(name);
        if (id == null) {
            id = (long) kernelNameIds.size() + 1;
            kernelNameIds.put(name, id);
            CoreTables.KernelName c = CoreTables.KERNEL_NAME;
            startRow(c).set(c.id, id).set(c.name, name).endRow();
        }
        return id;
    }

    @Override
    public void kernelCounter(KernelCounter c) {
        CoreTables.KernelCounter t = CoreTables.KERNEL_COUNTER;
        startRow(t).set(t.sliceId, c.sliceId()).set(t.name, c.name()).set(t.value, c.value()).endRow();
    }

    @Override
    public void transfer(Transfer t) {
        CoreTables.Transfer c = CoreTables.TRANSFER;
        startRow(c).set(c.id, t.id()).set(c.sliceId, t.sliceId()).set(c.ts, t.ts()).set(c.dur, t.dur())
                .set(c.bytes, t.bytes()).set(c.kind, t.kind().label()).set(c.srcDeviceId, t.srcDeviceId())
                .set(c.dstDeviceId, t.dstDeviceId()).set(c.srcNodeId, t.srcNodeId()).set(c.dstNodeId, t.dstNodeId())
                .set(c.blockId, t.blockId()).set(c.correlationId, t.correlationId()).endRow();
    }

    @Override
    public void memoryNode(MemoryNode n) {
        CoreTables.MemoryNode c = CoreTables.MEMORY_NODE;
        startRow(c).set(c.id, n.id()).set(c.name, n.name()).set(c.deviceId, n.deviceId()).set(c.kind, n.kind())
                .endRow();
    }

    @Override
    public void memoryBlock(MemoryBlock b) {
        CoreTables.MemoryBlock c = CoreTables.MEMORY_BLOCK;
        startRow(c).set(c.id, b.id()).set(c.handle, b.handle()).set(c.name, b.name()).set(c.sizeBytes, b.sizeBytes())
                .set(c.homeNodeId, b.homeNodeId()).set(c.coordinates, b.coordinates()).endRow();
    }

    @Override
    public void residency(Residency r) {
        CoreTables.Residency c = CoreTables.RESIDENCY;
        startRow(c).set(c.blockId, r.blockId()).set(c.nodeId, r.nodeId()).set(c.ts, r.ts()).set(c.dur, r.dur())
                .set(c.state, r.state()).endRow();
    }

    @Override
    public void task(Task t) {
        CoreTables.Task c = CoreTables.TASK;
        startRow(c).set(c.id, t.id()).set(c.sliceId, t.sliceId()).set(c.jobId, t.jobId()).set(c.name, t.name())
                .set(c.workerTrackId, t.workerTrackId()).set(c.nodeId, t.nodeId()).set(c.submitTs, t.submitTs())
                .set(c.startTs, t.startTs()).set(c.endTs, t.endTs()).set(c.priority, t.priority()).endRow();
    }

    @Override
    public void taskAccess(TaskAccess t) {
        CoreTables.TaskAccess c = CoreTables.TASK_ACCESS;
        startRow(c).set(c.taskId, t.taskId()).set(c.blockId, t.blockId()).set(c.mode, t.mode()).endRow();
    }

    @Override
    public void taskDependency(TaskDependency d) {
        CoreTables.TaskDependency c = CoreTables.TASK_DEPENDENCY;
        startRow(c).set(c.fromTaskId, d.fromTaskId()).set(c.toTaskId, d.toTaskId()).endRow();
    }

    @Override
    public void defineTable(TableSpec table) {
        TableSpec old = tables.putIfAbsent(table.name(), table);
        if (old != null) {
            if (old == table) {
                return;
            }
            if (!old.sameShape(table) || CoreTables.ALL.contains(old)) {
                throw new IllegalArgumentException("table " + table.name() + " already declared as " + old.ddl());
            }
            // the same declaration made twice (e.g. by two readers of one family): rows go to the first one's
            // batch, and a row's values follow the declared order, which both share
            return;
        }
        try (Statement st = connection.createStatement()) {
            st.execute(table.ddl());
        } catch (SQLException e) {
            tables.remove(table.name());
            throw new StoreException("cannot create table " + table.name(), e);
        }
    }

    @Override
    public void row(TableSpec table, Object... values) {
        ColumnBatch a = declaredBatches.get(table);
        if (a == null) {
            TableSpec declared = tables.get(table.name());
            if (declared == null || CoreTables.ALL.contains(declared) || !declared.sameShape(table)) {
                throw new IllegalArgumentException("table " + table.name() + " was not declared");
            }
            a = batches.computeIfAbsent(declared, ColumnBatch::new);
            declaredBatches.put(table, a);
        }
        if (a.isFull()) {
            flush(a);
        }
        a.beginRow();
        for (Object v : values) {
            a.appendObject(v);
        }
        a.endRow();
    }

    @Override
    public void info(String key, String value) {
        info.add(new String[] {key, value});
        if (currentSource != null) {
            currentSource.facts.putIfAbsent(key, value);
        }
    }

    /**
     * A reader's derivation ({@link TraceSink#derive}) runs when it comes, on every row written before it: through a
     * {@link PipelinedSink} that is on the writer's thread while the reader goes on (so a join overlaps the reader's
     * last work instead of waiting for the source's end), and always before the source's clock is aligned, so that
     * derived rows are aligned with the others.
     */
    @Override
    public void derive(String sql) {
        runDerivation(sql, false);
    }

    @Override
    public void deriveSkipped(String query) {
        runDerivation(query, true);
    }

    /**
     * The rows of the {@link TraceSink#deriveSkipped} queries run so far: counted as skipped when the source ends,
     * after what its reader reported itself (as if the queries ran then), so that each reason keeps the reader's
     * first location and the list keeps its order.
     */
    private final List<SkipTally.Entry> derivedSkips = new ArrayList<>();

    /**
     * Runs one derivation; a {@code skips} query's rows wait in {@link #derivedSkips}. Declared tables a statement
     * dropped (a reader's per-read staging tables) are forgotten.
     */
    private void runDerivation(String sql, boolean skips) {
        flushRows();
        try (Statement st = connection.createStatement()) {
            if (!skips) {
                st.execute(sql);
            } else {
                try (ResultSet rs = st.executeQuery(sql)) {
                    while (rs.next()) {
                        long count = rs.getLong(4);
                        if (count > 0) {
                            derivedSkips.add(new SkipTally.Entry(SkipReason.byId(rs.getString(1)), rs.getString(2),
                                    rs.getString(3), count));
                        }
                    }
                }
            }
            Set<String> present = new HashSet<>();
            try (ResultSet rs = st.executeQuery("SELECT table_name FROM duckdb_tables()")) {
                while (rs.next()) {
                    present.add(rs.getString(1));
                }
            }
            tables.values().removeIf(t -> !CoreTables.ALL.contains(t) && !present.contains(t.name()));
            batches.keySet().removeIf(t -> !tables.containsKey(t.name()));
            declaredBatches.keySet().removeIf(t -> !tables.containsKey(t.name()));
        } catch (SQLException e) {
            throw new StoreException("cannot derive rows: " + e.getMessage(), e);
        }
        phase("derived: " + sql.substring(0, Math.min(60, sql.length())));
    }

    @Override
    public void skipped(SkipReason reason, String detail, String where, long count) {
        skips.add(reason, detail, where, count);
        if (currentSource != null) {
            currentSource.skips.add(reason, detail, where, count);
        }
    }

    /**
     * Starts the records of one input trace: until {@link #endSource()}, every id handed out, every info key and
     * every skipped item belongs to it, so that its clock can be adjusted afterwards ({@link ClockAlignment}) and
     * its skips stay apart ({@code source_skipped}). Called on the thread that feeds the writer, with nothing of
     * another source in flight.
     *
     * @return the source's id (1, 2, ...)
     */
    public int beginSource(String path, String format) {
        if (currentSource != null) {
            throw new IllegalStateException("source " + currentSource.id + " not ended");
        }
        currentSource = new Source(sources.size() + 1, path, format, nextIds.clone(), extraRowCounts());
        sources.add(currentSource);
        return currentSource.id;
    }

    /** Ends the source begun last; its rows are handed to DuckDB so that they can be told apart from the next. */
    public void endSource() {
        if (currentSource == null) {
            return;
        }
        countDerivedSkips();
        currentSource.lastIds = nextIds.clone();
        currentSource.extraRowsEnd = extraRowCounts();
        currentSource = null;
    }

    private void countDerivedSkips() {
        derivedSkips.forEach(e -> skipped(e.reason(), e.detail(), e.where(), e.count()));
        derivedSkips.clear();
    }

    /** The sources read so far, in order. */
    public List<Source> sources() {
        return java.util.Collections.unmodifiableList(sources);
    }

    /**
     * The last row id per extra table (declared by {@link #defineTable}; -1 when empty), after handing all
     * gathered rows to DuckDB. Row ids, not counts: rows appended inside the import's transaction are numbered
     * apart from committed ones until the commit, in the order they came.
     */
    private Map<String, Long> extraRowCounts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        List<String> readerTables = tables.values().stream().filter(t -> !CoreTables.ALL.contains(t))
                .map(TableSpec::name).toList();
        if (readerTables.isEmpty()) {
            return counts;
        }
        flushRows();
        try (Statement st = connection.createStatement()) {
            for (String t : readerTables) {
                try (ResultSet rs = st.executeQuery("SELECT coalesce(max(rowid), -1) FROM " + t)) {
                    rs.next();
                    counts.put(t, rs.getLong(1));
                }
            }
        } catch (SQLException e) {
            throw new StoreException("cannot count rows of extra tables", e);
        }
        return counts;
    }

    /** The writer's connection, for {@link ClockAlignment}, which queries and updates rows before the commit. */
    DuckDBConnection connection() {
        return connection;
    }

    /**
     * One input trace of the store: its id ranges per entity (ids handed out while it was read), its rows of
     * extra tables (by row number), its {@code trace_info} keys and skips, and the clock adjustment chosen for it.
     */
    public static final class Source {
        final int id;
        final String path;
        final String format;
        final long[] firstIds; // last id before the source, per entity
        long[] lastIds;
        final Map<String, Long> extraRowsStart;
        Map<String, Long> extraRowsEnd = Map.of();
        final Map<String, String> facts = new LinkedHashMap<>();
        final SkipTally skips = new SkipTally();
        ClockAlignment.Adjustment adjustment;

        Source(int id, String path, String format, long[] firstIds, Map<String, Long> extraRowsStart) {
            this.id = id;
            this.path = path;
            this.format = format;
            this.firstIds = firstIds;
            this.lastIds = firstIds;
            this.extraRowsStart = extraRowsStart;
        }

        public int id() {
            return id;
        }

        public String path() {
            return path;
        }

        public String format() {
            return format;
        }

        /** The {@code trace_info} keys its reader gave (first value of each). */
        public Map<String, String> facts() {
            return java.util.Collections.unmodifiableMap(facts);
        }

        /** Its skipped items by reason and detail, with their first locations. */
        public List<SkipTally.Entry> skips() {
            return skips.entries();
        }

        /** The clock adjustment chosen for it, or null before {@link ClockAlignment#align}. */
        public ClockAlignment.Adjustment adjustment() {
            return adjustment;
        }

        /** Ids of {@code e} it holds: {@code (first, last]} as {first, last}. */
        long[] idRange(Entity e) {
            return new long[] {firstIds[e.ordinal()], lastIds[e.ordinal()]};
        }
    }

    /** Hands every row gathered so far to DuckDB; the writer thread calls this before another thread commits. */
    public void flushRows() {
        for (ColumnBatch b : batches.values()) {
            flush(b);
        }
    }

    /** Total of the items reported with a reason of severity damaged input (they make an import end with 3). */
    public long damagedTotal() {
        return skips.total(SkipReason.Severity.DAMAGED_INPUT);
    }

    /** Total of everything reported through {@link #skipped}. */
    public long skippedTotal() {
        return skips.total();
    }

    /** What was skipped, per (reason, detail) with the first location, in the order they first came. */
    public List<SkipTally.Entry> skips() {
        return skips.entries();
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
            flushRows();
            phase("rows written");
            countDerivedSkips();
            if (DEBUG) {
                insertNanos.forEach((t, n) -> System.err.printf("hetscope:   insert %s %.2f s%n", t, n / 1e9));
            }
            boolean nest = !nestLater.isEmpty();
            if (nest) {
                SliceNesting.compute(connection, loader, nestLater);
                phase("slice nesting (" + nestLater.size() + " tracks)");
            }
            sortSlices(nest);
            phase("slices sorted");
            try (PreparedStatement ps = connection.prepareStatement(insertInfo())) {
                for (String[] kv : info) {
                    ps.setString(1, kv[0]);
                    ps.setString(2, kv[1]);
                    ps.addBatch();
                }
                ps.setString(1, "schema_version");
                ps.setString(2, Integer.toString(Schema.VERSION));
                ps.addBatch();
                ps.setString(1, BatchLoader.INFO_KEY);
                ps.setString(2, loader.name());
                ps.addBatch();
                ps.executeBatch();
            }
            try (PreparedStatement ps = connection.prepareStatement(
                    "INSERT INTO skipped (" + CoreTables.SKIPPED.columnList() + ") VALUES (?, ?, ?, ?, ?)")) {
                for (SkipTally.Entry e : skips.entries()) {
                    ps.setString(1, e.reason().id());
                    ps.setString(2, e.reason().severity().id());
                    ps.setString(3, e.detail());
                    ps.setString(4, e.where());
                    ps.setLong(5, e.count());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            writeSources();
            // Written last: a store without this row is not complete.
            try (Statement st = connection.createStatement()) {
                try (PreparedStatement ps = connection.prepareStatement(insertInfo())) {
                    ps.setString(1, COMPLETE_KEY);
                    ps.setString(2, "true");
                    ps.execute();
                }
                connection.commit();
                connection.setAutoCommit(true);
                if (memory) {
                    committed = true;
                    finished = true;
                    return;
                }
                st.execute("CHECKPOINT");
            }
            phase("checkpoint");
            connection.close();
        } catch (SQLException | RuntimeException e) {
            abort();
            throw new IOException("cannot finish store " + target + ": " + e.getMessage(), e);
        }
        finished = true;
        try {
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            deletePartial();
            throw e;
        } finally {
            lock.release();
        }
    }

    private void writeSources() throws SQLException {
        endSource();
        try (PreparedStatement ps = connection.prepareStatement(
                "INSERT INTO source (" + CoreTables.SOURCE.columnList() + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
             PreparedStatement sk = connection.prepareStatement("INSERT INTO source_skipped ("
                     + CoreTables.SOURCE_SKIPPED.columnList() + ") VALUES (?, ?, ?, ?, ?, ?)")) {
            for (Source src : sources) {
                ClockAlignment.Adjustment a = src.adjustment != null ? src.adjustment
                        : ClockAlignment.Adjustment.reference(src);
                ps.setLong(1, src.id);
                ps.setString(2, src.path);
                ps.setString(3, src.format);
                ps.setString(4, a.domain());
                ps.setObject(5, a.originNs());
                ps.setLong(6, a.offsetNs());
                ps.setDouble(7, a.drift());
                ps.setObject(8, a.driftFromNs());
                ps.setString(9, a.method());
                ps.setObject(10, a.residualNs());
                ps.setObject(11, a.matches());
                ps.setString(12, a.detail());
                ps.addBatch();
                for (SkipTally.Entry e : src.skips.entries()) {
                    sk.setLong(1, src.id);
                    sk.setString(2, e.reason().id());
                    sk.setString(3, e.reason().severity().id());
                    sk.setString(4, e.detail());
                    sk.setString(5, e.where());
                    sk.setLong(6, e.count());
                    sk.addBatch();
                }
            }
            ps.executeBatch();
            sk.executeBatch();
        }
    }

    private static String insertInfo() {
        return "INSERT INTO trace_info (" + CoreTables.TRACE_INFO.key.name() + ", " + CoreTables.TRACE_INFO.value.name()
                + ") VALUES (?, ?)";
    }

    private static final boolean DEBUG = Boolean.getBoolean("hetscope.debug");
    private long phaseStart = System.nanoTime();

    /** With {@code -Dhetscope.debug=true}: the CPU time the calling thread (the reader, the writer) has used. */
    static void debugThreadCpu(String thread) {
        if (DEBUG) {
            System.err.printf("hetscope: %s thread used %.2f s CPU%n", thread,
                    java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1e9);
        }
    }

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
                        + " coalesce(n.depth, s.depth) AS depth,"
                        // a track left to the commit may have had rows nested here before it went out of order
                        + " CASE WHEN n.id IS NULL THEN s.parent_id ELSE n.parent_id END AS parent_id,"
                        + " s.correlation_id, s.args FROM slice s LEFT JOIN slice_nesting n ON n.id = s.id"
                : "SELECT * FROM slice s";
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE slice_sorted AS " + select + " ORDER BY s.track_id, s.ts, s.id");
            st.execute("DROP TABLE slice");
            st.execute("ALTER TABLE slice_sorted RENAME TO slice");
            if (withNesting) {
                st.execute("DROP TABLE slice_nesting");
                st.execute("DROP TABLE slice_nesting_track");
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
            connection.close();
        } catch (SQLException ignored) {
            // closing a broken connection; the file goes away below
        }
        deletePartial();
        if (lock != null) {
            lock.release();
        }
    }

    private void deletePartial() {
        if (partial == null) {
            return;
        }
        try {
            Files.deleteIfExists(partial);
            Files.deleteIfExists(partial.resolveSibling(partial.getFileName() + ".wal"));
        } catch (IOException ignored) {
            // nothing better to do: the name ends in .partial and lacks the completion mark
        }
    }

    @Override
    public void close() {
        if (committed) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // an in-memory database: nothing is left behind
            }
            return;
        }
        abort();
    }
}
