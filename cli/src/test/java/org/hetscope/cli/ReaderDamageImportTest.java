package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The import command on damaged copies of the real CTF and Nsight fixtures, made here: one damaged spot ends with exit
 * code 3 and a store holding everything outside it, compared by EXCEPT ALL with the import of a copy where the damaged
 * part is removed cleanly (or with the intact import); damage that stops the read ends with exit code 1, the file and
 * the position, no stack trace and no store.
 */
class ReaderDamageImportTest {
    private static final Path FIXTURES = Path.of(System.getProperty("hetscope.root", ".")).resolve("../shared/fixtures");

    @TempDir
    Path dir;

    private Path copyCtf(String name, String to, boolean withIndex) throws Exception {
        Path src = FIXTURES.resolve("ctf").resolve(name);
        Path dst = dir.resolve(to);
        Files.createDirectories(dst);
        try (Stream<Path> s = Files.list(src)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                Files.copy(p, dst.resolve(p.getFileName()));
                dst.resolve(p.getFileName()).toFile().setWritable(true);
            }
        }
        if (withIndex && Files.isDirectory(src.resolve("index"))) {
            Files.createDirectories(dst.resolve("index"));
            try (Stream<Path> s = Files.list(src.resolve("index"))) {
                for (Path p : s.toList()) {
                    Files.copy(p, dst.resolve("index").resolve(p.getFileName()));
                }
            }
        }
        return dst;
    }

    /** Packet starts of a little-endian stream file, by the magic number. */
    private static List<Integer> packets(byte[] b) {
        List<Integer> out = new ArrayList<>();
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i + 4 <= b.length; i += 4) {
            if (bb.getInt(i) == 0xC1FC1FC1) {
                out.add(i);
            }
        }
        return out;
    }

    /** Rows of {@code columns} of {@code table} in store {@code a} but not in {@code b}, as multisets (EXCEPT ALL). */
    private static long exceptAll(Path a, Path b, String columns, String table) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("ATTACH '" + a + "' AS a (READ_ONLY)");
            st.execute("ATTACH '" + b + "' AS b (READ_ONLY)");
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM (SELECT " + columns + " FROM a." + table
                    + " EXCEPT ALL SELECT " + columns + " FROM b." + table + ")")) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static long rows(Path store, String table) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("ATTACH '" + store + "' AS s (READ_ONLY)");
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM s." + table)) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The location the store records for the skipped item whose reason contains {@code part}. */
    private static String location(Path store, String part) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("ATTACH '" + store + "' AS s (READ_ONLY)");
            try (ResultSet rs = st.executeQuery("SELECT location FROM s.skipped WHERE reason || ': ' || coalesce(detail, '') LIKE '%"
                    + part.replace("'", "''") + "%'")) {
                assertTrue(rs.next(), "no skipped item '" + part + "' in " + store);
                return rs.getString(1);
            }
        }
    }

    private CliRun importTo(Path input, String store) {
        return CliRun.of("import", input.toString(), "-o", dir.resolve(store).toString());
    }

    private void noStackTraceAndNoLeftovers(CliRun r) throws Exception {
        assertFalse(r.err().contains("\tat ") || r.err().contains("Exception in thread") || r.err().contains("Error:"),
                r.err());
        try (Stream<Path> s = Files.list(dir)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().contains(".partial")), "no .partial left");
        }
    }

    @Test
    void aZeroedCtfPacketHeaderCostsOnlyThatPacket() throws Exception {
        Path damaged = copyCtf("CTF2-7.0-trace-with-index", "damaged", false);
        Path cut = copyCtf("CTF2-7.0-trace-with-index", "cut", false);
        Path intact = copyCtf("CTF2-7.0-trace-with-index", "intact", false);
        byte[] b = Files.readAllBytes(damaged.resolve("ust_channel_0"));
        List<Integer> p = packets(b);
        assertEquals(5, p.size());
        // the clean reference: the third packet's bytes removed, nothing damaged
        Files.write(cut.resolve("ust_channel_0"), concat(Arrays.copyOfRange(b, 0, p.get(2)),
                Arrays.copyOfRange(b, p.get(3), b.length)));
        Arrays.fill(b, p.get(2), p.get(2) + 64, (byte) 0);
        Files.write(damaged.resolve("ust_channel_0"), b);

        CliRun ri = importTo(intact, "intact.duckdb");
        assertEquals(0, ri.exitCode(), ri.err());
        CliRun rc = importTo(cut, "cut.duckdb");
        assertEquals(0, rc.exitCode(), rc.err());
        CliRun rd = importTo(damaged, "damaged.duckdb");
        assertEquals(3, rd.exitCode(), rd.err());
        assertTrue(rd.err().contains("damaged_packet: unreadable packet header") && rd.err().contains(
                "(first at ust_channel_0 at byte " + p.get(2) + " ("), rd.err());
        noStackTraceAndNoLeftovers(rd);

        Path si = dir.resolve("intact.duckdb");
        Path sc = dir.resolve("cut.duckdb");
        Path sd = dir.resolve("damaged.duckdb");
        String cols = "ts, name, category, args";
        long lost = exceptAll(si, sd, cols, "instant");
        assertTrue(lost > 0, "the packet held events");
        assertEquals(lost, exceptAll(si, sc, cols, "instant"), "what is lost is the packet's events");
        assertEquals(0, exceptAll(sd, sc, cols, "instant"), "nothing else is lost, nothing made up");
        assertEquals(0, exceptAll(sc, sd, cols, "instant"));
        assertEquals(rows(sc, "instant"), rows(sd, "instant"));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void insertedBytesBeforeACtfPacketLoseNothing() throws Exception {
        Path damaged = copyCtf("bug446190", "damaged", true);
        Path intact = copyCtf("bug446190", "intact", true);
        Path stream = damaged.resolve("channel0_1");
        byte[] b = Files.readAllBytes(stream);
        int at = packets(b).get(1);
        byte[] junk = new byte[4096];
        Arrays.fill(junk, (byte) 0x5A);
        Files.write(stream, concat(concat(Arrays.copyOfRange(b, 0, at), junk), Arrays.copyOfRange(b, at, b.length)));

        assertEquals(0, importTo(intact, "intact.duckdb").exitCode());
        CliRun rd = importTo(damaged, "damaged.duckdb");
        assertEquals(3, rd.exitCode(), rd.err());
        assertTrue(rd.err().contains("skipped 4096 bytes"), rd.err());
        Path si = dir.resolve("intact.duckdb");
        Path sd = dir.resolve("damaged.duckdb");
        for (String table : new String[] {"slice", "instant", "counter"}) {
            String cols = table.equals("counter") ? "ts, value" : "ts, name";
            assertEquals(0, exceptAll(si, sd, cols, table), table + ": every record of the intact import");
            assertEquals(0, exceptAll(sd, si, cols, table), table);
        }
    }

    @Test
    void deeplyNestedCtfMetadataEndsCleanly() throws Exception {
        Path trace = copyCtf("CTF2-7.0-smalltrace", "deep", false);
        StringBuilder m = new StringBuilder("/* CTF 1.8 */\ntypealias integer { size = 8; align = 8; signed = false; }"
                + " := uint8_t;\ntrace { major = 1; minor = 8; byte_order = le; };\nevent { name = \"x\"; fields := ");
        m.append("struct { ".repeat(5000)).append("uint8_t v; ");
        m.append("} f; ".repeat(4999)).append("};\n};\n");
        Files.writeString(trace.resolve("metadata"), m);
        CliRun r = importTo(trace, "deep.duckdb");
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.err().contains("metadata at line 4") && r.err().contains("nested more than 100 levels"), r.err());
        assertFalse(r.err().contains("StackOverflow"), r.err());
        noStackTraceAndNoLeftovers(r);
        assertFalse(Files.exists(dir.resolve("deep.duckdb")));
    }

    @Test
    void aCtfFolderWithoutMetadataSaysSo() throws Exception {
        Path trace = copyCtf("bug446190", "nometa", false);
        Files.delete(trace.resolve("metadata"));
        CliRun r = importTo(trace, "nometa.duckdb");
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.err().contains("metadata missing") && r.err().contains(trace.toString()), r.err());
        assertFalse(r.err().contains("not a trace format"), r.err());
    }

    @Test
    void aTruncatedNsightExportKeepsItsIntactTables() throws Exception {
        Path src = FIXTURES.resolve("nsys/perlmutter-cloverleaf-cuda.sqlite");
        Path cut = dir.resolve("cut.sqlite");
        byte[] all = Files.readAllBytes(src);
        // after the activity tables, before the last pages of the schema: SQLite refuses the whole file
        int at = 480 * 4096 + 1000;
        Files.write(cut, Arrays.copyOf(all, at));
        assertEquals(0, importTo(src, "intact.duckdb").exitCode());
        CliRun r = importTo(cut, "cut.duckdb");
        assertEquals(3, r.exitCode(), r.err());
        assertTrue(r.err().contains("file truncated"), r.err());
        noStackTraceAndNoLeftovers(r);
        Path si = dir.resolve("intact.duckdb");
        Path sc = dir.resolve("cut.duckdb");
        assertTrue(location(sc, "file truncated").contains("page 481 (file offset " + 480 * 4096 + ")"));
        // every kernel, copy and runtime call of the intact import (their pages all lie before the cut)
        String cols = "ts, dur, name, category";
        assertEquals(0, exceptAll(si, sc, cols, "slice WHERE category IN ('kernel', 'memcpy', 'api')"));
        assertEquals(0, exceptAll(sc, si, cols, "slice"));
        assertEquals(rows(si, "kernel"), rows(sc, "kernel"));
    }

    @Test
    void aDamagedNsightRowEndsWithExitCodeThree() throws Exception {
        Path copy = dir.resolve("rows.sqlite");
        Files.copy(FIXTURES.resolve("nsys/perlmutter-cloverleaf-cuda.sqlite"), copy);
        copy.toFile().setWritable(true);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'x' WHERE rowid = "
                    + "(SELECT min(rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL)");
        }
        assertEquals(0, importTo(FIXTURES.resolve("nsys/perlmutter-cloverleaf-cuda.sqlite"), "intact.duckdb")
                .exitCode());
        CliRun r = importTo(copy, "rows.duckdb");
        assertEquals(3, r.exitCode(), r.err());
        assertTrue(r.err().contains("CUPTI_ACTIVITY_KIND_KERNEL row skipped: start is text"), r.err());
        Path si = dir.resolve("intact.duckdb");
        Path sd = dir.resolve("rows.duckdb");
        String where = location(sd, "start is text");
        assertTrue(where.contains(copy + " table CUPTI_ACTIVITY_KIND_KERNEL, row 1 (start = 'x'"), where);
        assertEquals(1, exceptAll(si, sd, "ts, dur, name", "slice"), "only the damaged kernel");
        assertEquals(0, exceptAll(sd, si, "ts, dur, name", "slice"), "no kernel at ts 0");
    }
}
