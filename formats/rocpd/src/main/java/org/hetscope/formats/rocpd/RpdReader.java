package org.hetscope.formats.rocpd;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.hetscope.formats.sqlite.RowSource;
import org.hetscope.formats.sqlite.SqliteSchema;
import org.hetscope.formats.sqlite.TableByTable;
import org.hetscope.formats.sqlite.TableRows;
import org.hetscope.model.FlowLinker;
import org.hetscope.model.SkipReason;
import org.hetscope.model.Category;
import org.hetscope.model.CounterSample;
import org.hetscope.model.Device;
import org.hetscope.model.DeviceKind;
import org.hetscope.model.Dim3;
import org.hetscope.model.Entity;
import org.hetscope.model.JsonText;
import org.hetscope.model.KernelLaunch;
import org.hetscope.model.LongLongMap;
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
 * Decodes one RPD database, the older rocpd layout written by ROCm's rocmProfileData tools (rpd_tracer, the
 * rocpd python importers): host calls in {@code rocpd_api}, GPU operations in {@code rocpd_op}, the call that
 * caused each operation in {@code rocpd_api_ops}, launch and copy arguments in {@code rocpd_kernelapi} and
 * {@code rocpd_copyapi} (older files: {@code rocpd_kernelop}/{@code rocpd_copyop} keyed by operation), clock
 * samples in {@code rocpd_monitor}. Times are integer nanoseconds. Only {@code rocpd_string} and {@code rocpd_op}
 * are required; every other table and every non-key column is read when present and skipped when not.
 */
final class RpdReader {
    private static final long NONE = Long.MIN_VALUE;

    private final Path file;
    private final RowSource rows;
    private final TraceSink sink;
    private final Progress progress;
    private SqliteSchema schema;
    private long rowsRead;

    private final Map<Long, String> strings = new HashMap<>();
    /** Call arguments; newer rpd_tracer builds keep them apart from the deduplicated names. */
    private Map<Long, String> argStrings = strings;
    private final Map<Long, KernelArgs> kernelByApi = new HashMap<>();
    private final Map<Long, KernelArgs> kernelByOp = new HashMap<>();
    private final Map<Long, CopyArgs> copyByApi = new HashMap<>();
    private final Map<Long, CopyArgs> copyByOp = new HashMap<>();
    private final Map<Long, Integer> vgprs = new HashMap<>();
    private final LongLongMap apiOfOp = new LongLongMap();
    private final LongLongMap apisWithOps = new LongLongMap();
    /** The correlation id is the rocpd_api row id, unique in the file: one process. */
    private final FlowLinker flows;
    /** Processes by pid -> threads by tid -> API families; GPUs by gpuId -> queues; monitor counters. */
    private final TrackTree tracks;
    private final JsonText json = new JsonText();

    /** Launch arguments of a kernel (grid as the tracer wrote it), from rocpd_kernelapi or rocpd_kernelop. */
    private record KernelArgs(String stream, Dim3 grid, Dim3 block, Long groupSegment, Long privateSegment,
                              Long codeObject, Long nameId) {}

    /** Arguments of a copy call, from rocpd_copyapi or rocpd_copyop; null where the table lacks the column. */
    private record CopyArgs(String stream, long size, long width, long height, Long kind, Long dstDevice,
                            Long srcDevice, Long sync, Long pinned) {
        /** Bytes moved: the size, else width x height of a 2-D copy; -1 when neither is known. */
        long bytes() {
            if (size > 0) {
                return size;
            }
            return width > 0 && height > 0 ? width * height : -1;
        }
    }

    RpdReader(Path file, RowSource rows, TraceSink sink, Progress progress) {
        this.file = file;
        this.rows = rows;
        this.sink = sink;
        this.progress = progress;
        this.tracks = new TrackTree(sink);
        this.flows = new FlowLinker(sink, false, 0);
    }

    /**
     * Whether the schema is the RPD layout: a rocpd_string table with rocpd_op or rocpd_api. rocprofv3 (schema v3)
     * databases have neither of those two, so the layouts never both match.
     */
    static boolean isRpd(SqliteSchema schema) {
        return schema.has("rocpd_string") && (schema.has("rocpd_op") || schema.has("rocpd_api"))
                && !RocpdReader.isRocpd(schema);
    }

    void read(SqliteSchema schema) throws IOException, SQLException, TraceFormatException {
        this.schema = schema;
        // Checked before anything reaches the sink, so a file that is not complete enough imports nothing.
        for (String[] need : new String[][] {{"rocpd_string", "id", "string"},
                {"rocpd_op", "id", "start", "end"}}) {
            if (!schema.has(need[0])) {
                throw new TraceFormatException(file, "sqlite_master", "RPD database without a " + need[0]
                        + " table (it has " + String.join(", ", schema.tables()) + ")");
            }
            for (int i = 1; i < need.length; i++) {
                if (!schema.has(need[0], need[i])) {
                    throw new TraceFormatException(file, "table " + need[0], "RPD table " + need[0]
                            + " has no column " + need[i]);
                }
            }
        }
        long total = count("rocpd_op") + count("rocpd_api");
        progress.start("rpd " + file.getFileName(), total);
        sink.info("clock", "rpd_tracer timestamps (ns)");
        sink.info("rpd.tables", String.join(",", schema.tables()));
        // One table at a time: a damaged page cuts its own table short and is reported, the others are read whole.
        TableByTable tables = new TableByTable(file, sink, () -> rowsRead, this::count);
        tables.read("rocpd_string", () -> loadStrings("rocpd_string", strings));
        if (schema.has("rocpd_ustring")) {
            argStrings = new HashMap<>();
            tables.read("rocpd_ustring", () -> loadStrings("rocpd_ustring", argStrings));
        }
        tables.read("rocpd_metadata", this::loadMetadata);
        tables.read("rocpd_kernelcodeobject", this::loadCodeObjects);
        tables.read("rocpd_kernelapi", () -> loadKernelArgs("rocpd_kernelapi", "api_ptr_id", kernelByApi));
        tables.read("rocpd_kernelop", () -> loadKernelArgs("rocpd_kernelop", "op_ptr_id", kernelByOp));
        tables.read("rocpd_copyapi", () -> loadCopyArgs("rocpd_copyapi", "api_ptr_id", copyByApi));
        tables.read("rocpd_copyop", () -> loadCopyArgs("rocpd_copyop", "op_ptr_id", copyByOp));
        tables.read("rocpd_api_ops", this::loadApiOps);
        tables.read("rocpd_api", this::readApi);
        tables.read("rocpd_op", this::readOps);
        tables.read("rocpd_monitor", this::readMonitor);
        progress.advance(total);
    }

    private long count(String table) {
        return rows.countForProgress(schema, table);
    }

    /**
     * The rows of a table; null when the file lacks it. sqlite-jdbc's failures arrive wrapped in IOException, which
     * {@link TableByTable} counts as damage of the table like the scanner's.
     */
    private TableRows open(String table, String... columns) throws IOException {
        return schema.has(table) ? rows.rows(table, columns) : null;
    }

    private interface RowReader {
        void row(TableRows r) throws IOException;
    }

    private void each(String table, RowReader reader, String... columns) throws IOException {
        try (TableRows r = open(table, columns)) {
            if (r == null) {
                return;
            }
            while (r.next()) {
                rowsRead++;
                reader.row(r);
            }
        }
    }

    private void loadStrings(String table, Map<Long, String> into) throws IOException, SQLException {
        // a NULL string (damaged) counts as absent: lookups fall back to their "<unknown>" names
        each(table, r -> {
            if (!r.isNull(1)) {
                into.put(r.getLong(0), r.getText(1));
            }
        }, "id", "string");
    }

    private void loadMetadata() throws IOException, SQLException {
        each("rocpd_metadata", r -> {
            if (r.getText(0) != null) {
                sink.info("rpd." + r.getText(0), r.getText(1));
            }
        }, "tag", "value");
    }

    private void loadCodeObjects() throws IOException, SQLException {
        each("rocpd_kernelcodeobject", r -> {
            if (!r.isNull(1)) {
                vgprs.put(r.getLong(0), (int) r.getLong(1));
            }
        }, "id", "vgpr");
    }

    private void loadKernelArgs(String table, String key, Map<Long, KernelArgs> into)
            throws IOException, SQLException {
        // gridZ is spelled gridz in the oldest rocpd_kernelop; column lookup ignores case as SQL does.
        each(table, r -> into.put(r.getLong(0), new KernelArgs(r.getText(1),
                        dim(r, 2), dim(r, 5), r.longOrNull(8), r.longOrNull(9), r.longOrNull(10), r.longOrNull(11))),
                key, "stream", "gridX", "gridY", "gridZ", "workgroupX", "workgroupY", "workgroupZ",
                "groupSegmentSize", "privateSegmentSize", "codeObject_id", "kernelName_id");
    }

    private static Dim3 dim(TableRows r, int first) throws IOException {
        if (r.isNull(first) && r.isNull(first + 1) && r.isNull(first + 2)) {
            return null;
        }
        return new Dim3(r.longOr(first, 1), r.longOr(first + 1, 1), r.longOr(first + 2, 1));
    }

    private void loadCopyArgs(String table, String key, Map<Long, CopyArgs> into) throws IOException, SQLException {
        each(table, r -> into.put(r.getLong(0), new CopyArgs(r.getText(1), r.longOr(2, 0), r.longOr(3, 0),
                        r.longOr(4, 0), r.longOrNull(5), r.longOrNull(6), r.longOrNull(7), r.longOrNull(8),
                        r.longOrNull(9))),
                key, "stream", "size", "width", "height", "kind", "dstDevice", "srcDevice", "sync", "pinned");
    }

    private void loadApiOps() throws IOException, SQLException {
        long[] repeated = {0};
        each("rocpd_api_ops", r -> {
            if (r.isNull(0) || r.isNull(1)) {
                return;
            }
            if (!apiOfOp.putIfAbsent(r.getLong(1), r.getLong(0))) {
                repeated[0]++;
            }
            apisWithOps.putIfAbsent(r.getLong(0), 1);
        }, "api_id", "op_id");
        if (repeated[0] > 0) {
            sink.skipped(SkipReason.DUPLICATE_ID, "rocpd_api_ops link of an op already linked to another API call",
                    file + " rocpd_api_ops", repeated[0]);
        }
    }

    // ---- host side --------------------------------------------------------------------------------------------

    private TrackTree.Node process(long pid) {
        return tracks.root(TrackKind.PROCESS, pid, n -> {
            long id = sink.newId(Entity.PROCESS);
            sink.process(new TraceProcess(id, pid, null));
            n.name("Process [" + pid + "]").process(id).sortIndex((int) pid);
        });
    }

    private long apiTrack(long pid, long tid, String family) {
        TrackTree.Node thread = process(pid).child(TrackKind.THREAD, tid, n -> {
            long id = sink.newId(Entity.THREAD);
            sink.thread(new TraceThread(id, tid, n.processId(), null));
            n.name("Thread " + tid).thread(id).sortIndex((int) tid);
        });
        // sorted in the order the reader first met each family, over all threads
        return thread.child(TrackKind.API, family, n -> n.name(family).sortIndex(tracks.count(TrackKind.API))).id();
    }

    /** The API family a call belongs to, from its name: rpd_tracer keeps HIP, HSA, CUDA and user ranges apart. */
    static String family(String name) {
        if (name.startsWith("hip") || name.startsWith("__hip")) {
            return "HIP";
        }
        if (name.startsWith("hsa_")) {
            return "HSA";
        }
        if (name.startsWith("cuda") || name.startsWith("cu") && name.length() > 2
                && Character.isUpperCase(name.charAt(2))) {
            return "CUDA";
        }
        return "Ranges";
    }

    private void readApi() throws IOException, SQLException {
        boolean hasDomain = schema.has("rocpd_api", "domain_id");
        long[] backwards = {0};
        each("rocpd_api", r -> {
            long apiId = r.getLong(0);
            long start = r.getLong(3);
            long end = r.getLong(4);
            if (end < start) {
                backwards[0]++;
            }
            String apiName = strings.getOrDefault(r.longOr(5, NONE), "<unknown>");
            String args = r.isNull(6) ? null : argStrings.get(r.getLong(6));
            String domain = hasDomain && !r.isNull(7) ? emptyToNull(strings.get(r.getLong(7))) : null;
            String family = family(apiName);
            String name = apiName;
            Category category;
            json.reset();
            if (!"Ranges".equals(family)) {
                category = apiName.contains("Synchronize") || apiName.contains("Wait") ? Category.SYNC
                        : Category.API;
                if (args != null && !args.isEmpty()) {
                    json.put("args", args);
                }
            } else {
                // roctx ranges and rpd_rangePush ranges: rpd_tracer files the message under args and a fixed
                // apiName (UserMarker); the message is what a user looks for, so it names the slice.
                category = Category.ANNOTATION;
                if (args != null && !args.isEmpty()) {
                    name = args;
                    json.put("apiName", apiName);
                }
            }
            KernelArgs k = kernelByApi.get(apiId);
            if (k != null) {
                String kernel = k.nameId() == null ? null : emptyToNull(strings.get(k.nameId()));
                if (kernel != null) {
                    json.put("kernel", kernel);
                }
                if (k.stream() != null) {
                    json.put("stream", k.stream());
                }
            }
            CopyArgs c = copyByApi.get(apiId);
            if (c != null) {
                putCopy(json, c);
            }
            // The call's id is roctracer's correlation id (offset per session); it links the call to its ops.
            Long corr = apisWithOps.get(apiId, 0) != 0 ? apiId : null;
            long id = sink.newId(Entity.SLICE);
            sink.slice(new Slice(id, apiTrack(r.getLong(1), r.getLong(2), family), start, Math.max(0, end - start),
                    name, category, domain != null ? domain : family, -1, corr, json.toStringOrNull()));
            flows.call(FlowLinker.ONE_PROCESS, apiId, id);
            tick();
        }, "id", "pid", "tid", "start", "end", "apiName_id", "args_id", "domain_id");
        if (backwards[0] > 0) {
            sink.skipped(SkipReason.ENDS_BEFORE_START, "rocpd_api call", file + " rocpd_api",
                    backwards[0]);
        }
    }

    private static void putCopy(JsonText json, CopyArgs c) {
        long bytes = c.bytes();
        if (bytes >= 0) {
            json.put("bytes", bytes);
        }
        if (c.width() > 0 || c.height() > 0) {
            json.put("width", c.width()).put("height", c.height());
        }
        if (c.kind() != null) {
            json.put("kind", c.kind());
        }
        if (c.stream() != null) {
            json.put("stream", c.stream());
        }
        if (c.srcDevice() != null && c.dstDevice() != null && !c.srcDevice().equals(c.dstDevice())) {
            json.put("srcDevice", c.srcDevice()).put("dstDevice", c.dstDevice());
        }
        if (c.sync() != null) {
            json.put("sync", c.sync() != 0);
        }
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private void tick() {
        if ((rowsRead & 0xFFFF) == 0) {
            progress.advance(rowsRead);
        }
    }

    // ---- device side ------------------------------------------------------------------------------------------

    private TrackTree.Node deviceNode(long gpuId) {
        TrackTree.Node d = tracks.find(null, TrackKind.DEVICE, gpuId);
        return d != null ? d : tracks.root(TrackKind.DEVICE, gpuId, n -> {
            long dev = sink.newId(Entity.DEVICE);
            // RPD keeps no description of its GPUs (rpd_tracer also records CUDA devices): the ordinal is all there is.
            sink.device(new Device(dev, DeviceKind.GPU, (int) gpuId, null, "GPU " + gpuId, null, null, null, null,
                    null, null, null));
            n.name("GPU " + gpuId).device(dev).sortIndex((int) gpuId);
        });
    }

    private long device(long gpuId) {
        return deviceNode(gpuId).deviceId();
    }

    private long queueTrack(long gpuId, long queueId) {
        return deviceNode(gpuId).child(TrackKind.QUEUE, queueId, n -> n.name("Queue " + queueId).stream(queueId)
                .sortIndex(tracks.count(TrackKind.QUEUE))).id();
    }

    /** What an operation is, from its opType string (roctracer's op names, or rocprofiler-sdk's in newer files). */
    static Category opCategory(String opType) {
        String t = opType.toUpperCase(Locale.ROOT);
        if (t.contains("KERNEL") || t.contains("DISPATCH")) {
            return Category.KERNEL;
        }
        if (t.contains("FILL") || t.contains("MEMSET")) {
            return Category.MEMSET;
        }
        if (t.contains("COPY")) {
            return Category.MEMCPY;
        }
        return t.contains("BARRIER") || t.contains("MARKER") ? Category.SYNC : Category.OTHER;
    }

    /**
     * Direction of a copy: from the op type name where it says (CopyHostToDevice, MEMORY_COPY_DEVICE_TO_HOST, ...),
     * a device-to-device copy between two different devices being peer-to-peer; else from the hipMemcpyKind of the
     * call (0 HtoH, 1 HtoD, 2 DtoH, 3 DtoD; 4, "default", says nothing).
     */
    static TransferKind copyKind(String opType, Long hipKind, Long srcDevice, Long dstDevice) {
        String t = opType.toUpperCase(Locale.ROOT).replaceAll("[^A-Z]", "");
        if (t.contains("PEER")) {
            return TransferKind.PTOP;
        }
        if (t.contains("HOSTTODEVICE")) {
            return TransferKind.HTOD;
        }
        if (t.contains("DEVICETOHOST")) {
            return TransferKind.DTOH;
        }
        if (t.contains("DEVICETODEVICE")) {
            return srcDevice != null && dstDevice != null && !srcDevice.equals(dstDevice) ? TransferKind.PTOP
                    : TransferKind.DTOD;
        }
        if (t.contains("HOSTTOHOST")) {
            return TransferKind.HTOH;
        }
        if (hipKind != null) {
            switch (hipKind.intValue()) {
                case 0: return TransferKind.HTOH;
                case 1: return TransferKind.HTOD;
                case 2: return TransferKind.DTOH;
                case 3: return TransferKind.DTOD;
                default: return TransferKind.UNKNOWN;
            }
        }
        return TransferKind.UNKNOWN;
    }

    private void readOps() throws IOException, SQLException {
        long[] unlinkedApi = {0};
        long[] noBytes = {0};
        long[] backwards = {0};
        each("rocpd_op", r -> {
            long opId = r.getLong(0);
            long gpuId = r.longOr(1, 0);
            long queueId = r.longOr(2, 0);
            long start = r.getLong(5);
            long end = r.getLong(6);
            if (end < start) {
                backwards[0]++;
            }
            long dur = Math.max(0, end - start);
            String description = r.isNull(7) ? null : emptyToNull(strings.get(r.getLong(7)));
            String opType = r.isNull(8) ? "" : strings.getOrDefault(r.getLong(8), "");
            long api = apiOfOp.get(opId, NONE);
            Long corr = api == NONE ? null : api;
            if (api != NONE && flows.callOf(FlowLinker.ONE_PROCESS, api) < 0 && schema.has("rocpd_api")) {
                unlinkedApi[0]++;
            }
            Category category = opCategory(opType);
            KernelArgs k = kernelByOp.get(opId);
            if (k == null && corr != null) {
                k = kernelByApi.get(corr);
            }
            CopyArgs c = copyByOp.get(opId);
            if (c == null && corr != null) {
                c = copyByApi.get(corr);
            }
            String name;
            if (category == Category.KERNEL) {
                String kernelName = k == null || k.nameId() == null ? null : emptyToNull(strings.get(k.nameId()));
                name = description != null ? description : kernelName != null ? kernelName
                        : opType.isEmpty() ? "kernel" : opType;
            } else {
                name = description != null ? description : opType.isEmpty() ? "op" : opType;
            }
            json.reset();
            if (!r.isNull(3) && r.getLong(3) != 0) {
                json.put("sequenceId", r.getLong(3));
            }
            String signal = r.getText(4);
            if (signal != null && !signal.isEmpty()) {
                json.put("completionSignal", signal);
            }
            if (category == Category.KERNEL && k != null && k.stream() != null) {
                json.put("stream", k.stream());
            }
            if ((category == Category.MEMCPY || category == Category.MEMSET) && c != null) {
                putCopy(json, c);
            }
            long id = sink.newId(Entity.SLICE);
            sink.slice(new Slice(id, queueTrack(gpuId, queueId), start, dur, name, category,
                    opType.isEmpty() ? null : opType, -1, corr, json.toStringOrNull()));
            long dev = device(gpuId);
            if (category == Category.KERNEL) {
                Integer vgpr = k == null || k.codeObject() == null ? null : vgprs.get(k.codeObject());
                sink.kernel(new KernelLaunch(id, dev, queueId, corr, k == null ? null : k.grid(),
                        k == null ? null : k.block(), vgpr, null, k == null ? null : k.groupSegment()));
            } else if (category == Category.MEMCPY || category == Category.MEMSET) {
                long bytes = c == null ? -1 : c.bytes();
                if (bytes < 0) {
                    noBytes[0]++;
                } else {
                    TransferKind kind = category == Category.MEMSET ? TransferKind.MEMSET
                            : copyKind(opType, c.kind(), c.srcDevice(), c.dstDevice());
                    Long src = switch (kind) {
                        case DTOH, DTOD -> dev;
                        case PTOP -> c.srcDevice() == null ? null : device(c.srcDevice());
                        default -> null;
                    };
                    Long dst = switch (kind) {
                        case HTOD, DTOD, MEMSET -> dev;
                        case PTOP -> c.dstDevice() == null ? null : device(c.dstDevice());
                        default -> null;
                    };
                    sink.transfer(new Transfer(sink.newId(Entity.TRANSFER), id, start, dur, bytes, kind, src, dst,
                            null, null, null, corr));
                }
            }
            if (corr != null) {
                flows.activity(FlowLinker.ONE_PROCESS, corr, id, "launch");
            }
            tick();
        }, "id", "gpuId", "queueId", "sequenceId", "completionSignal", "start", "end", "description_id", "opType_id");
        if (unlinkedApi[0] > 0) {
            sink.skipped(SkipReason.UNLINKED, "rocpd_op linked by rocpd_api_ops to a call missing from rocpd_api",
                    file + " rocpd_op", unlinkedApi[0]);
        }
        if (noBytes[0] > 0) {
            sink.skipped(SkipReason.MISSING_BYTES,
                    "rocpd_op without a rocpd_copyapi/rocpd_copyop row (no transfer row)",
                    file + " rocpd_op", noBytes[0]);
        }
        if (backwards[0] > 0) {
            sink.skipped(SkipReason.ENDS_BEFORE_START, "rocpd_op", file + " rocpd_op",
                    backwards[0]);
        }
    }

    private void readMonitor() throws IOException, SQLException {
        long[] bad = {0};
        each("rocpd_monitor", r -> {
            String type = r.getText(0) == null ? "device" : r.getText(0);
            long deviceId = r.longOr(1, 0);
            String monitor = r.getText(2) == null ? "value" : r.getText(2);
            double value;
            try {
                value = Double.parseDouble(r.getText(4).trim());
            } catch (NumberFormatException | NullPointerException e) {
                bad[0]++;
                return;
            }
            // a GPU's counters go under its track, after its queues; other devices' are roots
            boolean gpu = "gpu".equalsIgnoreCase(type);
            long track = tracks.track(gpu ? deviceNode(deviceId) : null, TrackKind.COUNTER,
                    type + "/" + deviceId + "/" + monitor, n -> n.name(monitor + (gpu ? "" : " " + type + " " + deviceId))
                    .sortIndex(10_000 + tracks.count(TrackKind.COUNTER))
                    .unit(monitor.toLowerCase(Locale.ROOT).endsWith("clk") ? "MHz" : null)).id();
            sink.counter(new CounterSample(track, r.getLong(3), value));
        }, "deviceType", "deviceId", "monitorType", "start", "value");
        if (bad[0] > 0) {
            sink.skipped(SkipReason.BAD_VALUE, "rocpd_monitor value that is not a number", file + " rocpd_monitor",
                    bad[0]);
        }
    }
}
