package org.hetscope.formats.nsys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.hetscope.model.Category;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Flow;
import org.hetscope.model.KernelLaunch;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceFormatException;
import org.hetscope.model.Track;
import org.hetscope.model.Transfer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The nsys reader against direct SQL aggregates over the raw export (computed here, independently). */
class NsysFormatTest {
    static final Path FIXTURE = Path.of(System.getProperty("hetscope.root", "."))
            .resolve("../shared/fixtures/nsys/perlmutter-cloverleaf-cuda.sqlite");
    static CollectingSink sink;

    @BeforeAll
    static void importFixture() throws Exception {
        sink = new CollectingSink();
        NsysFormat f = new NsysFormat();
        assertTrue(f.accepts(FIXTURE));
        f.read(FIXTURE, sink, Progress.NONE);
    }

    private static Map<String, long[]> sql(String query) throws Exception {
        Map<String, long[]> out = new TreeMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + FIXTURE.toAbsolutePath());
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(query)) {
            while (rs.next()) {
                out.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3)});
            }
        }
        return out;
    }

    @Test
    void kernelCountAndTimePerNameMatchSql() throws Exception {
        Map<String, long[]> expected = sql("SELECT s.value, count(*), sum(k.\"end\" - k.start) "
                + "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName GROUP BY 1");
        Map<String, long[]> actual = new TreeMap<>();
        for (Slice s : sink.slices) {
            if (s.category() == Category.KERNEL) {
                long[] a = actual.computeIfAbsent(s.name(), k -> new long[2]);
                a[0]++;
                a[1] += s.dur();
            }
        }
        assertEquals(expected.keySet(), actual.keySet());
        expected.forEach((name, v) -> {
            assertEquals(v[0], actual.get(name)[0], name + " count");
            assertEquals(v[1], actual.get(name)[1], name + " total ns");
        });
        assertEquals(1312, actual.values().stream().mapToLong(a -> a[0]).sum());
        assertEquals(1312, sink.kernels.size());
    }

    @Test
    void everyKernelKeepsItsDemangledNameAsFullName() throws Exception {
        // Independent reference: per (short name, demangled name) pair, how many launches the export holds.
        Map<String, long[]> expected = sql("SELECT sn.value || ' | ' || dn.value, count(*), 0 "
                + "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds sn ON sn.id = k.shortName "
                + "JOIN StringIds dn ON dn.id = k.demangledName GROUP BY 1");
        Map<Long, String> nameOfSlice = new java.util.HashMap<>();
        for (Slice s : sink.slices) {
            if (s.category() == Category.KERNEL) {
                nameOfSlice.put(s.id(), s.name());
                assertEquals(null, s.argsJson(), "kernel slices carry no args: the full name is in `kernel`");
            }
        }
        Map<String, long[]> actual = new TreeMap<>();
        for (org.hetscope.model.KernelLaunch k : sink.kernels) {
            String shortName = nameOfSlice.get(k.sliceId());
            String full = k.fullName() == null ? shortName : k.fullName();
            assertTrue(k.fullName() == null || !k.fullName().equals(shortName), "full name given only when different");
            actual.computeIfAbsent(shortName + " | " + full, x -> new long[2])[0]++;
        }
        assertEquals(expected.keySet(), actual.keySet());
        expected.forEach((pair, v) -> assertEquals(v[0], actual.get(pair)[0], pair));
    }

    @Test
    void memcpyBytesPerKindMatchSql() throws Exception {
        Map<String, long[]> expected = sql("SELECT e.name, count(*), sum(m.bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY m "
                + "JOIN ENUM_CUDA_MEMCPY_OPER e ON e.id = m.copyKind GROUP BY 1");
        Map<String, long[]> actual = new TreeMap<>();
        for (Transfer t : sink.transfers) {
            String name = "CUDA_MEMCPY_KIND_" + t.kind().name();
            long[] a = actual.computeIfAbsent(name, k -> new long[2]);
            a[0]++;
            a[1] += t.bytes();
        }
        assertEquals(expected.keySet(), actual.keySet());
        expected.forEach((k, v) -> assertEquals(v[0] + "/" + v[1], actual.get(k)[0] + "/" + actual.get(k)[1], k));
    }

    @Test
    void everyCorrelatedKernelHasExactlyOneLaunchingApiCall() throws Exception {
        Map<Long, Slice> byId = sink.slices.stream().collect(Collectors.toMap(Slice::id, Function.identity()));
        Map<Long, Long> launchesPerTarget = new HashMap<>();
        for (Flow f : sink.flows) {
            launchesPerTarget.merge(f.toSliceId(), 1L, Long::sum);
        }
        int checked = 0;
        for (Slice k : sink.slices) {
            if (k.category() != Category.KERNEL || k.correlationId() == null) {
                continue;
            }
            assertEquals(1L, launchesPerTarget.getOrDefault(k.id(), 0L), "flows into kernel " + k.id());
            checked++;
        }
        assertEquals(1312, checked);
        for (Flow f : sink.flows) {
            Slice api = byId.get(f.fromSliceId());
            Slice target = byId.get(f.toSliceId());
            assertEquals(target.correlationId(), api.correlationId());
            assertTrue(api.category() == Category.API || api.category() == Category.SYNC);
            if (target.category() == Category.KERNEL) {
                assertTrue(api.name().startsWith("cudaLaunchKernel"), api.name());
                assertTrue(api.ts() <= target.ts(), "launch before kernel");
            }
        }
        // independent count: kernels whose correlation id appears in the runtime table of the same process
        Map<String, long[]> joined = sql("SELECT 'k', count(*), 0 FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE EXISTS "
                + "(SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = k.correlationId "
                + "AND (r.globalTid >> 24) = (k.globalPid >> 24))");
        long kernelFlows = sink.flows.stream().filter(f -> byId.get(f.toSliceId()).category() == Category.KERNEL)
                .count();
        assertEquals(joined.get("k")[0], kernelFlows);
    }

    @Test
    void devicesStreamsThreadsAndLaunchAttributes() throws Exception {
        assertEquals(4, sink.devices.size());
        assertTrue(sink.devices.stream().allMatch(d -> "NVIDIA A100-SXM4-80GB".equals(d.name())
                && d.warpSize() == 32 && d.computeUnits() == 108));
        assertEquals(1, sink.processes.size());
        assertEquals(1701896, sink.processes.get(0).pid());
        assertEquals("cuda-cloverleaf", sink.processes.get(0).name());
        Map<Long, Track> tracks = sink.tracks.stream().collect(Collectors.toMap(Track::id, Function.identity()));
        Slice kernel = sink.slices.stream().filter(s -> s.category() == Category.KERNEL).findFirst().orElseThrow();
        Track stream = tracks.get(kernel.trackId());
        assertEquals("Stream 7", stream.name());
        assertEquals(org.hetscope.model.TrackKind.DEVICE, tracks.get(stream.parentId()).kind());
        Map<String, long[]> first = sql("SELECT start, gridX, blockX * 1000000 + blockY * 1000 + blockZ "
                + "FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start = " + kernel.ts());
        KernelLaunch launch = sink.kernels.stream().filter(k -> k.sliceId() == kernel.id()).findFirst().orElseThrow();
        long[] row = first.get(Long.toString(kernel.ts()));
        assertEquals(row[0], launch.grid().x());
        assertEquals(row[1], launch.block().x() * 1000000 + launch.block().y() * 1000 + launch.block().z());
        assertNotNull(launch.registersPerThread());
        Slice api = sink.slices.stream().filter(s -> s.category() == Category.API).findFirst().orElseThrow();
        Track apiTrack = tracks.get(api.trackId());
        assertEquals("cuda-cloverleaf [1701896]", tracks.get(apiTrack.parentId()).name());
        // pageable host memory is visible on copies
        assertTrue(sink.slices.stream().anyMatch(s -> s.category() == Category.MEMCPY
                && s.argsJson().contains("\"srcKind\":\"Pageable\"")));
    }

    @Test
    void sqliteFileThatIsNotAnNsysExportIsRefusedWithNothingImported(@TempDir Path dir) throws Exception {
        Path other = dir.resolve("other.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + other);
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE people(name TEXT, age INTEGER)");
            st.execute("INSERT INTO people VALUES ('a', 1)");
        }
        NsysFormat f = new NsysFormat();
        assertFalse(f.accepts(other));
        CollectingSink s = new CollectingSink();
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> f.read(other, s, Progress.NONE));
        assertTrue(e.getMessage().contains("other.sqlite") && e.getMessage().contains("not an Nsight Systems export"),
                e.getMessage());
        assertTrue(s.slices.isEmpty() && s.tracks.isEmpty() && s.devices.isEmpty());
        Path text = dir.resolve("text.sqlite");
        Files.writeString(text, "hello ".repeat(50));
        assertThrows(TraceFormatException.class, () -> f.read(text, new CollectingSink(), Progress.NONE));
    }

    @Test
    void olderExportWithoutOptionalTablesAndColumnsStillReads(@TempDir Path dir) throws Exception {
        Path old = dir.resolve("old.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + old);
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT)");
            st.execute("INSERT INTO StringIds VALUES (1, 'k1'), (2, 'cudaLaunch')");
            // no RUNTIME table with globalTid, no launch geometry columns, no TARGET_INFO_GPU
            st.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER, deviceId INTEGER, "
                    + "streamId INTEGER, correlationId INTEGER, shortName INTEGER)");
            st.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (100, 150, 0, 7, 5, 1), (200, 260, 0, 7, 6, 1)");
            st.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER, end INTEGER, correlationId INTEGER, "
                    + "nameId INTEGER)");
            st.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (90, 95, 5, 2), (190, 195, 6, 2)");
        }
        CollectingSink s = new CollectingSink();
        new NsysFormat().read(old, s, Progress.NONE);
        assertEquals(2, s.kernels.size());
        assertEquals(1, s.devices.size());
        assertEquals(2, s.flows.size());
        assertEquals(110, s.slices.stream().filter(x -> x.category() == Category.KERNEL).mapToLong(Slice::dur).sum());
    }

    @Test
    void nullStringsFallBackToUnknownNames(@TempDir Path dir) throws Exception {
        // found by the mutation test: a StringIds value of NULL used to end the read with a NullPointerException
        Path db = dir.resolve("nulls.sqlite");
        java.nio.file.Files.copy(FIXTURE, db);
        long runtimeRows;
        long namedNull;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            // the export declares value NOT NULL; damage is what nulls it in the wild, a copy without the constraint here
            st.execute("ALTER TABLE StringIds RENAME TO StringIds0");
            st.execute("CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT)");
            st.execute("INSERT INTO StringIds SELECT * FROM StringIds0");
            st.execute("DROP TABLE StringIds0");
            st.execute("UPDATE StringIds SET value = NULL WHERE id IN (SELECT nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME"
                    + " LIMIT 1) OR id IN (SELECT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1)");
            try (ResultSet rs = st.executeQuery("SELECT count(*), sum(nameId IN (SELECT id FROM StringIds WHERE value"
                    + " IS NULL)) FROM CUPTI_ACTIVITY_KIND_RUNTIME")) {
                rs.next();
                runtimeRows = rs.getLong(1);
                namedNull = rs.getLong(2);
            }
        }
        CollectingSink s = new CollectingSink();
        new NsysFormat().read(db, s, Progress.NONE);
        assertTrue(namedNull > 0);
        assertEquals(namedNull, s.slices.stream().filter(x -> x.name().equals("<unknown API>")).count());
        assertEquals(runtimeRows, s.slices.stream().filter(x -> x.sourceCategory() != null
                && x.sourceCategory().equals("cuda_runtime")).count());
        assertEquals(sink.kernels.size(), s.kernels.size(), "every kernel kept");
        assertTrue(s.slices.stream().anyMatch(x -> x.name().equals("<unknown kernel>")));
    }

    @Test
    void nvtxMemsetAndDriverTables(@TempDir Path dir) throws Exception {
        Path db = dir.resolve("nvtx.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT)");
            st.execute("INSERT INTO StringIds VALUES (1, 'cuMemsetD32Async'), (2, 'cuLaunchKernel'), (3, 'k'), "
                    + "(4, 'phase B')");
            st.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_DRIVER(start INTEGER, end INTEGER, eventClass INTEGER, "
                    + "globalTid INTEGER, correlationId INTEGER, nameId INTEGER, returnValue INTEGER)");
            long gtid = (42L << 24) | 43L;
            st.execute("INSERT INTO CUPTI_ACTIVITY_KIND_DRIVER VALUES (100, 110, 0, " + gtid + ", 1, 1, 0), "
                    + "(200, 210, 0, " + gtid + ", 2, 2, 0)");
            st.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET(start INTEGER, end INTEGER, deviceId INTEGER, "
                    + "contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, value INTEGER, "
                    + "bytes INTEGER, memKind INTEGER)");
            st.execute("INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (120, 150, 0, 1, 9, 1, " + (42L << 24)
                    + ", 0, 4096, 2)");
            st.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER, deviceId INTEGER, "
                    + "streamId INTEGER, correlationId INTEGER, globalPid INTEGER, shortName INTEGER, "
                    + "demangledName INTEGER)");
            st.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (220, 260, 0, 9, 2, " + (42L << 24) + ", 3, 3)");
            st.execute("CREATE TABLE NVTX_EVENTS(start INTEGER, end INTEGER, eventType INTEGER, text TEXT, "
                    + "globalTid INTEGER, textId INTEGER, domainId INTEGER)");
            st.execute("INSERT INTO NVTX_EVENTS VALUES (90, 300, 59, 'phase A', " + gtid + ", NULL, 0), "
                    + "(95, 250, 60, NULL, " + gtid + ", 4, 0), (99, NULL, 34, 'here', " + gtid + ", NULL, 0), "
                    + "(1, NULL, 75, 'my domain', " + gtid + ", NULL, 1)");
        }
        CollectingSink s = new CollectingSink();
        new NsysFormat().read(db, s, Progress.NONE);
        assertEquals(42, s.processes.get(0).pid());
        assertEquals(43, s.threads.get(0).tid());
        assertEquals(1, s.transfers.size());
        assertEquals(org.hetscope.model.TransferKind.MEMSET, s.transfers.get(0).kind());
        assertEquals(4096, s.transfers.get(0).bytes());
        assertEquals(2, s.flows.size());
        Map<String, Category> cats = new TreeMap<>();
        s.slices.forEach(x -> cats.put(x.name(), x.category()));
        assertEquals(Category.ANNOTATION, cats.get("phase A"));
        assertEquals(Category.ANNOTATION, cats.get("phase B"));
        assertEquals(Category.MEMSET, cats.get("[CUDA memset]"));
        assertEquals(Category.API, cats.get("cuLaunchKernel"));
        assertEquals(1, s.instants.size());
        assertEquals("here", s.instants.get(0).name());
        assertEquals(1L, s.skippedTotal());
        Map<Long, Track> tracks = s.tracks.stream().collect(Collectors.toMap(Track::id, Function.identity()));
        Slice driver = s.slices.stream().filter(x -> x.name().equals("cuLaunchKernel")).findFirst().orElseThrow();
        assertEquals("CUDA driver", tracks.get(driver.trackId()).name());
    }
}
