package org.hetscope.formats.rocpd;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hetscope.formats.sqlite.SqliteSchema;
import org.hetscope.formats.sqlite.TableByTable;
import org.hetscope.model.FlowLinker;
import org.hetscope.model.SkipReason;
import org.hetscope.model.Category;
import org.hetscope.model.CounterSample;
import org.hetscope.model.Device;
import org.hetscope.model.DeviceKind;
import org.hetscope.model.Dim3;
import org.hetscope.model.Entity;
import org.hetscope.model.FlowRule;
import org.hetscope.model.JsonText;
import org.hetscope.model.KernelCounter;
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
 * Decodes one rocprofiler-sdk rocpd database (schema version 3): agents, processes, threads, queues and streams,
 * API regions, kernel dispatches, memory copies, per-dispatch counters and counter samples. Activities and API
 * regions share a correlation id through {@code rocpd_event}; those pairs become {@link FlowRule#CORRELATION}
 * flows. The older RPD layout (rocmProfileData) is {@link RpdReader}'s.
 */
final class RocpdReader {
    private static final Pattern JSON_NUMBER = Pattern.compile("\"(\\w+)\"\\s*:\\s*(-?[0-9.eE+]+)");

    private final Path file;
    private final Connection db;
    private final TraceSink sink;
    private final Progress progress;
    private SqliteSchema schema;
    private final Map<Long, String> strings = new HashMap<>();
    private final Map<Long, long[]> events = new HashMap<>(); // event id -> {correlation id or MIN, category id}
    private final Map<Long, String> categories = new HashMap<>();
    /** Processes by rocpd process row -> threads by thread row -> API families; GPU agents by row -> queues. */
    private final TrackTree tracks;
    private final Map<Long, long[]> threads = new HashMap<>(); // rocpd thread row -> {tid, process row}
    private final Map<Long, TrackTree.Node> threadTracks = new HashMap<>(); // rocpd thread row
    private final Map<Long, Long> deviceIds = new LinkedHashMap<>(); // agent row -> model id
    private final Map<Long, Boolean> agentIsGpu = new HashMap<>();
    private final Map<Long, String> kernelNames = new HashMap<>();
    private final Map<Long, String> pmcNames = new HashMap<>();
    /** Correlation ids are per process (rocprofv3 counts them in each). */
    private final FlowLinker flows;
    private final Map<Long, Long> kernelByEvent = new HashMap<>();

    RocpdReader(Path file, Connection db, TraceSink sink, Progress progress) {
        this.file = file;
        this.db = db;
        this.sink = sink;
        this.progress = progress;
        this.flows = new FlowLinker(sink, false, 0);
        this.tracks = new TrackTree(sink);
    }

    /** The view or table for a logical rocpd name: the name itself, else the first {@code name_<uuid>} table. */
    static String resolve(SqliteSchema schema, String logical) {
        if (schema.has(logical)) {
            return logical;
        }
        for (String t : schema.tables()) {
            if (t.startsWith(logical + "_") && !t.substring(logical.length() + 1).contains("info")
                    && Character.isLetterOrDigit(t.charAt(t.length() - 1)) && looksLikeUuidSuffix(t, logical)) {
                return t;
            }
        }
        return null;
    }

    private static boolean looksLikeUuidSuffix(String table, String logical) {
        String suffix = table.substring(logical.length() + 1);
        return suffix.chars().allMatch(ch -> Character.isLetterOrDigit(ch) || ch == '_');
    }

    static boolean isRocpd(SqliteSchema schema) {
        return resolve(schema, "rocpd_string") != null && (resolve(schema, "rocpd_kernel_dispatch") != null
                || resolve(schema, "rocpd_region") != null || resolve(schema, "rocpd_memory_copy") != null);
    }

    void read() throws SQLException, IOException, TraceFormatException {
        schema = new SqliteSchema(db);
        if (!isRocpd(schema)) {
            throw new TraceFormatException(file, "sqlite_master", "not a rocpd database: no rocpd_string table "
                    + "together with rocpd_kernel_dispatch, rocpd_region or rocpd_memory_copy (rocprofv3), or with "
                    + "rocpd_op or rocpd_api (RPD)");
        }
        String dispatch = resolve(schema, "rocpd_kernel_dispatch");
        if (dispatch != null && (!schema.has(dispatch, "start") || !schema.has(dispatch, "end"))) {
            throw new TraceFormatException(file, "table " + dispatch, "kernel dispatches without start/end columns "
                    + "(rocpd schema older than version 3 is not supported)");
        }
        progress.start("rocpd " + file.getFileName(), -1);
        sink.info("clock", "rocprofiler timestamps (ns)");
        // Each table is read on its own: a damaged page cuts only that table short, the rest counted as damage.
        TableByTable tables = new TableByTable(file, sink, () -> 0, table -> -1);
        tables.read("rocpd_string", this::loadStrings);
        tables.read("rocpd_metadata", this::loadMetadata);
        tables.read("rocpd_event", this::loadEvents);
        tables.read("rocpd_info_process / rocpd_info_thread", this::loadProcessesAndThreads);
        tables.read("rocpd_info_agent", this::loadAgents);
        tables.read("rocpd_info_kernel_symbol", this::loadKernelSymbols);
        tables.read("rocpd_info_pmc", this::loadPmcNames);
        tables.read("rocpd_region", this::readRegions);
        tables.read("rocpd_kernel_dispatch", this::readDispatches);
        tables.read("rocpd_memory_copy", this::readCopies);
        tables.read("rocpd_pmc_event", this::readPmcEvents);
        tables.read("rocpd_sample", this::readSamples);
    }

    private String table(String logical) {
        return resolve(schema, logical);
    }

    private String col(String table, String column) {
        return schema.column(table, column, "NULL");
    }

    private ResultSet query(Statement st, String sql) throws SQLException {
        return st.executeQuery(sql);
    }

    private void loadStrings() throws SQLException {
        loadNames(table("rocpd_string"), "string", strings);
    }

    /** Reads {@code id -> column} of {@code table} into {@code into}. */
    private void loadNames(String table, String column, Map<Long, String> into) throws SQLException {
        try (Statement st = db.createStatement(); ResultSet rs = query(st, "SELECT id, " + column + " FROM " + table)) {
            while (rs.next()) {
                String v = rs.getString(2);
                if (v != null) { // a NULL name (damaged) counts as absent: lookups fall back to their defaults
                    into.put(rs.getLong(1), v);
                }
            }
        }
    }

    private void loadMetadata() throws SQLException {
        String t = table("rocpd_metadata");
        if (t == null || !schema.has(t, "tag")) {
            return;
        }
        try (Statement st = db.createStatement(); ResultSet rs = query(st, "SELECT tag, value FROM " + t)) {
            while (rs.next()) {
                sink.info("rocpd." + rs.getString(1), rs.getString(2));
            }
        }
    }

    private void loadEvents() throws SQLException {
        String c = table("rocpd_info_category");
        if (c != null) {
            loadNames(c, "name", categories);
        }
        String t = table("rocpd_event");
        if (t == null) {
            return;
        }
        try (Statement st = db.createStatement(); ResultSet rs = query(st, "SELECT id, "
                + col(t, "correlation_id") + ", " + col(t, "category_id") + " FROM " + t)) {
            while (rs.next()) {
                long corr = rs.getLong(2);
                if (rs.wasNull()) {
                    corr = Long.MIN_VALUE;
                }
                long cat = rs.getLong(3);
                events.put(rs.getLong(1), new long[] {corr, rs.wasNull() ? Long.MIN_VALUE : cat});
            }
        }
    }

    private Long correlation(ResultSet rs, int column) throws SQLException {
        long event = rs.getLong(column);
        if (rs.wasNull()) {
            return null;
        }
        long[] e = events.get(event);
        return e == null || e[0] == Long.MIN_VALUE || e[0] == 0 ? null : e[0];
    }

    private String category(ResultSet rs, int column) throws SQLException {
        long event = rs.getLong(column);
        if (rs.wasNull()) {
            return null;
        }
        long[] e = events.get(event);
        return e == null ? null : categories.get(e[1]);
    }

    private void loadProcessesAndThreads() throws SQLException {
        String p = table("rocpd_info_process");
        if (p != null) {
            try (Statement st = db.createStatement(); ResultSet rs = query(st, "SELECT id, pid, "
                    + col(p, "command") + " FROM " + p)) {
                while (rs.next()) {
                    process(rs.getLong(1), rs.getLong(2), rs.getString(3));
                }
            }
        }
        String t = table("rocpd_info_thread");
        if (t != null) {
            try (Statement st = db.createStatement(); ResultSet rs = query(st, "SELECT id, tid, pid, "
                    + col(t, "name") + " FROM " + t)) {
                while (rs.next()) {
                    long row = rs.getLong(1);
                    long tid = rs.getLong(2);
                    long proc = rs.getLong(3);
                    threads.put(row, new long[] {tid, proc});
                    thread(row, tid, proc, rs.getString(4));
                }
            }
        }
    }

    private TrackTree.Node process(long row, long pid, String command) {
        return tracks.root(TrackKind.PROCESS, row, n -> {
            long id = sink.newId(Entity.PROCESS);
            String name = command == null ? null : command.split(" ")[0];
            sink.process(new TraceProcess(id, pid, name));
            n.name((name == null ? "Process" : name) + " [" + pid + "]").process(id).sortIndex((int) pid);
        });
    }

    /** The model id of a rocpd process row, or null when no process of that row was made. */
    private Long processId(long row) {
        TrackTree.Node p = tracks.find(null, TrackKind.PROCESS, row);
        return p == null ? null : p.processId();
    }

    private void thread(long row, long tid, long processRow, String name) {
        threadTracks.put(row, process(processRow, processRow, null).child(TrackKind.THREAD, row, n -> {
            long id = sink.newId(Entity.THREAD);
            sink.thread(new TraceThread(id, tid, n.processId(), name));
            n.name("Thread " + tid).thread(id).sortIndex((int) tid);
        }));
    }

    private void loadAgents() throws SQLException {
        String t = table("rocpd_info_agent");
        if (t == null) {
            return;
        }
        String sql = "SELECT id, " + String.join(", ", col(t, "type"), col(t, "type_index"), col(t, "name"),
                col(t, "product_name"), col(t, "vendor_name"), col(t, "model_name"), col(t, "extdata"),
                col(t, "logical_index")) + " FROM " + t + " ORDER BY id";
        try (Statement st = db.createStatement(); ResultSet rs = query(st, sql)) {
            while (rs.next()) {
                long row = rs.getLong(1);
                boolean gpu = "GPU".equalsIgnoreCase(rs.getString(2));
                int index = rs.getInt(3);
                String name = firstNonNull(rs.getString(5), rs.getString(4), rs.getString(7));
                Map<String, Double> ext = numbers(rs.getString(8));
                Map<String, String> props = new LinkedHashMap<>();
                if (rs.getString(7) != null) {
                    props.put("model_name", rs.getString(7));
                }
                ext.forEach((k, v) -> props.put(k, v == Math.rint(v) ? Long.toString(v.longValue()) : v.toString()));
                Double wave = ext.get("wave_front_size");
                Double cus = ext.get("cu_count");
                Double clock = ext.get("max_engine_clk_fcompute");
                long id = sink.newId(Entity.DEVICE);
                sink.device(new Device(id, gpu ? DeviceKind.GPU : DeviceKind.CPU, index, rs.getString(6), name,
                        cus == null ? null : cus.intValue(), null, wave == null ? null : wave.intValue(), null, null,
                        clock, props));
                deviceIds.put(row, id);
                agentIsGpu.put(row, gpu);
                if (gpu) {
                    tracks.root(TrackKind.DEVICE, row, n -> n.name("GPU " + index + (name == null ? "" : " " + name))
                            .device(id).sortIndex(index));
                }
            }
        }
    }

    private static String firstNonNull(String... s) {
        for (String x : s) {
            if (x != null && !x.isEmpty()) {
                return x;
            }
        }
        return null;
    }

    private static Map<String, Double> numbers(String json) {
        Map<String, Double> out = new LinkedHashMap<>();
        if (json == null) {
            return out;
        }
        Matcher m = JSON_NUMBER.matcher(json);
        while (m.find()) {
            try {
                out.put(m.group(1), Double.parseDouble(m.group(2)));
            } catch (NumberFormatException ignored) {
                // not a plain number; kept out of the numeric properties
            }
        }
        return out;
    }

    private void loadKernelSymbols() throws SQLException {
        String t = table("rocpd_info_kernel_symbol");
        if (t == null) {
            return;
        }
        try (Statement st = db.createStatement(); ResultSet rs = query(st, "SELECT id, "
                + col(t, "display_name") + ", " + col(t, "kernel_name") + " FROM " + t)) {
            while (rs.next()) {
                kernelNames.put(rs.getLong(1), firstNonNull(rs.getString(2), rs.getString(3)));
            }
        }
    }

    private void loadPmcNames() throws SQLException {
        String t = table("rocpd_info_pmc");
        if (t == null) {
            return;
        }
        loadNames(t, "name", pmcNames);
    }

    private long apiTrack(long threadRow, String api) {
        // sorted in the order the reader first met each family, over all threads
        return threadTracks.get(threadRow).child(TrackKind.API, api,
                n -> n.name(api).sortIndex(tracks.count(TrackKind.API))).id();
    }

    private long queueTrack(long agentRow, Long queue, Long stream, Long processRow) {
        Long known = deviceIds.get(agentRow);
        if (known == null) {
            long dev = sink.newId(Entity.DEVICE);
            sink.device(new Device(dev, DeviceKind.GPU, (int) agentRow, null, "agent " + agentRow, null, null,
                    null, null, null, null, null));
            deviceIds.put(agentRow, dev);
            agentIsGpu.put(agentRow, true);
            tracks.root(TrackKind.DEVICE, agentRow, n -> n.name("GPU agent " + agentRow).device(dev)
                    .sortIndex((int) agentRow));
        }
        long dev = deviceIds.get(agentRow);
        // a CPU agent has no track: its queues are roots
        TrackTree.Node agent = tracks.find(null, TrackKind.DEVICE, agentRow);
        return tracks.track(agent, TrackKind.QUEUE, agentRow + "/" + queue + "/" + stream, n -> n
                .name((queue != null ? "Queue " + queue : "Queue") + (stream != null && stream != 0
                        ? " / Stream " + stream : ""))
                .process(processRow == null ? null : processId(processRow)).device(dev)
                .stream(queue != null ? queue : stream).sortIndex(tracks.count(TrackKind.QUEUE))).id();
    }

    // ---- regions, dispatches, copies ------------------------------------------------------------------------

    private void readRegions() throws SQLException {
        String t = table("rocpd_region");
        if (t == null || !schema.has(t, "start")) {
            if (t != null) {
                sink.skipped(SkipReason.UNSUPPORTED_LAYOUT,
                        "rocpd_region without start/end columns (pre-v3 timestamp tables)",
                        file + " " + t, 1);
            }
            return;
        }
        String sql = "SELECT id, start, \"end\", " + String.join(", ", col(t, "pid"), col(t, "tid"),
                col(t, "name_id"), col(t, "event_id")) + " FROM " + t;
        try (Statement st = db.createStatement(); ResultSet rs = query(st, sql)) {
            while (rs.next()) {
                long start = rs.getLong(2);
                long end = rs.getLong(3);
                long procRow = rs.getLong(4);
                long threadRow = rs.getLong(5);
                String name = strings.getOrDefault(rs.getLong(6), "<unknown>");
                Long corr = correlation(rs, 7);
                String cat = category(rs, 7);
                String api = cat == null ? "API" : cat;
                Category category = api.contains("MARKER") ? Category.ANNOTATION
                        : name.contains("Synchronize") || name.contains("Wait") ? Category.SYNC : Category.API;
                if (!threads.containsKey(threadRow)) {
                    threads.put(threadRow, new long[] {threadRow, procRow});
                    thread(threadRow, threadRow, procRow, null);
                }
                long id = sink.newId(Entity.SLICE);
                sink.slice(new Slice(id, apiTrack(threadRow, api), start, Math.max(0, end - start), name, category,
                        cat, -1, corr, null));
                if (corr != null) {
                    flows.call(procRow, corr, id);
                }
            }
        }
    }

    private void link(long target, long processRow, Long corr) {
        if (corr != null) {
            flows.activity(processRow, corr, target, "launch");
        }
    }

    private void readDispatches() throws SQLException {
        String t = table("rocpd_kernel_dispatch");
        if (t == null) {
            return;
        }
        String sql = "SELECT id, start, \"end\", " + String.join(", ", col(t, "pid"), col(t, "agent_id"),
                col(t, "kernel_id"), col(t, "queue_id"), col(t, "stream_id"), col(t, "event_id"),
                col(t, "workgroup_size_x"), col(t, "workgroup_size_y"), col(t, "workgroup_size_z"),
                col(t, "grid_size_x"), col(t, "grid_size_y"), col(t, "grid_size_z"),
                col(t, "group_segment_size"), col(t, "private_segment_size"), col(t, "dispatch_id"),
                col(t, "region_name_id")) + " FROM " + t;
        JsonText args = new JsonText();
        try (Statement st = db.createStatement(); ResultSet rs = query(st, sql)) {
            while (rs.next()) {
                long start = rs.getLong(2);
                long end = rs.getLong(3);
                long procRow = rs.getLong(4);
                long agent = rs.getLong(5);
                String name = kernelNames.get(rs.getLong(6));
                if (name == null) {
                    name = strings.getOrDefault(rs.getLong(19), "kernel " + rs.getLong(6));
                }
                Long queue = longOrNull(rs, 7);
                Long stream = longOrNull(rs, 8);
                Long corr = correlation(rs, 9);
                long event = rs.getLong(9);
                boolean hasEvent = !rs.wasNull();
                args.reset();
                Long dispatchId = longOrNull(rs, 18);
                if (dispatchId != null) {
                    args.put("dispatch_id", dispatchId);
                }
                if (stream != null) {
                    args.put("stream", stream);
                }
                long id = sink.newId(Entity.SLICE);
                sink.slice(new Slice(id, queueTrack(agent, queue, stream, procRow), start, Math.max(0, end - start),
                        name, Category.KERNEL, "KERNEL_DISPATCH", -1, corr, args.toStringOrNull()));
                sink.kernel(new KernelLaunch(id, deviceIds.get(agent), queue, corr,
                        new Dim3(rs.getLong(13), rs.getLong(14), rs.getLong(15)),
                        new Dim3(rs.getLong(10), rs.getLong(11), rs.getLong(12)), null, longOrNull(rs, 16),
                        null));
                if (hasEvent) {
                    kernelByEvent.put(event, id);
                }
                link(id, procRow, corr);
            }
        }
    }

    private void readCopies() throws SQLException {
        String t = table("rocpd_memory_copy");
        if (t == null) {
            return;
        }
        String sql = "SELECT id, start, \"end\", " + String.join(", ", col(t, "pid"), col(t, "name_id"),
                col(t, "src_agent_id"), col(t, "dst_agent_id"), col(t, "size"), col(t, "queue_id"),
                col(t, "stream_id"), col(t, "event_id")) + " FROM " + t;
        try (Statement st = db.createStatement(); ResultSet rs = query(st, sql)) {
            while (rs.next()) {
                long start = rs.getLong(2);
                long end = rs.getLong(3);
                long procRow = rs.getLong(4);
                String name = strings.getOrDefault(rs.getLong(5), "MEMORY_COPY");
                Long src = longOrNull(rs, 6);
                Long dst = longOrNull(rs, 7);
                long bytes = rs.getLong(8);
                Long queue = longOrNull(rs, 9);
                Long stream = longOrNull(rs, 10);
                Long corr = correlation(rs, 11);
                TransferKind kind = kind(src, dst, name);
                long agent = dst != null && Boolean.TRUE.equals(agentIsGpu.get(dst)) ? dst
                        : src != null && Boolean.TRUE.equals(agentIsGpu.get(src)) ? src : (dst != null ? dst : 0);
                long id = sink.newId(Entity.SLICE);
                sink.slice(new Slice(id, queueTrack(agent, queue, stream, procRow), start, Math.max(0, end - start),
                        name, Category.MEMCPY, "MEMORY_COPY", -1, corr,
                        new JsonText().put("bytes", bytes).toString()));
                sink.transfer(new Transfer(sink.newId(Entity.TRANSFER), id, start, Math.max(0, end - start), bytes,
                        kind, src == null ? null : deviceIds.get(src), dst == null ? null : deviceIds.get(dst), null,
                        null, null, corr));
                link(id, procRow, corr);
            }
        }
    }

    private TransferKind kind(Long src, Long dst, String name) {
        if (src != null && dst != null && agentIsGpu.containsKey(src) && agentIsGpu.containsKey(dst)) {
            boolean s = agentIsGpu.get(src);
            boolean d = agentIsGpu.get(dst);
            if (s && d) {
                return src.equals(dst) ? TransferKind.DTOD : TransferKind.PTOP;
            }
            return s ? TransferKind.DTOH : d ? TransferKind.HTOD : TransferKind.HTOH;
        }
        String n = name.toUpperCase(java.util.Locale.ROOT);
        return n.contains("HOST_TO_DEVICE") ? TransferKind.HTOD : n.contains("DEVICE_TO_HOST") ? TransferKind.DTOH
                : n.contains("DEVICE_TO_DEVICE") ? TransferKind.DTOD : n.contains("HOST_TO_HOST") ? TransferKind.HTOH
                : TransferKind.UNKNOWN;
    }

    private void readPmcEvents() throws SQLException {
        String t = table("rocpd_pmc_event");
        if (t == null) {
            return;
        }
        long unplaced = 0;
        long placed = 0;
        try (Statement st = db.createStatement(); ResultSet rs = query(st, "SELECT event_id, pmc_id, value FROM "
                + t)) {
            while (rs.next()) {
                Long kernel = kernelByEvent.get(rs.getLong(1));
                String name = pmcNames.getOrDefault(rs.getLong(2), "pmc " + rs.getLong(2));
                if (kernel == null) {
                    unplaced++;
                    continue;
                }
                sink.kernelCounter(new KernelCounter(kernel, name, rs.getDouble(3)));
                placed++;
            }
        }
        if (placed > 0) {
            sink.info("serialized_by_profiler", "true");
        }
        if (unplaced > 0) {
            sink.skipped(SkipReason.UNKNOWN_REFERENCE,
                    "rocpd_pmc_event not attached to a kernel dispatch (kept only if sampled)",
                    file + " " + t,
                    unplaced);
        }
    }

    private void readSamples() throws SQLException {
        String t = table("rocpd_sample");
        String pmc = table("rocpd_pmc_event");
        String trackTable = table("rocpd_track");
        if (t == null || pmc == null || !schema.has(t, "timestamp")) {
            return;
        }
        String trackName = trackTable != null && schema.has(trackTable, "name_id")
                ? "(SELECT name_id FROM " + trackTable + " k WHERE k.id = s.track_id)" : "NULL";
        String trackAgent = trackTable != null && schema.has(trackTable, "agent_id")
                ? "(SELECT agent_id FROM " + trackTable + " k WHERE k.id = s.track_id)" : "NULL";
        String sql = "SELECT s.track_id, s.timestamp, p.pmc_id, p.value, " + trackName + ", " + trackAgent
                + " FROM " + t + " s JOIN " + pmc + " p ON p.event_id = s.event_id ORDER BY s.timestamp";
        try (Statement st = db.createStatement(); ResultSet rs = query(st, sql)) {
            while (rs.next()) {
                String counter = pmcNames.getOrDefault(rs.getLong(3), "pmc " + rs.getLong(3));
                Long nameId = longOrNull(rs, 5);
                String label = nameId != null && strings.containsKey(nameId) ? strings.get(nameId) : counter;
                Long agent = longOrNull(rs, 6);
                // under the agent's track (none for a CPU agent), after the GPUs, in the order first met
                TrackTree.Node parent = agent == null ? null : tracks.find(null, TrackKind.DEVICE, agent);
                long track = tracks.track(parent, TrackKind.COUNTER, rs.getLong(1) + "/" + counter, n -> n.name(label)
                        .device(agent == null ? null : deviceIds.get(agent))
                        .sortIndex(10_000 + tracks.count(TrackKind.COUNTER) + 1)).id();
                sink.counter(new CounterSample(track, rs.getLong(2), rs.getDouble(4)));
            }
        }
    }

    private static Long longOrNull(ResultSet rs, int column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }
}
