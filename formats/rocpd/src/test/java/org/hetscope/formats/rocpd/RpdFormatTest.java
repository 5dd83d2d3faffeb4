package org.hetscope.formats.rocpd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.hetscope.formats.sqlite.RowSource;
import org.hetscope.formats.sqlite.SqliteFiles;
import org.hetscope.model.Category;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Flow;
import org.hetscope.model.KernelLaunch;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.hetscope.model.Transfer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rocpd reader on RPD databases (rocmProfileData's layout) built from the documented schema, checked against
 * SQL over the same database: the expected values never go through the reader's own mapping code.
 */
class RpdFormatTest {
    @TempDir
    static Path dir;
    static Path db;
    static CollectingSink sink;
    static Map<Long, Slice> byId = new HashMap<>();

    @BeforeAll
    static void build() throws Exception {
        db = dir.resolve("trace.rpd");
        RpdTestDatabase.create(db, 11, false);
        RocpdFormat f = new RocpdFormat();
        assertTrue(f.accepts(db), "an RPD file is detected as rocpd");
        sink = new CollectingSink();
        f.read(db, sink, Progress.NONE);
        sink.slices.forEach(s -> byId.put(s.id(), s));
    }

    /** Rows of a query as "first column -> remaining columns joined by /". */
    static Map<String, String> sql(Path file, String query) throws Exception {
        Map<String, String> out = new TreeMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(query)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder v = new StringBuilder();
                for (int i = 2; i <= n; i++) {
                    v.append(i == 2 ? "" : "/").append(rs.getString(i));
                }
                out.put(rs.getString(1), v.toString());
            }
        }
        return out;
    }

    static List<String> column(Path file, String query) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(query)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        Collections.sort(out);
        return out;
    }

    private static Map<String, String> countAndTotal(CollectingSink s, Set<Category> categories, TrackKind on) {
        Set<Long> tracks = new HashSet<>();
        s.tracks.stream().filter(t -> t.kind() == on).forEach(t -> tracks.add(t.id()));
        Map<String, long[]> acc = new TreeMap<>();
        for (Slice x : s.slices) {
            if (categories.contains(x.category()) && tracks.contains(x.trackId())) {
                long[] a = acc.computeIfAbsent(x.name(), k -> new long[2]);
                a[0]++;
                a[1] += x.dur();
            }
        }
        Map<String, String> got = new TreeMap<>();
        acc.forEach((k, v) -> got.put(k, v[0] + "/" + v[1]));
        return got;
    }

    @Test
    void kernelsPerNameMatchSql() throws Exception {
        // the op's description names the kernel; where it is empty, the launch's rocpd_kernelapi row does
        Map<String, String> expected = sql(db, "SELECT CASE WHEN d.string <> '' THEN d.string ELSE kn.string END, "
                + "count(*), sum(o.\"end\" - o.start) FROM rocpd_op o JOIN rocpd_string t ON t.id = o.opType_id "
                + "JOIN rocpd_string d ON d.id = o.description_id LEFT JOIN rocpd_api_ops l ON l.op_id = o.id "
                + "LEFT JOIN rocpd_kernelapi k ON k.api_ptr_id = l.api_id LEFT JOIN rocpd_string kn "
                + "ON kn.id = k.kernelName_id WHERE t.string = 'KernelExecution' GROUP BY 1");
        assertEquals(expected, countAndTotal(sink, Set.of(Category.KERNEL), TrackKind.QUEUE));
        assertEquals(RpdTestDatabase.KERNELS.length, expected.size(), "every kernel was launched");
    }

    @Test
    void dispatchAttributesMatchTheKernelView() throws Exception {
        List<String> expected = column(db, "SELECT kernelName || '|' || gridX || ',' || gridY || ',' || gridZ || '|' "
                + "|| workgroupX || ',' || workgroupY || ',' || workgroupZ || '|' || groupSegmentSize || '|' || gpuId "
                + "|| '|' || queueId FROM kernel");
        Map<Long, Long> gpuOfDevice = new HashMap<>();
        sink.devices.forEach(d -> gpuOfDevice.put(d.id(), (long) d.ordinal()));
        List<String> got = new ArrayList<>();
        for (KernelLaunch k : sink.kernels) {
            got.add(byId.get(k.sliceId()).name() + "|" + k.grid().x() + "," + k.grid().y() + "," + k.grid().z() + "|"
                    + k.block().x() + "," + k.block().y() + "," + k.block().z() + "|" + k.sharedMemoryDynamic() + "|"
                    + gpuOfDevice.get(k.deviceId()) + "|" + k.stream());
        }
        Collections.sort(got);
        assertEquals(expected, got);
        // registers from rocpd_kernelcodeobject where the launch names a code object it has
        assertEquals(column(db, "SELECT count(*) FROM rocpd_api_ops l JOIN rocpd_kernelapi a ON a.api_ptr_id = "
                + "l.api_id JOIN rocpd_kernelcodeobject c ON c.id = a.codeObject_id AND c.vgpr = 32").get(0),
                Long.toString(sink.kernels.stream().filter(k -> Integer.valueOf(32).equals(k.registersPerThread()))
                        .count()));
    }

    @Test
    void apiCallsAndRangesMatchSql() throws Exception {
        Map<String, String> calls = sql(db, "SELECT apiName, count(*), sum(\"end\" - start) FROM api "
                + "WHERE apiName <> 'UserMarker' GROUP BY 1");
        assertEquals(calls, countAndTotal(sink, Set.of(Category.API, Category.SYNC), TrackKind.API));
        Map<String, String> ranges = sql(db, "SELECT args, count(*), sum(\"end\" - start) FROM api "
                + "WHERE apiName = 'UserMarker' GROUP BY 1");
        assertEquals(ranges, countAndTotal(sink, Set.of(Category.ANNOTATION), TrackKind.API));
        assertTrue(sink.slices.stream().anyMatch(s -> s.name().equals("hipDeviceSynchronize")
                && s.category() == Category.SYNC));
        Slice malloc = sink.slices.stream().filter(s -> s.name().equals("hipMalloc")).findFirst().orElseThrow();
        assertTrue(malloc.argsJson().contains("ptr=0x7f5500000000"), malloc.argsJson());
        assertEquals(1, sink.processes.size());
        assertEquals(777, sink.processes.get(0).pid());
        assertEquals(Set.of(777L, 781L), new HashSet<>(sink.threads.stream().map(t -> t.tid()).toList()));
        for (Slice s : sink.slices) {
            Track t = sink.tracks.stream().filter(x -> x.id() == s.trackId()).findFirst().orElseThrow();
            boolean host = s.category() == Category.API || s.category() == Category.ANNOTATION;
            boolean device = s.category() == Category.KERNEL || s.category() == Category.MEMCPY
                    || s.category() == Category.MEMSET;
            if (host || device) {
                assertEquals(host ? TrackKind.API : TrackKind.QUEUE, t.kind(), s.toString());
            }
        }
    }

    @Test
    void flowsFollowApiOpsOneToOne() throws Exception {
        List<String> expected = column(db, "SELECT a.apiName || '->' || o.opType FROM rocpd_api_ops l "
                + "JOIN api a ON a.id = l.api_id JOIN op o ON o.id = l.op_id");
        List<String> got = new ArrayList<>();
        Set<Long> targets = new HashSet<>();
        Set<Long> sources = new HashSet<>();
        for (Flow f : sink.flows) {
            Slice from = byId.get(f.fromSliceId());
            Slice to = byId.get(f.toSliceId());
            got.add(from.name() + "->" + to.sourceCategory());
            assertTrue(targets.add(f.toSliceId()), "one flow into each op");
            assertTrue(sources.add(f.fromSliceId()), "one op per call in this database");
            assertNotNull(f.correlationId());
            assertEquals(f.correlationId(), from.correlationId());
            assertEquals(f.correlationId(), to.correlationId());
            assertTrue(f.correlationId() > RpdTestDatabase.BASE, "the rocpd_api id is the correlation id");
        }
        Collections.sort(got);
        assertEquals(expected, got);
        // the op whose call is missing from rocpd_api keeps its slice, without a flow, and is counted
        assertEquals(column(db, "SELECT count(*) FROM rocpd_api_ops l WHERE l.api_id NOT IN (SELECT id FROM "
                + "rocpd_api)").get(0), Long.toString(skippedCount("missing from rocpd_api")));
        Set<Long> queues = new HashSet<>();
        sink.tracks.stream().filter(t -> t.kind() == TrackKind.QUEUE).forEach(t -> queues.add(t.id()));
        assertEquals(column(db, "SELECT count(*) FROM rocpd_op").get(0), Long.toString(sink.slices.stream()
                .filter(s -> queues.contains(s.trackId())).count()), "every op is a slice on a queue track");
    }

    private static long skippedCount(String part) {
        return sink.skipped.entrySet().stream().filter(e -> e.getKey().contains(part)).mapToLong(Map.Entry::getValue)
                .sum();
    }

    @Test
    void bytesPerCopyKindMatchSql() throws Exception {
        // directions written out independently of the reader: by op type, a device-to-device copy between two
        // different GPUs counting as peer-to-peer; 2-D copies move width x height bytes
        Map<String, String> expected = sql(db, "SELECT CASE o.opType WHEN 'CopyHostToDevice' THEN 'HTOD' "
                + "WHEN 'CopyHostToDevice2D' THEN 'HTOD' WHEN 'CopyDeviceToHost' THEN 'DTOH' "
                + "WHEN 'CopyDeviceToDevice' THEN CASE WHEN c.srcDevice <> c.dstDevice THEN 'PTOP' ELSE 'DTOD' END "
                + "END, count(*), sum(CASE WHEN c.size > 0 THEN c.size ELSE c.width * c.height END) "
                + "FROM op o JOIN rocpd_api_ops l ON l.op_id = o.id JOIN rocpd_copyapi c ON c.api_ptr_id = l.api_id "
                + "GROUP BY 1");
        Map<String, long[]> acc = new TreeMap<>();
        for (Transfer t : sink.transfers) {
            long[] a = acc.computeIfAbsent(t.kind().name(), k -> new long[2]);
            a[0]++;
            a[1] += t.bytes();
            assertEquals(byId.get(t.sliceId()).ts(), t.ts());
            assertEquals(byId.get(t.sliceId()).correlationId(), t.correlationId());
        }
        Map<String, String> got = new TreeMap<>();
        acc.forEach((k, v) -> got.put(k, v[0] + "/" + v[1]));
        assertEquals(expected, got);
        assertEquals(Set.of("HTOD", "DTOH", "DTOD", "PTOP"), expected.keySet());
        // peer copies run from GPU 0 to GPU 1
        Map<Long, Integer> ordinal = new HashMap<>();
        sink.devices.forEach(d -> ordinal.put(d.id(), d.ordinal()));
        sink.transfers.stream().filter(t -> t.kind().name().equals("PTOP")).forEach(t -> {
            assertEquals(0, ordinal.get(t.srcDeviceId()));
            assertEquals(1, ordinal.get(t.dstDeviceId()));
        });
        // fills and the copy whose call is missing have no byte count: slices, no transfer, counted
        assertEquals(column(db, "SELECT count(*) FROM op o WHERE (o.opType LIKE 'Copy%' OR o.opType = 'FillBuffer') "
                + "AND NOT EXISTS (SELECT 1 FROM rocpd_api_ops l JOIN rocpd_copyapi c ON c.api_ptr_id = l.api_id "
                + "WHERE l.op_id = o.id)").get(0), Long.toString(skippedCount("missing_bytes: rocpd_op without")));
        assertEquals(column(db, "SELECT count(*) FROM op WHERE opType = 'FillBuffer'").get(0),
                Long.toString(sink.slices.stream().filter(s -> s.category() == Category.MEMSET).count()));
    }

    @Test
    void monitorSamplesMetadataAndDevices() throws Exception {
        assertEquals(column(db, "SELECT count(*) FROM rocpd_monitor WHERE value GLOB '[0-9]*'").get(0),
                Integer.toString(sink.counters.size()));
        assertEquals(1, skippedCount("rocpd_monitor value that is not a number"));
        assertTrue(sink.tracks.stream().filter(t -> t.kind() == TrackKind.COUNTER)
                .allMatch(t -> t.name().equals("sclk") && "MHz".equals(t.unit())));
        assertEquals("2", sink.info.get("rpd.schema_version"));
        assertEquals(column(db, "SELECT DISTINCT gpuId FROM rocpd_op"),
                sink.devices.stream().map(d -> Integer.toString(d.ordinal())).sorted().toList());
    }

    @Test
    void scannerAndJdbcReadTheSame() throws Exception {
        try (Connection c = SqliteFiles.openReadOnly(db); RowSource rows = RowSource.open(db, c, true)) {
            for (String t : new String[] {"rocpd_string", "rocpd_op", "rocpd_api", "rocpd_api_ops", "rocpd_kernelapi",
                "rocpd_copyapi", "rocpd_monitor"}) {
                assertTrue(rows.scans(t), "the file scanner reads " + t);
            }
        }
        CollectingSink jdbc = new CollectingSink();
        new RocpdFormat(false).read(db, jdbc, Progress.NONE);
        assertEquals(sink.slices, jdbc.slices);
        assertEquals(sink.kernels, jdbc.kernels);
        assertEquals(sink.transfers, jdbc.transfers);
        assertEquals(sink.flows, jdbc.flows);
        assertEquals(sink.counters, jdbc.counters);
        assertEquals(sink.skipped, jdbc.skipped);
    }

    @Test
    void newerRpdTracerLayoutWithUstringsAndDomains(@TempDir Path tmp) throws Exception {
        Path newer = tmp.resolve("newer.rpd");
        RpdTestDatabase.create(newer, 11, true);
        CollectingSink s = new CollectingSink();
        new RocpdFormat().read(newer, s, Progress.NONE);
        Slice malloc = s.slices.stream().filter(x -> x.name().equals("hipMalloc")).findFirst().orElseThrow();
        assertTrue(malloc.argsJson().contains("ptr=0x7f5500000000"), "args come from rocpd_ustring");
        assertEquals("hip", malloc.sourceCategory(), "the call's domain");
        assertEquals(sql(newer, "SELECT args, count(*) FROM api WHERE apiName = 'UserMarker' GROUP BY 1").keySet(),
                new HashSet<>(s.slices.stream().filter(x -> x.category() == Category.ANNOTATION).map(Slice::name)
                        .toList()));
        // the same random content as the older layout: the GPU side is identical
        assertEquals(sink.kernels.size(), s.kernels.size());
        assertEquals(sink.transfers.size(), s.transfers.size());
        assertEquals(sink.flows.size(), s.flows.size());
    }
}
