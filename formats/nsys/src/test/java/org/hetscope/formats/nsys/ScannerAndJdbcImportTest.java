package org.hetscope.formats.nsys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import org.hetscope.formats.sqlite.RowSource;
import org.hetscope.formats.sqlite.SqliteFiles;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Progress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The nsys import through the pure-Java file scanner produces exactly the model that the import through
 * sqlite-jdbc alone produces: every record of every kind, in the same order, with the same ids.
 */
class ScannerAndJdbcImportTest {

    private static void assertSameImport(Path export, String... scannedTables) throws Exception {
        try (Connection c = SqliteFiles.openReadOnly(export); RowSource rows = RowSource.open(export, c, true)) {
            for (String t : scannedTables) {
                assertTrue(rows.scans(t), t + " should go through the scanner, or this test compares nothing");
            }
        }
        CollectingSink scanned = new CollectingSink();
        new NsysFormat(true).read(export, scanned, Progress.NONE);
        CollectingSink jdbc = new CollectingSink();
        new NsysFormat(false).read(export, jdbc, Progress.NONE);
        assertFalse(jdbc.slices.isEmpty());
        assertRecords("processes", jdbc.processes, scanned.processes);
        assertRecords("threads", jdbc.threads, scanned.threads);
        assertRecords("devices", jdbc.devices, scanned.devices);
        assertRecords("tracks", jdbc.tracks, scanned.tracks);
        assertRecords("slices", jdbc.slices, scanned.slices);
        assertRecords("instants", jdbc.instants, scanned.instants);
        assertRecords("flows", jdbc.flows, scanned.flows);
        assertRecords("kernels", jdbc.kernels, scanned.kernels);
        assertRecords("transfers", jdbc.transfers, scanned.transfers);
        assertEquals(jdbc.info, scanned.info);
        assertEquals(jdbc.skipped, scanned.skipped);
    }

    private static void assertRecords(String what, List<?> expected, List<?> actual) {
        assertEquals(expected.size(), actual.size(), what + " count");
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), what + " #" + i);
        }
    }

    @Test
    void fixtureImportsIdenticallyBothWays() throws Exception {
        assertSameImport(NsysFormatTest.FIXTURE, NsysReader.KERNEL, NsysReader.RUNTIME, NsysReader.MEMCPY,
                NsysReader.SYNC);
    }

    /**
     * Every activity table the reader knows, with NULLs in the optional columns, text and text ids in NVTX, values
     * of every integer width, an old layout extended by ALTER TABLE ADD COLUMN, and enough rows for deep b-trees.
     */
    @Test
    void generatedExportWithEveryTableImportsIdenticallyBothWays(@TempDir Path dir) throws Exception {
        Path db = dir.resolve("all.sqlite");
        Random rnd = new Random(7);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            st.execute("PRAGMA page_size = 1024");
            st.execute("CREATE TABLE StringIds(id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL)");
            st.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER NOT NULL, \"end\" INTEGER NOT NULL, "
                    + "eventClass INTEGER, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, "
                    + "returnValue INTEGER)");
            st.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_DRIVER(start INTEGER, [end] INTEGER, globalTid INTEGER, "
                    + "correlationId INTEGER, nameId INTEGER)");
            st.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER, deviceId INTEGER, "
                    + "streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, "
                    + "shortName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, "
                    + "blockY INTEGER, blockZ INTEGER)");
            st.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INTEGER, end INTEGER, deviceId INTEGER, "
                    + "streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER, copyKind INTEGER, "
                    + "srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, dstDeviceId INTEGER)");
            st.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET(start INTEGER, end INTEGER, deviceId INTEGER, "
                    + "streamId INTEGER, correlationId INTEGER, globalPid INTEGER, value INTEGER, bytes INTEGER, "
                    + "memKind INTEGER)");
            st.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION(start INTEGER, end INTEGER, "
                    + "deviceId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, "
                    + "syncType INTEGER, eventId INTEGER)");
            st.execute("CREATE TABLE NVTX_EVENTS(start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, "
                    + "text TEXT, globalTid INTEGER, textId INTEGER, domainId INTEGER)");
            c.setAutoCommit(false);
            try (PreparedStatement s = c.prepareStatement("INSERT INTO StringIds VALUES (?, ?)")) {
                for (int i = 1; i <= 60; i++) {
                    s.setInt(1, i);
                    s.setString(2, i <= 10 ? "cuda" + (i % 3 == 0 ? "StreamSynchronize" : "LaunchKernel") + i
                            : "kernel_ñame_" + "x".repeat(i * 40) + i); // long names spill onto overflow pages
                    s.executeUpdate();
                }
            }
            long[] pids = {42L << 24, 43L << 24};
            for (int i = 0; i < 3000; i++) {
                long pid = pids[i % 2];
                long gtid = pid | (i % 3);
                long t = 1000L + i * 100L;
                Object corr = rnd.nextInt(20) == 0 ? null : (Object) (long) (i + 1);
                insert(c, "CUPTI_ACTIVITY_KIND_RUNTIME", t, t + 20, 1, gtid, corr, 1 + i % 10,
                        rnd.nextInt(50) == 0 ? 700L : 0L);
                if (i % 4 == 0) {
                    insert(c, "CUPTI_ACTIVITY_KIND_DRIVER", t + 5, t + 9, gtid, 100000L + i, 2);
                }
                long dev = i % 2;
                Object stream = rnd.nextInt(30) == 0 ? null : (Object) (long) (7 + i % 3);
                switch (i % 4) {
                    case 0, 1 -> insert(c, "CUPTI_ACTIVITY_KIND_KERNEL", t + 30, t + 30 + rnd.nextInt(1 << 20),
                            dev, stream, corr, pid, 11 + i % 50, 11 + (i * 7) % 50, 1L << rnd.nextInt(40),
                            rnd.nextBoolean() ? null : 2L, 1, 256, 1, rnd.nextInt(3) == 0 ? null : (Object) 1L);
                    case 2 -> insert(c, "CUPTI_ACTIVITY_KIND_MEMCPY", t + 30, t + 90, dev, stream, corr, pid,
                            (long) rnd.nextInt() & 0xFFFFFFFFL, rnd.nextInt(12) == 0 ? null : (Object) (long)
                            rnd.nextInt(14), rnd.nextBoolean() ? null : (Object) (long) rnd.nextInt(6),
                            (long) rnd.nextInt(5), rnd.nextBoolean() ? null : (Object) 1L, null);
                    default -> {
                        insert(c, "CUPTI_ACTIVITY_KIND_MEMSET", t + 30, t + 40, dev, stream, corr, pid,
                                (long) rnd.nextInt(256), 4096L * i, rnd.nextBoolean() ? null : (Object) 2L);
                        insert(c, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", t + 41, t + 60, dev,
                                rnd.nextBoolean() ? 4294967295L : (Object) 8L, corr, pid, (long) rnd.nextInt(5),
                                rnd.nextBoolean() ? 4294967295L : (Object) (long) i);
                    }
                }
                int kind = rnd.nextInt(5);
                insert(c, "NVTX_EVENTS", t, kind == 2 ? null : (Object) (t + 500), kind == 0 ? 34L : kind == 1
                        ? 75L : 59L, rnd.nextBoolean() ? "range " + i : null, gtid,
                        rnd.nextBoolean() ? (Object) (long) (1 + i % 60) : null, 0L);
            }
            c.commit();
            c.setAutoCommit(true);
            // later nsys versions add columns: old rows lack them in their records
            st.execute("ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN registersPerThread INTEGER");
            st.execute("ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN staticSharedMemory INTEGER DEFAULT 48");
            st.execute("ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN dynamicSharedMemory INTEGER");
            st.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, streamId, correlationId, "
                    + "globalPid, shortName, registersPerThread, staticSharedMemory) VALUES (900000, 900100, 1, 7, "
                    + "3, " + pids[0] + ", 12, 64, 0)");
        }
        assertSameImport(db, NsysReader.KERNEL, NsysReader.RUNTIME, NsysReader.DRIVER, NsysReader.MEMCPY,
                NsysReader.MEMSET, NsysReader.SYNC, NsysReader.NVTX);
    }

    private static void insert(Connection c, String table, Object... values) throws Exception {
        String marks = "?" + ", ?".repeat(values.length - 1);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " VALUES (" + marks + ")")) {
            for (int i = 0; i < values.length; i++) {
                ps.setObject(i + 1, values[i] instanceof Integer n ? Long.valueOf(n) : values[i]);
            }
            ps.executeUpdate();
        }
    }
}
