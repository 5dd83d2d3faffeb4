package org.hetscope.formats.rocpd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.hetscope.model.Category;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Flow;
import org.hetscope.model.KernelCounter;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceFormatException;
import org.hetscope.model.Transfer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rocpd reader on a database built from the documented v3 schema, checked against SQL over that database. */
class RocpdFormatTest {
    @TempDir
    static Path dir;
    static Path db;
    static CollectingSink sink;

    @BeforeAll
    static void build() throws Exception {
        db = dir.resolve("results.db");
        RocpdTestDatabase.create(db, 5);
        RocpdFormat f = new RocpdFormat();
        assertTrue(f.accepts(db));
        sink = new CollectingSink();
        f.read(db, sink, Progress.NONE);
    }

    private static Map<String, String> sql(String query) throws Exception {
        Map<String, String> out = new TreeMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(query)) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2) + "/" + rs.getString(3));
            }
        }
        return out;
    }

    @Test
    void nullStringsFallBackToDefaultNames(@TempDir Path tmp) throws Exception {
        // the schema says NOT NULL; damage is what nulls a string in the wild (the mutation test found it in nsys)
        Path nulls = tmp.resolve("nulls.db");
        RocpdTestDatabase.create(nulls, 5);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + nulls); Statement st = c.createStatement()) {
            st.execute("PRAGMA writable_schema = ON");
            st.execute("UPDATE sqlite_master SET sql = replace(sql, 'string TEXT NOT NULL', 'string TEXT') "
                    + "WHERE name = 'rocpd_string_00ab'");
        }
        long launches;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + nulls); Statement st = c.createStatement()) {
            st.execute("UPDATE rocpd_string_00ab SET string = NULL WHERE string = 'hipLaunchKernel'");
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM rocpd_region_00ab WHERE name_id = 1")) {
                rs.next();
                launches = rs.getLong(1);
            }
        }
        CollectingSink s = new CollectingSink();
        new RocpdFormat().read(nulls, s, Progress.NONE);
        assertTrue(launches > 0);
        assertEquals(launches, s.slices.stream().filter(x -> x.name().equals("<unknown>")).count());
        assertEquals(sink.slices.size(), s.slices.size(), "every region, kernel and copy kept");
    }

    @Test
    void kernelsPerNameMatchSql() throws Exception {
        Map<String, String> expected = sql("SELECT s.display_name, count(*), sum(k.\"end\" - k.start) FROM "
                + "rocpd_kernel_dispatch_00ab k JOIN rocpd_info_kernel_symbol_00ab s ON s.id = k.kernel_id GROUP BY 1");
        Map<String, long[]> actual = new TreeMap<>();
        for (Slice s : sink.slices) {
            if (s.category() == Category.KERNEL) {
                long[] a = actual.computeIfAbsent(s.name(), x -> new long[2]);
                a[0]++;
                a[1] += s.dur();
            }
        }
        Map<String, String> got = new TreeMap<>();
        actual.forEach((k, v) -> got.put(k, v[0] + "/" + v[1]));
        assertEquals(expected, got);
        assertEquals(RocpdTestDatabase.DISPATCHES, sink.kernels.size());
        assertTrue(sink.kernels.stream().allMatch(k -> k.block().x() == 96 || k.block().x() == 256));
    }

    @Test
    void copiesPerDirectionMatchSql() throws Exception {
        Map<String, String> expected = sql("SELECT CASE WHEN s.type = 'CPU' AND d.type = 'GPU' THEN 'HTOD' "
                + "WHEN s.type = 'GPU' AND d.type = 'CPU' THEN 'DTOH' ELSE 'OTHER' END, count(*), sum(m.size) "
                + "FROM rocpd_memory_copy_00ab m JOIN rocpd_info_agent_00ab s ON s.id = m.src_agent_id "
                + "JOIN rocpd_info_agent_00ab d ON d.id = m.dst_agent_id GROUP BY 1");
        Map<String, long[]> actual = new TreeMap<>();
        for (Transfer t : sink.transfers) {
            long[] a = actual.computeIfAbsent(t.kind().name(), x -> new long[2]);
            a[0]++;
            a[1] += t.bytes();
        }
        Map<String, String> got = new TreeMap<>();
        actual.forEach((k, v) -> got.put(k, v[0] + "/" + v[1]));
        assertEquals(expected, got);
    }

    @Test
    void everyActivityHasItsLaunchingCallByCorrelationId() throws Exception {
        Map<String, String> expected = sql("SELECT 'n', count(*), 0 FROM (SELECT k.event_id FROM "
                + "rocpd_kernel_dispatch_00ab k UNION ALL SELECT m.event_id FROM rocpd_memory_copy_00ab m) a "
                + "JOIN rocpd_event_00ab e ON e.id = a.event_id WHERE EXISTS (SELECT 1 FROM rocpd_region_00ab r "
                + "JOIN rocpd_event_00ab re ON re.id = r.event_id WHERE re.correlation_id = e.correlation_id)");
        assertEquals(expected.get("n"), sink.flows.size() + "/0");
        Map<Long, Slice> byId = new HashMap<>();
        sink.slices.forEach(s -> byId.put(s.id(), s));
        Map<Long, Integer> into = new HashMap<>();
        for (Flow f : sink.flows) {
            into.merge(f.toSliceId(), 1, Integer::sum);
            Slice api = byId.get(f.fromSliceId());
            Slice act = byId.get(f.toSliceId());
            assertEquals(api.correlationId(), act.correlationId());
            assertEquals(act.category() == Category.KERNEL ? "hipLaunchKernel" : "hipMemcpy", api.name());
        }
        assertTrue(into.values().stream().allMatch(n -> n == 1));
    }

    @Test
    void countersDevicesAndSamples() throws Exception {
        Map<String, String> expected = sql("SELECT p.name, count(*), 0 FROM rocpd_pmc_event_00ab e JOIN "
                + "rocpd_info_pmc_00ab p ON p.id = e.pmc_id JOIN rocpd_kernel_dispatch_00ab k ON k.event_id = e.event_id "
                + "GROUP BY 1");
        Map<String, String> got = new TreeMap<>();
        Map<String, Integer> n = new TreeMap<>();
        for (KernelCounter c : sink.kernelCounters) {
            n.merge(c.name(), 1, Integer::sum);
        }
        n.forEach((k, v) -> got.put(k, v + "/0"));
        assertEquals(expected, got);
        assertEquals("true", sink.info.get("serialized_by_profiler"));
        assertEquals(RocpdTestDatabase.DISPATCHES, sink.counters.size());
        var gpu = sink.devices.stream().filter(d -> d.kind() == org.hetscope.model.DeviceKind.GPU).findFirst()
                .orElseThrow();
        assertEquals(64, gpu.warpSize());
        assertEquals(110, gpu.computeUnits());
        assertEquals("AMD Instinct MI250X", gpu.name());
        assertEquals(1, sink.processes.size());
        assertEquals(4242, sink.processes.get(0).pid());
        assertTrue(sink.slices.stream().anyMatch(s -> s.category() == Category.ANNOTATION
                && s.name().equals("roctxRangePush")));
    }

    @Test
    void sqliteThatIsNotRocpdIsRefused(@TempDir Path tmp) throws Exception {
        Path other = tmp.resolve("x.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + other); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE StringIds(id INTEGER, value TEXT)");
            st.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER)");
        }
        assertFalse(new RocpdFormat().accepts(other));
        CollectingSink s = new CollectingSink();
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> new RocpdFormat().read(other, s, Progress.NONE));
        assertTrue(e.getMessage().contains("not a rocpd database"), e.getMessage());
        assertTrue(s.slices.isEmpty() && s.devices.isEmpty());
    }
}
