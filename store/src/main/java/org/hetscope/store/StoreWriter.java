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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
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
    private final Path partial;
    private final DuckDBConnection connection;
    private final BatchLoader loader;
    /** Last id handed out per entity, by ordinal (a boxed map here cost ~4 % of a CTF import's samples). */
    private final long[] nextIds = new long[Entity.values().length];
    private final Map<String, List<ColumnBatch.Column>> columnsOf = new HashMap<>();
    private final Map<String, ColumnBatch> batches = new LinkedHashMap<>();
    private final SkipTally skips = new SkipTally();
    private final List<String[]> info = new ArrayList<>();
    /** How each track's slice nesting is found; see {@link TrackNesting}. */
    private final Map<Long, TrackNesting> nestingOf = new HashMap<>();
    // Readers emit long runs of slices on one track: skip the boxed map lookup while the track stays the same.
    private TrackNesting lastNesting;
    private long lastNestingTrack;
    /** Full kernel names stored so far, each once (see {@code kernel_name} in schema.sql). */
    private final Map<String, Long> kernelNameIds = new HashMap<>();
    /** With {@code -Dhetscope.debug=true}: time spent in DuckDB's inserts, per table. */
    private final Map<String, Long> insertNanos = new java.util.TreeMap<>();
    /** Tracks whose nesting is left to {@link SliceNesting} at commit. */
    private final java.util.Set<Long> nestLater = new java.util.LinkedHashSet<>();
    private boolean finished;
    /** Held from creation to commit or abort: one import at a time writes a given target. */
    private final OutputLock lock;
    private final List<Path> removedStale = new ArrayList<>();
    /** The traces read into this store, in order ({@link #beginSource}); empty for stores written otherwise. */
    private final List<Source> sources = new ArrayList<>();
    private Source currentSource;

    private StoreWriter(Path target) throws IOException {
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
            readColumns(null);
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
    private ColumnBatch startRow(String table) {
        ColumnBatch b = batches.get(table);
        if (b == null) {
            List<ColumnBatch.Column> columns = columnsOf.get(table);
            if (columns == null) {
                throw new IllegalArgumentException("no table " + table + " in the store");
            }
            b = new ColumnBatch(table, columns);
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

    private void readColumns(String onlyTable) throws SQLException {
        String sql = "SELECT table_name, column_name, data_type FROM information_schema.columns"
                + " WHERE table_schema = 'main'" + (onlyTable == null ? "" : " AND table_name = ?")
                + " ORDER BY table_name, ordinal_position";
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            if (onlyTable != null) {
                ps.setString(1, onlyTable);
            }
            try (ResultSet rs = ps.executeQuery()) {
                Map<String, List<ColumnBatch.Column>> found = new LinkedHashMap<>();
                while (rs.next()) {
                    found.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(
                            new ColumnBatch.Column(rs.getString(2), ColumnBatch.Type.ofSql(rs.getString(3)),
                            rs.getString(3)));
                }
                columnsOf.putAll(found);
            }
        }
    }

    @Override
    public long newId(Entity entity) {
        return ++nextIds[entity.ordinal()];
    }

    @Override
    public void process(TraceProcess p) {
        ColumnBatch a = startRow("process");
        a.append(p.id()).append(p.pid()).append(p.name()).endRow();
    }

    @Override
    public void thread(TraceThread t) {
        ColumnBatch a = startRow("thread");
        a.append(t.id()).append(t.tid()).append(t.processId()).append(t.name()).endRow();
    }

    @Override
    public void device(Device d) {
        ColumnBatch a = startRow("device");
        a.append(d.id()).append(d.kind().name()).append(d.ordinal()).append(d.vendor()).append(d.name())
                .append(d.computeUnits()).append(d.memoryBytes()).append(d.warpSize()).append(d.peakFlops())
                .append(d.peakBandwidth()).append(d.clockMhz());
        JsonText props = new JsonText();
        d.properties().forEach(props::put);
        a.append(props.toStringOrNull()).endRow();
    }

    @Override
    public void track(Track t) {
        ColumnBatch a = startRow("track");
        a.append(t.id()).append(t.parentId()).append(t.kind().label()).append(t.name()).append(t.processId())
                .append(t.threadId()).append(t.deviceId()).append(t.stream()).append(t.sortIndex())
                .append(t.unit()).endRow();
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
        ColumnBatch a = startRow("slice");
        a.append(s.id()).append(s.trackId()).append(s.ts()).append(s.dur()).append(s.name())
                .append(s.category().label()).append(s.sourceCategory()).append(depth).append(parent)
                .append(s.correlationId()).append(s.argsJson()).endRow();
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
        ColumnBatch a = startRow("instant");
        a.append(i.id()).append(i.trackId()).append(i.ts()).append(i.name()).append(i.category().label())
                .append(i.sourceCategory()).append(i.argsJson()).endRow();
    }

    @Override
    public void counter(CounterSample c) {
        startRow("counter").append(c.trackId()).append(c.ts()).append(c.value()).endRow();
    }

    @Override
    public void flow(Flow f) {
        ColumnBatch a = startRow("flow");
        a.append(f.id()).append(f.fromSliceId()).append(f.toSliceId()).append(f.kind()).append(f.correlationId())
                .append(FLOW_RULES[f.rule().ordinal()]).endRow();
    }

    private static final String[] FLOW_RULES = java.util.Arrays.stream(org.hetscope.model.FlowRule.values())
            .map(r -> r.name().toLowerCase(java.util.Locale.ROOT)).toArray(String[]::new);

    private static ColumnBatch dim(ColumnBatch a, Dim3 d) {
        return d == null ? a.appendNull().appendNull().appendNull() : a.append(d.x()).append(d.y()).append(d.z());
    }

    @Override
    public void kernel(KernelLaunch k) {
        Long nameId = k.fullName() == null ? null : kernelNameId(k.fullName());
        ColumnBatch a = startRow("kernel_dispatch");
        a.append(k.sliceId()).append(k.deviceId()).append(k.stream()).append(k.correlationId());
        dim(a, k.grid());
        dim(a, k.block());
        a.append(k.registersPerThread()).append(k.sharedMemoryStatic()).append(k.sharedMemoryDynamic())
                .append(nameId).endRow();
    }

    /** The id of a full kernel name in {@code kernel_name}, adding it on first sight. */
    private long kernelNameId(String name) {
        Long id = kernelNameIds.get(name);
        if (id == null) {
            id = (long) kernelNameIds.size() + 1;
            kernelNameIds.put(name, id);
            startRow("kernel_name").append(id).append(name).endRow();
        }
        return id;
    }

    @Override
    public void kernelCounter(KernelCounter c) {
        startRow("kernel_counter").append(c.sliceId()).append(c.name()).append(c.value()).endRow();
    }

    @Override
    public void transfer(Transfer t) {
        ColumnBatch a = startRow("transfer");
        a.append(t.id()).append(t.sliceId()).append(t.ts()).append(t.dur()).append(t.bytes()).append(t.kind().label())
                .append(t.srcDeviceId()).append(t.dstDeviceId()).append(t.srcNodeId()).append(t.dstNodeId())
                .append(t.blockId()).append(t.correlationId()).endRow();
    }

    @Override
    public void memoryNode(MemoryNode n) {
        ColumnBatch a = startRow("memory_node");
        a.append(n.id()).append(n.name()).append(n.deviceId()).append(n.kind()).endRow();
    }

    @Override
    public void memoryBlock(MemoryBlock b) {
        ColumnBatch a = startRow("memory_block");
        a.append(b.id()).append(b.handle()).append(b.name()).append(b.sizeBytes()).append(b.homeNodeId())
                .append(b.coordinates()).endRow();
    }

    @Override
    public void residency(Residency r) {
        ColumnBatch a = startRow("residency");
        a.append(r.blockId()).append(r.nodeId()).append(r.ts()).append(r.dur()).append(r.state()).endRow();
    }

    @Override
    public void task(Task t) {
        ColumnBatch a = startRow("task");
        a.append(t.id()).append(t.sliceId()).append(t.jobId()).append(t.name()).append(t.workerTrackId())
                .append(t.nodeId()).append(t.submitTs()).append(t.startTs()).append(t.endTs())
                .append(t.priority()).endRow();
    }

    @Override
    public void taskAccess(TaskAccess t) {
        ColumnBatch a = startRow("task_access");
        a.append(t.taskId()).append(t.blockId()).append(t.mode()).endRow();
    }

    @Override
    public void taskDependency(TaskDependency d) {
        startRow("task_dependency").append(d.fromTaskId()).append(d.toTaskId()).endRow();
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
            readColumns(table);
        } catch (SQLException e) {
            throw new StoreException("cannot create table " + table, e);
        }
    }

    @Override
    public void row(String table, Object... values) {
        if (!extraTables.containsKey(table)) {
            throw new IllegalArgumentException("table " + table + " was not declared");
        }
        ColumnBatch a = startRow(table);
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

    /** The readers' derivations ({@link TraceSink#derive}), run at commit in this order. */
    private final List<String> derivations = new ArrayList<>();

    @Override
    public void derive(String sql) {
        derivations.add(sql);
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
        currentSource.lastIds = nextIds.clone();
        currentSource.extraRowsEnd = extraRowCounts();
        currentSource = null;
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
        if (extraTables.isEmpty()) {
            return counts;
        }
        flushRows();
        try (Statement st = connection.createStatement()) {
            for (String t : extraTables.keySet()) {
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
            try (Statement st = connection.createStatement()) {
                for (String sql : derivations) {
                    st.execute(sql);
                }
            }
            if (!derivations.isEmpty()) {
                phase("derived rows (" + derivations.size() + " statements)");
            }
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
            try (PreparedStatement ps = connection.prepareStatement("INSERT INTO trace_info VALUES (?, ?)")) {
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
                    "INSERT INTO skipped(reason, severity, detail, location, count) VALUES (?, ?, ?, ?, ?)")) {
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
                "INSERT INTO source VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
             PreparedStatement sk = connection.prepareStatement("INSERT INTO source_skipped(source_id, reason, severity, detail, location, count) VALUES (?, ?, ?, ?, ?, ?)")) {
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
        lock.release();
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
