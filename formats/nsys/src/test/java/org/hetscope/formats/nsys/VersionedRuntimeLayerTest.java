package org.hetscope.formats.nsys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.hetscope.model.Category;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Flow;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceSink;
import org.hetscope.model.TraceThread;
import org.hetscope.model.Track;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Newer Nsight exports record each CUDA runtime call twice, the public entry and the versioned entry point nested in
 * it with the same correlation id. The export here follows the documented CUPTI_ACTIVITY_KIND_RUNTIME layout (start,
 * end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId) with pairs in both row orders, pairs on
 * two interleaved threads, lone versioned records, a public name that itself ends in {@code _v2}, a five-digit
 * version, and a second process reusing a correlation id. The expected calls are recounted from the file by SQL.
 */
class VersionedRuntimeLayerTest {
    private static final String MERGED = CollectingSink.key(org.hetscope.model.SkipReason.MERGED_RECORD,
            NsysReader.RUNTIME_MERGED);

    @TempDir
    Path dir;

    private static final long PID = 42;
    private static final long A = (PID << 24) | 43;
    private static final long B = (PID << 24) | 44;
    private static final long OTHER_PID = 50;
    private static final long C = (OTHER_PID << 24) | 51;

    /** SQL for the base name of a versioned runtime name (four or five version digits), else the name. */
    private static final String PUBLIC_NAME = "CASE WHEN s.value GLOB '*_v[0-9][0-9][0-9][0-9]' "
            + "THEN substr(s.value, 1, length(s.value) - 6) WHEN s.value GLOB '*_v[0-9][0-9][0-9][0-9][0-9]' "
            + "THEN substr(s.value, 1, length(s.value) - 7) ELSE s.value END";
    private static final String VERSIONED = "(s.value GLOB '*_v[0-9][0-9][0-9][0-9]' "
            + "OR s.value GLOB '*_v[0-9][0-9][0-9][0-9][0-9]')";

    private static void exec(Connection c, String... sql) throws Exception {
        try (Statement st = c.createStatement()) {
            for (String s : sql) {
                st.executeUpdate(s);
            }
        }
    }

    private static String runtime(long start, long end, long gtid, long corr, long nameId, long ret) {
        return "(" + start + ", " + end + ", 0, " + gtid + ", " + corr + ", " + nameId + ", " + ret + ", NULL)";
    }

    /** An export shaped like a newer Nsight Systems one (schema 3.x column order), rows in the order written here. */
    private Path export() throws Exception {
        Path db = dir.resolve("versioned.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            exec(c, "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL)",
                    "INSERT INTO StringIds VALUES (1, 'cudaMemcpy'), (2, 'cudaMemcpy_v3020'), "
                            + "(3, 'cudaLaunchKernel'), (4, 'cudaLaunchKernel_v7000'), "
                            + "(5, 'cudaGetDeviceProperties_v2'), (6, 'cudaGetDeviceProperties_v2_v12000'), "
                            + "(7, 'cudaGetDevice'), (8, 'cudaMallocAsync_v11020'), (9, 'saxpy'), (10, 'reduce')",
                    "CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT)",
                    "INSERT INTO PROCESSES VALUES (" + (PID << 24) + ", 42, 'app'), (" + (OTHER_PID << 24)
                            + ", 50, 'other')",
                    "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, "
                            + "eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, "
                            + "nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER)",
                    "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES "
                            // thread A: a memcpy and its versioned twin
                            + runtime(100, 200, A, 1, 1, 0) + ", " + runtime(105, 195, A, 1, 2, 0) + ", "
                            // thread B interleaved: a launch whose twin comes after a row of thread A
                            + runtime(150, 190, B, 20, 3, 0) + ", "
                            + runtime(300, 340, A, 2, 3, 0) + ", "
                            + runtime(152, 188, B, 20, 4, 0) + ", "
                            + runtime(302, 338, A, 2, 4, 0) + ", "
                            // a versioned launch without its public wrapper (failed: its return value is kept)
                            + runtime(400, 430, A, 3, 4, 1) + ", "
                            // a call recorded once only
                            + runtime(500, 520, A, 4, 7, 0) + ", "
                            // a public name ending in _v2, and its versioned twin
                            + runtime(600, 700, A, 5, 5, 0) + ", " + runtime(601, 699, A, 5, 6, 0) + ", "
                            // the versioned record first (same start as its public call)
                            + runtime(800, 890, A, 6, 2, 0) + ", " + runtime(800, 900, A, 6, 1, 0) + ", "
                            // a five-digit version, last row of its thread
                            + runtime(950, 960, A, 7, 8, 0) + ", "
                            // another process, same correlation id as thread A's first memcpy: a call of its own
                            + runtime(100, 130, C, 1, 2, 0),
                    "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, "
                            + "deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, "
                            + "streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, "
                            + "demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, "
                            + "registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, "
                            + "gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, "
                            + "blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL, "
                            + "dynamicSharedMemory INTEGER NOT NULL)",
                    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES "
                            + "(350, 380, 0, 1, NULL, 7, 2, " + (PID << 24) + ", 9, 9, 16, 4, 1, 1, 128, 1, 1, 0, 0), "
                            + "(440, 470, 0, 1, NULL, 7, 3, " + (PID << 24) + ", 10, 10, 16, 4, 1, 1, 128, 1, 1, 0, 0), "
                            + "(200, 230, 0, 1, NULL, 8, 20, " + (PID << 24) + ", 9, 9, 16, 4, 1, 1, 128, 1, 1, 0, 0)",
                    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, "
                            + "deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, "
                            + "streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, "
                            + "bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, srcKind INTEGER, dstKind INTEGER, "
                            + "srcDeviceId INTEGER, dstDeviceId INTEGER)",
                    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES "
                            + "(120, 180, 0, 1, NULL, 7, 1, " + (PID << 24) + ", 4096, 1, 0, 2, NULL, 0), "
                            + "(820, 880, 0, 1, NULL, 7, 6, " + (PID << 24) + ", 1024, 2, 2, 0, 0, NULL), "
                            + "(110, 125, 0, 2, NULL, 9, 1, " + (OTHER_PID << 24) + ", 512, 1, 0, 2, NULL, 0)");
        }
        return db;
    }

    private static long one(Path db, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Per public name: count and total ns of the calls the file holds once the versioned twins are left out. */
    private static Map<String, List<Long>> expectedCalls(Path db) throws Exception {
        Map<String, List<Long>> out = new TreeMap<>();
        String twin = "EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME o JOIN StringIds so ON so.id = o.nameId "
                + "WHERE o.globalTid = r.globalTid AND o.correlationId = r.correlationId "
                + "AND o.start <= r.start AND r.\"end\" <= o.\"end\" AND NOT " + VERSIONED.replace("s.value", "so.value")
                + ")";
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT " + PUBLIC_NAME + ", count(*), sum(r.\"end\" - r.start) "
                     + "FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
                     + "WHERE NOT (" + VERSIONED + " AND " + twin + ") GROUP BY 1")) {
            while (rs.next()) {
                out.put(rs.getString(1), List.of(rs.getLong(2), rs.getLong(3)));
            }
        }
        return out;
    }

    private static Map<String, List<Long>> storedCalls(CollectingSink s) {
        Map<String, long[]> acc = new TreeMap<>();
        for (Slice x : s.slices) {
            if ("cuda_runtime".equals(x.sourceCategory())) {
                long[] a = acc.computeIfAbsent(x.name(), k -> new long[2]);
                a[0]++;
                a[1] += x.dur();
            }
        }
        Map<String, List<Long>> out = new TreeMap<>();
        acc.forEach((k, v) -> out.put(k, List.of(v[0], v[1])));
        return out;
    }

    @ParameterizedTest(name = "scanner {0}")
    @ValueSource(booleans = {true, false})
    void eachCallIsStoredOnceUnderItsPublicName(boolean scan) throws Exception {
        Path db = export();
        Map<String, String> where = new HashMap<>();
        CollectingSink s = new CollectingSink() {
            @Override
            public void skipped(org.hetscope.model.SkipReason reason, String detail, String at, long count) {
                super.skipped(reason, detail, at, count);
                String what = key(reason, detail);
                where.putIfAbsent(what, at);
            }
        };
        new NsysFormat(scan).read(db, s, Progress.NONE);

        Map<String, List<Long>> expected = expectedCalls(db);
        // the hand count of the rows above, then the SQL recount must agree with both
        assertEquals(Map.of("cudaMemcpy", List.of(3L, 230L), "cudaLaunchKernel", List.of(3L, 110L),
                "cudaGetDevice", List.of(1L, 20L), "cudaGetDeviceProperties_v2", List.of(1L, 100L),
                "cudaMallocAsync", List.of(1L, 10L)), expected);
        assertEquals(expected, storedCalls(s));

        // the outer call's times are the ones kept; the lone versioned call keeps its own times and return value
        List<Slice> calls = s.slices.stream().filter(x -> "cuda_runtime".equals(x.sourceCategory())).toList();
        assertTrue(calls.stream().anyMatch(x -> x.ts() == 800 && x.dur() == 100 && x.name().equals("cudaMemcpy")));
        Slice lone = calls.stream().filter(x -> x.correlationId() == 3).findFirst().orElseThrow();
        assertEquals("cudaLaunchKernel", lone.name());
        assertEquals(400, lone.ts());
        assertEquals("{\"returnValue\":1}", lone.argsJson());
        assertTrue(calls.stream().noneMatch(x -> NsysReader.publicName(x.name()) != null), "no versioned name left");

        // merged twins are counted as information, not damage: 14 rows, 9 calls
        assertEquals(14, one(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
        assertEquals(9, calls.size());
        assertEquals(Map.of(MERGED, 5L), s.skipped);
        assertTrue(where.get(MERGED).endsWith("table CUPTI_ACTIVITY_KIND_RUNTIME, row 2"),
                where.toString());
        assertTrue(s.skipped.keySet().stream().noneMatch(k -> org.hetscope.model.CollectingSink.isDamageKey(k)));

        // every kernel and copy is launched from the one call left of its pair, in its own process
        Map<Long, Slice> byId = s.slices.stream().collect(Collectors.toMap(Slice::id, Function.identity()));
        Map<Long, Track> tracks = s.tracks.stream().collect(Collectors.toMap(Track::id, Function.identity()));
        Map<Long, Long> pidOfProcess = new HashMap<>();
        s.processes.forEach(p -> pidOfProcess.put(p.id(), p.pid()));
        Map<Long, Long> flowsInto = new HashMap<>();
        for (Flow f : s.flows) {
            flowsInto.merge(f.toSliceId(), 1L, Long::sum);
            Slice from = byId.get(f.fromSliceId());
            Slice to = byId.get(f.toSliceId());
            assertEquals(to.correlationId(), from.correlationId());
            assertEquals(to.category() == Category.KERNEL ? "cudaLaunchKernel" : "cudaMemcpy", from.name());
            assertEquals(pidOfProcess.get(tracks.get(from.trackId()).processId()),
                    pidOfProcess.get(tracks.get(to.trackId()).processId()));
        }
        List<Slice> gpu = s.slices.stream().filter(x -> x.category() == Category.KERNEL
                || x.category() == Category.MEMCPY).toList();
        assertEquals(6, gpu.size());
        for (Slice g : gpu) {
            assertEquals(1L, flowsInto.getOrDefault(g.id(), 0L), "one launch flow into " + g);
        }
        assertEquals(6, s.flows.size());
        // the other process's copy comes from its own call, not from thread A's memcpy with the same id
        Slice otherCopy = gpu.stream().filter(x -> x.ts() == 110).findFirst().orElseThrow();
        Flow f = s.flows.stream().filter(x -> x.toSliceId() == otherCopy.id()).findFirst().orElseThrow();
        TraceThread t = s.threads.stream().filter(x -> x.id() == tracks.get(byId.get(f.fromSliceId()).trackId())
                .threadId()).findFirst().orElseThrow();
        assertEquals(51, t.tid());
    }

    @Test
    void storeStatisticsAreNotDoubled() throws Exception {
        Path export = export();
        Path store = dir.resolve("versioned.duckdb");
        try (StoreWriter w = StoreWriter.create(store)) {
            new NsysFormat().read(export, w, Progress.NONE);
            assertEquals(0, w.damagedTotal(), "merged twins are not damage: the import exits with 0");
            w.commit();
        }
        try (Store st = Store.open(store)) {
            assertEquals(9L, st.scalarLong("select count(*) from slice where source_category = 'cuda_runtime'"));
            assertEquals(3L, st.scalarLong("select count from hs_slice_stats where category = 'api' "
                    + "and name = 'cudaLaunchKernel'"));
            assertEquals(110L, st.scalarLong("select total_ns from hs_slice_stats where category = 'api' "
                    + "and name = 'cudaLaunchKernel'"));
            assertEquals(3L, st.scalarLong("select count from hs_slice_stats where category = 'api' "
                    + "and name = 'cudaMemcpy'"));
            assertEquals(0L, st.scalarLong("select count(*) from hs_slice_stats where regexp_matches(name, "
                    + "'_v[0-9]{4,}$')"));
            assertEquals(5L, st.scalarLong("select sum(count) from skipped where reason = 'merged_record' "
                    + "and severity = 'info' and detail = ?", NsysReader.RUNTIME_MERGED));
            assertEquals(6L, st.scalarLong("select count(*) from flow"));
        }
    }

    @Test
    void exportWithoutPublicRecordsKeepsEveryCallUnderItsPublicName() throws Exception {
        // the shared fixture (Nsight 2024.5) records only the versioned entry points: one call each, none merged
        CollectingSink s = new CollectingSink();
        new NsysFormat().read(NsysFormatTest.FIXTURE, s, Progress.NONE);
        Map<String, List<Long>> expected = expectedCalls(NsysFormatTest.FIXTURE);
        assertEquals(expected, storedCalls(s));
        assertEquals(one(NsysFormatTest.FIXTURE, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"),
                storedCalls(s).values().stream().mapToLong(v -> v.get(0)).sum());
        assertTrue(expected.containsKey("cudaLaunchKernel") && !expected.containsKey("cudaLaunchKernel_v7000"));
        assertFalse(s.skipped.containsKey(MERGED));
    }

    @ParameterizedTest(name = "scanner {0}")
    @ValueSource(booleans = {true, false})
    void aRuntimeTableCutShortKeepsTheCallHeldForItsTwin(boolean scan) throws Exception {
        // the fixture's calls are all versioned records, each held until the next row of its thread: the one held
        // when a damaged page ends the table is stored too
        Path copy = dir.resolve("damaged.sqlite");
        java.nio.file.Files.copy(NsysFormatTest.FIXTURE, copy);
        copy.toFile().setWritable(true);
        long runtime = one(copy, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME");
        org.hetscope.formats.sqlite.SqliteDamage.LostLeaf lost =
                org.hetscope.formats.sqlite.SqliteDamage.breakLastLeaf(copy, NsysReader.RUNTIME);
        assertTrue(lost.rows() > 0 && lost.rows() < runtime);
        CollectingSink s = new CollectingSink();
        new NsysFormat(scan).read(copy, s, Progress.NONE);
        assertEquals(runtime - lost.rows(), storedCalls(s).values().stream().mapToLong(v -> v.get(0)).sum());
        assertTrue(s.skipped.keySet().stream().anyMatch(k -> org.hetscope.model.CollectingSink.isDamageKey(k)));
    }

    @Test
    void publicNameDropsOnlyAVersionSuffix() {
        assertEquals("cudaMemcpy", NsysReader.publicName("cudaMemcpy_v3020"));
        assertEquals("cudaMallocAsync", NsysReader.publicName("cudaMallocAsync_v11020"));
        assertEquals("cudaGetDeviceProperties_v2", NsysReader.publicName("cudaGetDeviceProperties_v2_v12000"));
        assertEquals("cudaMemcpy_ptds", NsysReader.publicName("cudaMemcpy_ptds_v7000"));
        assertNull(NsysReader.publicName("cudaGetDeviceProperties_v2"));
        assertNull(NsysReader.publicName("cudaMemcpy"));
        assertNull(NsysReader.publicName("cudaFoo_v302"));
        assertNull(NsysReader.publicName("cudaFoo_v30a0"));
        assertNull(NsysReader.publicName("_v3020"));
        assertNull(NsysReader.publicName("<unknown API>"));
    }
}
