package org.hetscope.formats.nsys;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hetscope.formats.sqlite.RowSource;
import org.hetscope.formats.sqlite.TableByTable;
import org.hetscope.formats.sqlite.SqliteSchema;
import org.hetscope.formats.sqlite.TableCursor;
import org.hetscope.formats.sqlite.TableRows;
import org.hetscope.model.SkipTally;
import org.hetscope.model.FlowLinker;
import org.hetscope.model.SkipReason;
import org.hetscope.model.Category;
import org.hetscope.model.Device;
import org.hetscope.model.DeviceKind;
import org.hetscope.model.Dim3;
import org.hetscope.model.Entity;
import org.hetscope.model.FlowRule;
import org.hetscope.model.Instant;
import org.hetscope.model.JsonText;
import org.hetscope.model.KernelLaunch;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceFormatException;
import org.hetscope.model.TraceProcess;
import org.hetscope.model.TraceSink;
import org.hetscope.model.TraceThread;
import org.hetscope.model.TrackTree;
import org.hetscope.model.TrackKind;
import org.hetscope.model.Transfer;
import org.hetscope.model.TransferKind;

/**
 * Decodes one Nsight Systems SQLite export. Every optional table and column is looked up in the export's own
 * schema first; absent ones are skipped, not errors. API calls and GPU activities that share a correlation id
 * (per process) are linked with {@link FlowRule#CORRELATION} flows. The big activity tables are read through
 * {@link RowSource} (the file scanner where it can, sqlite-jdbc otherwise); the small lookups through JDBC.
 */
final class NsysReader {
    static final String KERNEL = "CUPTI_ACTIVITY_KIND_KERNEL";
    static final String RUNTIME = "CUPTI_ACTIVITY_KIND_RUNTIME";
    static final String DRIVER = "CUPTI_ACTIVITY_KIND_DRIVER";
    static final String MEMCPY = "CUPTI_ACTIVITY_KIND_MEMCPY";
    static final String MEMSET = "CUPTI_ACTIVITY_KIND_MEMSET";
    static final String SYNC = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
    static final String NVTX = "NVTX_EVENTS";
    /** CUDA's "no stream" value, used by context-wide synchronisation records. */
    private static final long NO_STREAM = 4294967295L;
    private static final long MISSING = Long.MIN_VALUE;

    private final Path file;
    private final Connection db;
    private final RowSource rows;
    private final TraceSink sink;
    private final Progress progress;
    private SqliteSchema schema;
    private final Map<Long, String> strings = new HashMap<>();
    private final Map<Long, String> processNames = new HashMap<>();
    private final Map<Long, String> threadNames = new HashMap<>();
    /** Processes (by globalPid's pid bits) -> threads (by globalTid) -> API families; devices -> streams. */
    private final TrackTree tracks;
    private final Map<Long, String> memcpyKinds = new HashMap<>();
    private final Map<Long, String> memKinds = new HashMap<>();
    private final Map<Long, String> syncTypes = new HashMap<>();
    private FlowLinker flows;
    /**
     * Rows counted as damaged input, by table and reason: how many and where the first was. A row whose times are not
     * integers, or that ends before it starts, is skipped (a default would put it at 0 or at Long.MAX_VALUE); a row
     * naming a string id that StringIds lacks is kept with its placeholder name. Reported when the read ends.
     */
    private final SkipTally damagedRows = new SkipTally();
    private long rowsDone;
    /** Rows read from any table so far, lookups included (what a table cut short by damage kept). */
    private long tableRows;
    private long rowsTotal;

    NsysReader(Path file, Connection db, RowSource rows, TraceSink sink, Progress progress) {
        this.file = file;
        this.db = db;
        this.rows = rows;
        this.sink = sink;
        this.tracks = new TrackTree(sink);
        this.progress = progress;
    }

    static boolean isNsysExport(SqliteSchema schema) {
        if (!schema.has("StringIds")) {
            return false;
        }
        for (String t : schema.tables()) {
            if (t.startsWith("CUPTI_ACTIVITY_KIND_") || t.equals(NVTX) || t.equals("TARGET_INFO_GPU")
                    || t.equals("META_DATA_EXPORT")) {
                return true;
            }
        }
        return false;
    }

    void read() throws SQLException, IOException, TraceFormatException {
        try {
            schema = new SqliteSchema(db);
        } catch (SQLException e) {
            // SQLite refuses the whole file when any page of its schema is missing (a file cut short): read what the
            // file scanner can, table by table
            schema = rows.scannedSchema();
            if (schema == null) {
                if (rows.scannerRefusal() != null) {
                    throw rows.scannerRefusal();
                }
                throw e;
            }
        }
        // Everything is checked before the first record goes to the sink, so a wrong file imports nothing.
        if (!isNsysExport(schema) && !rows.fileDamage().isEmpty()) {
            // cut short or damaged before the schema entries that would tell: say where, not "not an export"
            var first = rows.fileDamage().get(0);
            throw new TraceFormatException(file, first.page() > 0 ? "page " + first.page() : "SQLite file",
                    "the tables cannot be told apart from what is left of the schema: " + first.getMessage(), first);
        }
        if (!isNsysExport(schema)) {
            throw new TraceFormatException(file, "sqlite_master",
                    "not an Nsight Systems export: it has no StringIds table together with CUPTI_ACTIVITY_KIND_*, "
                            + "NVTX_EVENTS or TARGET_INFO_GPU tables");
        }
        for (String t : new String[] {KERNEL, MEMCPY, MEMSET, SYNC, RUNTIME, DRIVER}) {
            if (schema.has(t) && (!schema.has(t, "start") || !schema.has(t, "end"))) {
                throw new TraceFormatException(file, "table " + t, "has no start/end columns");
            }
        }
        rowsTotal = count(KERNEL) + count(MEMCPY) + count(MEMSET) + count(SYNC) + count(RUNTIME) + count(DRIVER)
                + count(NVTX);
        progress.start("nsys " + file.getFileName(), rowsTotal);
        for (var damage : rows.fileDamage()) {
            sink.skipped(SkipReason.DAMAGED_PAGE, "SQLite file: " + damage.reason(), damage.getMessage(), 1);
        }
        // a page of a table that cannot be read (beyond the end of a file cut short, or damaged) loses its rows only:
        // one count per page, the first page as where
        rows.skipDamagedPages((table, e) -> sink.skipped(SkipReason.DAMAGED_PAGE, table + " (rows lost unknown, "
                + "counted per page)", e.getMessage(), 1));
        sink.info("nsys.tables", String.valueOf(schema.tables().size()));
        // Each table is read on its own: a damaged page cuts that table short (what came before it is kept, the
        // rest is counted as damage) and the import goes on with the other tables.
        TableByTable tables = new TableByTable(file, sink, () -> tableRows, this::count);
        tables.read("StringIds", () -> loadKeyValue("StringIds", "id", "value", strings));
        tables.read("ThreadNames", () -> loadKeyValue("ThreadNames", "globalTid", "nameId", null));
        tables.read("PROCESSES", this::loadProcessNames);
        tables.read("ENUM_CUDA_MEMCPY_OPER", () -> loadEnum("ENUM_CUDA_MEMCPY_OPER", memcpyKinds));
        tables.read("ENUM_CUDA_MEM_KIND", () -> loadEnum("ENUM_CUDA_MEM_KIND", memKinds));
        tables.read("ENUM_CUPTI_SYNC_TYPE", () -> loadEnum("ENUM_CUPTI_SYNC_TYPE", syncTypes));
        tables.read("META_DATA_EXPORT", this::readMetadata);
        tables.read("TARGET_INFO_GPU", this::readDevices);
        flows = new FlowLinker(sink, false, (int) Math.min(1 << 26, count(RUNTIME) + count(DRIVER) + 16));
        tables.read(RUNTIME, () -> readApi(RUNTIME, "CUDA API", "cuda_runtime"));
        tables.read(DRIVER, () -> readApi(DRIVER, "CUDA driver", "cuda_driver"));
        tables.read(KERNEL, this::readKernels);
        tables.read(MEMCPY, this::readMemcpy);
        tables.read(MEMSET, this::readMemset);
        tables.read(SYNC, this::readSync);
        tables.read(NVTX, this::readNvtx);
        damagedRows.flushTo(sink);
        progress.advance(rowsTotal);
    }

    /** The values of a damaged row shown with the first one. */
    private interface Detail {
        String get() throws IOException;
    }

    /** Counts row {@code row} (1-based, in rowid order) of {@code table} as damaged; {@code detail} of the first. */
    private void damagedRow(String table, long row, String reason, Detail detail) throws IOException {
        String what = table + " row " + reason;
        damagedRows.add(SkipReason.DAMAGED_RECORD, what, damagedRows.count(SkipReason.DAMAGED_RECORD, what) > 0 ? null
                : file + " table " + table + ", row " + row + " (" + detail.get() + ")");
    }

    /**
     * Why {@code start} and {@code end}, read from columns 0 and 1 of the current row, are not a time span (integers,
     * end not before start), or null when they are. {@code endOptional}: a NULL end is fine (an instant).
     */
    private static String badSpan(TableRows rs, long start, long end, boolean endOptional) throws IOException {
        if (!rs.isInteger(0)) {
            return "skipped: start " + notAnInteger(rs, 0);
        }
        if (endOptional && rs.isNull(1)) {
            return null;
        }
        if (!rs.isInteger(1)) {
            return "skipped: end " + notAnInteger(rs, 1);
        }
        return end < start ? "skipped: end before start" : end - start < 0 ? "skipped: span beyond the ns range" : null;
    }

    private static String notAnInteger(TableRows rs, int column) throws IOException {
        return switch (rs.type(column)) {
            case TableCursor.NULL -> "is NULL";
            case TableCursor.FLOAT -> "is a real number, not an integer time (out of range?)";
            case TableCursor.TEXT -> "is text, not a number";
            default -> "is a blob, not a number";
        };
    }

    /** Start and end (columns 0 and 1) of a damaged row, for its message (text cut to 40 characters). */
    private static String span(TableRows rs) throws IOException {
        return "start = " + value(rs, 0) + ", end = " + value(rs, 1);
    }

    private static String value(TableRows rs, int column) throws IOException {
        return switch (rs.type(column)) {
            case TableCursor.NULL -> "NULL";
            case TableCursor.BLOB -> "a blob";
            case TableCursor.TEXT -> {
                String v = rs.getText(column);
                yield "'" + (v.length() > 40 ? v.substring(0, 40) + "..." : v) + "'";
            }
            default -> rs.getText(column);
        };
    }

    /** The string of id column {@code column}, or {@code placeholder} (and the row counted) when StringIds lacks it. */
    private String string(TableRows rs, int column, String placeholder, String table, long row, String what)
            throws IOException {
        if (rs.isNull(column)) {
            return placeholder;
        }
        long id = rs.getLong(column);
        String s = strings.get(id);
        if (s == null) {
            damagedRow(table, row, what + " id not in StringIds (deleted or damaged), kept as " + placeholder,
                    () -> what + " id " + id);
            return placeholder;
        }
        return s;
    }

    private long count(String table) {
        return rows.countForProgress(schema, table);
    }

    private void tick() {
        tableRows++;
        if ((++rowsDone & 0xFFFF) == 0) {
            progress.advance(rowsDone);
        }
    }

    // The lookups go through RowSource like the big tables: from the file scanner where it reads the table, so that
    // a file SQLite refuses as a whole (cut short) still gives its intact lookup tables.

    private void loadKeyValue(String table, String key, String value, Map<Long, String> into) throws IOException {
        if (!schema.has(table, key) || !schema.has(table, value)) {
            return;
        }
        try (TableRows rs = rows.rows(table, key, value)) {
            while (rs.next()) {
                tableRows++;
                // a NULL value (damaged, or written so) counts as absent: readers fall back to their "<unknown>" names
                if (into != null) {
                    String v = rs.getText(1);
                    if (v != null) {
                        into.put(rs.getLong(0), v);
                    }
                } else {
                    String name = strings.get(rs.getLong(1));
                    if (name != null) {
                        threadNames.put(rs.getLong(0), name);
                    }
                }
            }
        }
    }

    private void loadProcessNames() throws IOException {
        if (schema.has("PROCESSES", "globalPid") && schema.has("PROCESSES", "name")) {
            try (TableRows rs = rows.rows("PROCESSES", "globalPid", "name")) {
                while (rs.next()) {
                    tableRows++;
                    processNames.put(rs.getLong(0), rs.getText(1));
                }
            }
        }
    }

    private void loadEnum(String table, Map<Long, String> into) throws IOException {
        if (!schema.has(table, "id")) {
            return;
        }
        String label = schema.has(table, "label") ? "label" : schema.has(table, "name") ? "name" : null;
        if (label == null) {
            return;
        }
        try (TableRows rs = rows.rows(table, "id", label)) {
            while (rs.next()) {
                tableRows++;
                into.put(rs.getLong(0), rs.getText(1));
            }
        }
    }

    private void readMetadata() throws IOException {
        if (schema.has("META_DATA_EXPORT", "name") && schema.has("META_DATA_EXPORT", "value")) {
            try (TableRows rs = rows.rows("META_DATA_EXPORT", "name", "value")) {
                while (rs.next()) {
                    String name = rs.getText(0);
                    if (name != null && (name.startsWith("EXPORT_") || name.contains("VERSION"))) {
                        sink.info("nsys." + name, rs.getText(1));
                    }
                }
            }
        }
        if (schema.has("TARGET_INFO_SESSION_START_TIME", "utcEpochNs")) {
            try (TableRows rs = rows.rows("TARGET_INFO_SESSION_START_TIME", "utcEpochNs")) {
                if (rs.next() && !rs.isNull(0)) {
                    sink.info("nsys.session_start_utc_ns", Long.toString(rs.getLong(0)));
                }
            }
        }
        sink.info("clock", "nsys session timestamps (ns)");
    }

    // ---- devices, processes, threads and their tracks --------------------------------------------------------

    private void readDevices() throws IOException {
        String t = "TARGET_INFO_GPU";
        if (!schema.has(t, "id")) {
            return;
        }
        String[] props = {"busLocation", "chipName", "uuid", "l2CacheSize", "computeMajor", "computeMinor",
            "maxThreadsPerBlock", "maxWarpsPerSm", "maxShmemPerBlock", "asyncEngines", "cuDevice"};
        String[] columns = new String[7 + props.length];
        String[] common = {"id", "name", "smCount", "totalMemory", "threadsPerWarp", "memoryBandwidth", "clockRate"};
        System.arraycopy(common, 0, columns, 0, common.length);
        System.arraycopy(props, 0, columns, common.length, props.length);
        // rows in rowid order; several rows of one device (one per VM in multi-node exports) keep the first
        java.util.TreeMap<Long, Object[]> byOrdinal = new java.util.TreeMap<>();
        try (TableRows rs = rows.rows(t, columns)) {
            while (rs.next()) {
                long ordinal = rs.getLong(0);
                if (byOrdinal.containsKey(ordinal)) {
                    continue;
                }
                Map<String, String> properties = new LinkedHashMap<>();
                for (int i = 0; i < props.length; i++) {
                    String v = rs.getText(7 + i);
                    if (v != null) {
                        properties.put(props[i], v);
                    }
                }
                byOrdinal.put(ordinal, new Object[] {rs.getText(1), rs.longOrNull(2), rs.longOrNull(3),
                    rs.longOrNull(4), rs.longOrNull(5), rs.longOrNull(6), properties});
            }
        }
        // devices in ordinal order, so that their track and device ids follow the ordinals
        byOrdinal.forEach((ordinal, d) -> {
            Long sms = (Long) d[1];
            Long warp = (Long) d[3];
            Long bandwidth = (Long) d[4];
            Long clock = (Long) d[5];
            @SuppressWarnings("unchecked")
            Map<String, String> properties = (Map<String, String>) d[6];
            addDevice(ordinal, (String) d[0], sms == null ? null : sms.intValue(), (Long) d[2],
                    warp == null ? null : warp.intValue(), bandwidth == null ? null : bandwidth.doubleValue(),
                    clock == null ? null : clock / 1e6, properties);
        });
    }

    private TrackTree.Node addDevice(long ordinal, String name, Integer sms, Long memory, Integer warp,
                                     Double bandwidth, Double clockMhz, Map<String, String> properties) {
        return tracks.root(TrackKind.DEVICE, ordinal, n -> {
            long id = sink.newId(Entity.DEVICE);
            sink.device(new Device(id, DeviceKind.GPU, (int) ordinal, "NVIDIA", name, sms, memory, warp, null,
                    bandwidth, clockMhz, properties));
            n.name("GPU " + ordinal + (name == null ? "" : " " + name)).device(id).sortIndex((int) ordinal);
        });
    }

    private TrackTree.Node deviceNode(long ordinal) {
        TrackTree.Node d = tracks.find(null, TrackKind.DEVICE, ordinal);
        return d != null ? d : addDevice(ordinal, null, null, null, null, null, null, null);
    }

    private long device(long ordinal) {
        return deviceNode(ordinal).deviceId();
    }

    private long lastPid = Long.MAX_VALUE;
    private long lastDevice;
    private long lastStream;
    private long lastTrack;

    /** The stream track; consecutive rows usually share it, so the last one is kept at hand. */
    private long streamTrack(long globalPid, long deviceOrdinal, long stream) {
        if (globalPid == lastPid && deviceOrdinal == lastDevice && stream == lastStream) {
            return lastTrack;
        }
        lastPid = globalPid;
        lastDevice = deviceOrdinal;
        lastStream = stream;
        lastTrack = deviceNode(deviceOrdinal).child(TrackKind.STREAM, new StreamKey(globalPid, stream), n -> {
            boolean none = stream == NO_STREAM || stream == MISSING;
            n.name(none ? "Synchronization" : "Stream " + stream)
                    .process(globalPid == MISSING ? null : processNode(globalPid).processId())
                    .stream(none ? null : stream)
                    .sortIndex(none ? Integer.MAX_VALUE : (int) Math.min(Integer.MAX_VALUE - 1, stream));
        }).id();
        return lastTrack;
    }

    /** A stream of a device as one process sees it. */
    private record StreamKey(long globalPid, long stream) {
    }

    private TrackTree.Node processNode(long globalPid) {
        long key = globalPid & ~0xFFFFFFL;
        return tracks.root(TrackKind.PROCESS, key, n -> {
            long id = sink.newId(Entity.PROCESS);
            long pid = (key >>> 24) & 0xFFFFFFL;
            String name = processNames.get(key);
            sink.process(new TraceProcess(id, pid, name));
            n.name((name == null ? "Process" : name) + " [" + pid + "]").process(id).sortIndex((int) pid);
        });
    }

    private long apiTrack(long globalTid, String api) {
        TrackTree.Node thread = processNode(globalTid).child(TrackKind.THREAD, globalTid, n -> {
            long tid = globalTid & 0xFFFFFFL;
            long id = sink.newId(Entity.THREAD);
            String name = threadNames.get(globalTid);
            sink.thread(new TraceThread(id, tid, n.processId(), name));
            n.name((name == null ? "Thread" : name) + " [" + tid + "]").thread(id).sortIndex((int) tid);
        });
        // sorted in the order the reader first met each family, over all threads
        return thread.child(TrackKind.API, api, n -> n.name(api).sortIndex(tracks.count(TrackKind.API))).id();
    }

    /** The process of a globalTid or globalPid: correlation ids are per process (bits 24..47 hold the pid). */
    private static long processOf(long globalTidOrPid) {
        return (globalTidOrPid >>> 24) & 0xFFFFFFL;
    }

    // ---- API calls ------------------------------------------------------------------------------------------

    private void readApi(String table, String api, String sourceCategory) throws IOException {
        if (!schema.has(table)) {
            return;
        }
        ApiCalls calls = new ApiCalls(table, api, sourceCategory);
        // only the runtime has versioned entry points nested in the public ones; driver names such as cuMemAlloc_v2
        // are the real entry points
        RuntimeLayer layer = table.equals(RUNTIME) ? new RuntimeLayer(calls) : null;
        long row = 0;
        try (TableRows rs = rows.rows(table, "start", "end", "globalTid", "correlationId", "nameId",
                "returnValue")) {
            while (rs.next()) {
                tick();
                row++;
                long start = rs.getLong(0);
                long end = rs.getLong(1);
                String bad = badSpan(rs, start, end, false);
                if (bad != null) {
                    damagedRow(table, row, bad, () -> span(rs));
                    continue;
                }
                long gtid = rs.getLong(2);
                Long corr = rs.longOrNull(3);
                String name = string(rs, 4, "<unknown API>", table, row, "API name");
                Long ret = rs.longOrNull(5);
                if (layer != null) {
                    layer.call(gtid, start, end, corr, name, ret, row);
                } else {
                    calls.store(gtid, start, end, corr, name, ret);
                }
            }
        } finally {
            // also when a damaged page cuts the table short: the calls read before it are intact
            if (layer != null) {
                layer.finish();
            }
            calls.finish();
        }
    }

    /** Stores the calls of one API table as slices, indexed by correlation id for the flows. */
    private final class ApiCalls {
        final String table;
        final String api;
        final String sourceCategory;
        final JsonText args = new JsonText();
        long duplicates;

        ApiCalls(String table, String api, String sourceCategory) {
            this.table = table;
            this.api = api;
            this.sourceCategory = sourceCategory;
        }

        void store(long gtid, long start, long end, Long corr, String name, Long ret) {
            args.reset();
            if (ret != null && ret != 0) {
                args.put("returnValue", ret);
            }
            long id = sink.newId(Entity.SLICE);
            sink.slice(new Slice(id, apiTrack(gtid, api), start, Math.max(0, end - start), name,
                    apiCategory(name), sourceCategory, -1, corr, args.toStringOrNull()));
            if (corr != null && !flows.call(processOf(gtid), corr, id)) {
                duplicates++;
            }
        }

        void finish() {
            if (duplicates > 0) {
                sink.skipped(SkipReason.DUPLICATE_ID, "API call correlation id (no flow drawn from it)",
                        file + " table " + table, duplicates);
                duplicates = 0;
            }
        }
    }

    /**
     * Newer Nsight exports record a runtime call twice: the public entry ({@code cudaMemcpy}) and, nested in it on the
     * same thread with the same correlation id, the versioned entry point it calls ({@code cudaMemcpy_v3020}).
     * Storing both would double every API statistic, so each call is stored once, under its public name, with the
     * outer record's times; the inner record is counted as merged. A versioned record without a public wrapper is
     * stored under the public name. Rows of a thread come in time order, so the twin of a call is the next row of its
     * thread; a versioned record that comes first (same start, or an export in end order) waits for that next row.
     * One call per thread is held at a time.
     */
    private final class RuntimeLayer {
        private final ApiCalls calls;
        private final Map<Long, ThreadCalls> threads = new LinkedHashMap<>();
        /** Public name per name seen (the name itself when it has no version), as the same few names repeat. */
        private final Map<String, String> publicNames = new HashMap<>();
        private long lastGtid;
        private ThreadCalls lastThread;
        private long merged;
        private long firstMergedRow;

        RuntimeLayer(ApiCalls calls) {
            this.calls = calls;
        }

        /** What a thread of the table last stored and the versioned record waiting for its next row. */
        private static final class ThreadCalls {
            boolean hasLast;
            long lastCorr;
            long lastStart;
            long lastEnd;
            boolean hasPending;
            long pendingStart;
            long pendingEnd;
            Long pendingCorr;
            String pendingName;
            Long pendingRet;
            long pendingRow;
        }

        void call(long gtid, long start, long end, Long corr, String name, Long ret, long row) {
            ThreadCalls t = lastThread != null && lastGtid == gtid ? lastThread
                    : threads.computeIfAbsent(gtid, k -> new ThreadCalls());
            lastGtid = gtid;
            lastThread = t;
            String known = publicNames.computeIfAbsent(name, n -> {
                String p = NsysReader.publicName(n);
                return p == null ? n : p;
            });
            String publicName = known.equals(name) ? null : known;
            if (t.hasPending) {
                t.hasPending = false;
                if (publicName == null && corr != null && corr.equals(t.pendingCorr) && start <= t.pendingStart
                        && t.pendingEnd <= end) {
                    merged(t.pendingRow);
                    storePublic(t, gtid, start, end, corr, name, ret);
                    return;
                }
                calls.store(gtid, t.pendingStart, t.pendingEnd, t.pendingCorr, t.pendingName, t.pendingRet);
            }
            if (publicName == null) {
                storePublic(t, gtid, start, end, corr, name, ret);
            } else if (t.hasLast && corr != null && corr == t.lastCorr && t.lastStart <= start && end <= t.lastEnd) {
                merged(row);
            } else {
                t.hasPending = true;
                t.pendingStart = start;
                t.pendingEnd = end;
                t.pendingCorr = corr;
                t.pendingName = publicName;
                t.pendingRet = ret;
                t.pendingRow = row;
            }
        }

        private void storePublic(ThreadCalls t, long gtid, long start, long end, Long corr, String name, Long ret) {
            calls.store(gtid, start, end, corr, name, ret);
            t.hasLast = corr != null;
            if (corr != null) {
                t.lastCorr = corr;
                t.lastStart = start;
                t.lastEnd = end;
            }
        }

        private void merged(long row) {
            if (merged++ == 0) {
                firstMergedRow = row;
            }
        }

        /** Stores the versioned records still waiting (no public call came) and reports the merged count. */
        void finish() {
            threads.forEach((gtid, t) -> {
                if (t.hasPending) {
                    t.hasPending = false;
                    calls.store(gtid, t.pendingStart, t.pendingEnd, t.pendingCorr, t.pendingName, t.pendingRet);
                }
            });
            if (merged > 0) {
                sink.skipped(SkipReason.MERGED_RECORD, RUNTIME_MERGED,
                        file + " table " + RUNTIME + ", row " + firstMergedRow, merged);
                merged = 0;
            }
        }
    }

    /** The skip detail of a versioned runtime record merged into its public call (information, not damage). */
    static final String RUNTIME_MERGED = "CUDA runtime record of a versioned entry point (such as cudaMemcpy_v3020)";

    /**
     * {@code name} without its runtime version suffix ({@code cudaMemcpy_v3020} -> {@code cudaMemcpy}), or null when it
     * has none. The suffix is {@code _v} and the CUDA version it came with (1000 x major + 10 x minor, four or more
     * digits), so {@code cudaGetDeviceProperties_v2}, a public name, keeps its {@code _v2}.
     */
    static String publicName(String name) {
        int v = name.lastIndexOf("_v");
        if (v <= 0 || name.length() - v - 2 < 4) {
            return null;
        }
        for (int i = v + 2; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
        }
        return name.substring(0, v);
    }

    private static Category apiCategory(String name) {
        return name.contains("Synchronize") || name.startsWith("cudaStreamWait") || name.startsWith("cuStreamWait")
                ? Category.SYNC : Category.API;
    }

    private void link(long activityId, long globalPid, Long corr, String kind) {
        if (corr == null || corr == 0) {
            return;
        }
        flows.activity(processOf(globalPid), corr, activityId, kind);
    }

    // ---- GPU activities -------------------------------------------------------------------------------------

    /** Receives one row of a CUPTI activity table: the columns they all have, then the table's own from 6 on. */
    private interface ActivityRow {
        void accept(TableRows rs, long start, long end, long dev, long stream, Long corr, long gpid, long row)
                throws IOException;
    }

    /**
     * Reads every row of an activity table (kernel, memcpy, memset, sync): start, end, device, stream, correlation
     * and process as columns 0 to 5 (absent ones read as NULL; a NULL device as 0), then {@code extraColumns}.
     */
    private void forEachActivity(String t, ActivityRow row, String... extraColumns) throws IOException {
        String[] columns = new String[6 + extraColumns.length];
        String[] common = {"start", "end", "deviceId", "streamId", "correlationId", "globalPid"};
        System.arraycopy(common, 0, columns, 0, 6);
        System.arraycopy(extraColumns, 0, columns, 6, extraColumns.length);
        long n = 0;
        try (TableRows rs = rows.rows(t, columns)) {
            while (rs.next()) {
                tick();
                n++;
                long start = rs.getLong(0);
                long end = rs.getLong(1);
                String bad = badSpan(rs, start, end, false);
                if (bad != null) {
                    damagedRow(t, n, bad, () -> span(rs));
                    continue;
                }
                row.accept(rs, start, end, rs.getLong(2), rs.longOr(3, MISSING),
                        rs.longOrNull(4), rs.longOr(5, MISSING), n);
            }
        }
    }

    private void readKernels() throws IOException {
        String t = KERNEL;
        if (!schema.has(t)) {
            return;
        }
        String nameColumn = schema.has(t, "shortName") ? "shortName" : schema.has(t, "demangledName")
                ? "demangledName" : null;
        forEachActivity(t, (rs, start, end, dev, stream, corr, gpid, row) -> {
            String name = string(rs, 6, "<unknown kernel>", t, row, "kernel name");
            String demangled = rs.isNull(7) ? null : string(rs, 7, null, t, row, "kernel demangled name");
            long id = sink.newId(Entity.SLICE);
            // The full name is a dispatch attribute, stored once per launch in `kernel`, not in the slice's args:
            // args travel with every slice through the store's sort by (track, ts).
            sink.slice(new Slice(id, streamTrack(gpid, dev, stream), start, Math.max(0, end - start), name,
                    Category.KERNEL, "kernel", -1, corr, null));
            Long regs = rs.longOrNull(14);
            sink.kernel(new KernelLaunch(id, device(dev), stream == MISSING ? null : stream, corr,
                    dim(rs, 8), dim(rs, 11), regs == null ? null : regs.intValue(), rs.longOrNull(15),
                    rs.longOrNull(16), demangled == null || demangled.equals(name) ? null : demangled));
            link(id, gpid, corr, "launch");
        }, nameColumn, "demangledName", "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
                "registersPerThread", "staticSharedMemory", "dynamicSharedMemory");
    }

    private void readMemcpy() throws IOException {
        String t = MEMCPY;
        if (!schema.has(t)) {
            return;
        }
        JsonText args = new JsonText();
        forEachActivity(t, (rs, start, end, dev, stream, corr, gpid, row) -> {
            long bytes = rs.getLong(6);
            Long copyKind = rs.longOrNull(7);
            TransferKind kind = transferKind(copyKind);
            String label = copyKind == null ? "Unknown" : memcpyKinds.getOrDefault(copyKind, kind.label());
            Long srcKind = rs.longOrNull(8);
            Long dstKind = rs.longOrNull(9);
            args.reset().put("bytes", bytes).put("copyKind", label);
            if (srcKind != null) {
                args.put("srcKind", memKinds.getOrDefault(srcKind, memKindFallback(srcKind)));
            }
            if (dstKind != null) {
                args.put("dstKind", memKinds.getOrDefault(dstKind, memKindFallback(dstKind)));
            }
            long id = sink.newId(Entity.SLICE);
            sink.slice(new Slice(id, streamTrack(gpid, dev, stream), start, Math.max(0, end - start),
                    "[CUDA memcpy " + label + "]", Category.MEMCPY, "gpu_memcpy", -1, corr, args.toString()));
            Long srcDev = rs.longOrNull(10);
            Long dstDev = rs.longOrNull(11);
            long device = device(dev);
            Long src = srcDev != null ? Long.valueOf(device(srcDev))
                    : kind == TransferKind.DTOH || kind == TransferKind.DTOD ? Long.valueOf(device) : null;
            Long dst = dstDev != null ? Long.valueOf(device(dstDev))
                    : kind == TransferKind.HTOD || kind == TransferKind.DTOD ? Long.valueOf(device) : null;
            sink.transfer(new Transfer(sink.newId(Entity.TRANSFER), id, start, Math.max(0, end - start), bytes,
                    kind, src, dst, null, null, null, corr));
            link(id, gpid, corr, "launch");
        }, "bytes", "copyKind", "srcKind", "dstKind", "srcDeviceId", "dstDeviceId");
    }

    private void readMemset() throws IOException {
        String t = MEMSET;
        if (!schema.has(t)) {
            return;
        }
        JsonText args = new JsonText();
        forEachActivity(t, (rs, start, end, dev, stream, corr, gpid, row) -> {
            long bytes = rs.getLong(6);
            args.reset().put("bytes", bytes);
            Long value = rs.longOrNull(7);
            if (value != null) {
                args.put("value", value);
            }
            Long memKind = rs.longOrNull(8);
            if (memKind != null) {
                args.put("memKind", memKinds.getOrDefault(memKind, memKindFallback(memKind)));
            }
            long id = sink.newId(Entity.SLICE);
            sink.slice(new Slice(id, streamTrack(gpid, dev, stream), start, Math.max(0, end - start),
                    "[CUDA memset]", Category.MEMSET, "gpu_memset", -1, corr, args.toString()));
            long device = device(dev);
            sink.transfer(new Transfer(sink.newId(Entity.TRANSFER), id, start, Math.max(0, end - start), bytes,
                    TransferKind.MEMSET, null, device, null, null, null, corr));
            link(id, gpid, corr, "launch");
        }, "bytes", "value", "memKind");
    }

    private void readSync() throws IOException {
        String t = SYNC;
        if (!schema.has(t)) {
            return;
        }
        JsonText args = new JsonText();
        forEachActivity(t, (rs, start, end, dev, stream, corr, gpid, row) -> {
            Long type = rs.longOrNull(6);
            Long event = rs.longOrNull(7);
            String label = type == null ? "Synchronization" : syncTypes.getOrDefault(type, "sync type " + type);
            args.reset();
            if (stream != MISSING && stream != NO_STREAM) {
                args.put("stream", stream);
            }
            if (event != null && event != NO_STREAM) {
                args.put("eventId", event);
            }
            long id = sink.newId(Entity.SLICE);
            sink.slice(new Slice(id, streamTrack(gpid, dev, stream), start, Math.max(0, end - start), label,
                    Category.SYNC, "cuda_sync", -1, corr, args.toStringOrNull()));
            link(id, gpid, corr, "sync");
        }, "syncType", "eventId");
    }

    private void readNvtx() throws IOException {
        String t = NVTX;
        if (!schema.has(t, "start")) {
            return;
        }
        long ignored = 0;
        long row = 0;
        try (TableRows rs = rows.rows(t, "start", "end", "globalTid", "text", "textId", "eventType")) {
            while (rs.next()) {
                tick();
                row++;
                long start = rs.getLong(0);
                Long end = rs.longOrNull(1);
                String bad = badSpan(rs, start, end == null ? start : end, true);
                if (bad != null) {
                    damagedRow(t, row, bad, () -> span(rs));
                    continue;
                }
                long gtid = rs.longOr(2, 0);
                String text = rs.getText(3);
                if (text == null && !rs.isNull(4)) {
                    text = string(rs, 4, null, t, row, "NVTX text");
                }
                long type = rs.longOr(5, -1);
                // 34 = mark, 59 = push/pop range, 60 = start/end range; the rest are domain/category/thread names
                if (type == 34 || (end == null && (type == -1))) {
                    sink.instant(new Instant(sink.newId(Entity.INSTANT), apiTrack(gtid, "NVTX"), start,
                            text == null ? "mark" : text, Category.MARKER, "nvtx", null));
                } else if (end != null && (type == 59 || type == 60 || type == -1)) {
                    sink.slice(new Slice(sink.newId(Entity.SLICE), apiTrack(gtid, "NVTX"), start,
                            Math.max(0, end - start), text == null ? "range" : text, Category.ANNOTATION, "nvtx", -1,
                            null, null));
                } else {
                    ignored++;
                }
            }
        }
        if (ignored > 0) {
            sink.skipped(SkipReason.IGNORED_RECORD, "NVTX naming record (domain, category or thread name)",
                    file + " table " + t, ignored);
        }
    }

    // ---- value helpers --------------------------------------------------------------------------------------

    static TransferKind transferKind(Long copyKind) {
        if (copyKind == null) {
            return TransferKind.UNKNOWN;
        }
        // CUpti_ActivityMemcpyKind; arrays count as device memory
        return switch (copyKind.intValue()) {
            case 1, 3, 11 -> TransferKind.HTOD;
            case 2, 4, 12 -> TransferKind.DTOH;
            case 5, 6, 7, 8, 13 -> TransferKind.DTOD;
            case 9 -> TransferKind.HTOH;
            case 10 -> TransferKind.PTOP;
            default -> TransferKind.UNKNOWN;
        };
    }

    private static String memKindFallback(long kind) {
        return switch ((int) kind) {
            case 0 -> "Pageable";
            case 1 -> "Pinned";
            case 2 -> "Device";
            case 3 -> "Array";
            case 4 -> "Managed";
            default -> "kind " + kind;
        };
    }

    private static Dim3 dim(TableRows rs, int first) throws IOException {
        Long x = rs.longOrNull(first);
        Long y = rs.longOrNull(first + 1);
        Long z = rs.longOrNull(first + 2);
        if (x == null && y == null && z == null) {
            return null;
        }
        return new Dim3(x == null ? 1 : x, y == null ? 1 : y, z == null ? 1 : z);
    }

    private static Long longOrNull(ResultSet rs, int column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }
}
