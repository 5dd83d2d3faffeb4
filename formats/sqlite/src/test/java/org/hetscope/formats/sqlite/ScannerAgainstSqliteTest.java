package org.hetscope.formats.sqlite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file scanner against SQLite itself (sqlite-jdbc): every row of every rowid table, value by value with its
 * storage class, equals {@code SELECT rowid, * ... ORDER BY rowid}; on the real nsys export and on databases built
 * here to hit every serial type, overflow chains, both extreme page sizes, deep trees and ALTER TABLE ADD COLUMN.
 */
class ScannerAgainstSqliteTest {
    static final Path NSYS_FIXTURE = Path.of(System.getProperty("hetscope.root", "."))
            .resolve("../shared/fixtures/nsys/perlmutter-cloverleaf-cuda.sqlite");

    /** Compares every scannable table of {@code db} with SQLite; returns the number of rows compared. */
    static long assertSameRows(Path db) throws Exception {
        long rows = 0;
        try (SqliteFile file = SqliteFile.open(db);
             Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath())) {
            Set<String> expectedTables = new TreeSet<>();
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                    "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND rootpage > 0")) {
                while (rs.next()) {
                    String sql = rs.getString(2).toUpperCase();
                    if (!sql.matches("(?s).*WITHOUT\\s+ROWID\\s*")) {
                        expectedTables.add(rs.getString(1));
                    }
                }
            }
            Set<String> scanned = new TreeSet<>();
            for (TableDefinition t : file.tables()) {
                if (t.scannable()) {
                    scanned.add(t.name());
                }
            }
            assertEquals(expectedTables, scanned, db + ": rowid tables");
            for (String table : scanned) {
                rows += assertSameRows(file, c, table);
            }
        }
        return rows;
    }

    private static long assertSameRows(SqliteFile file, Connection c, String table) throws Exception {
        TableCursor cursor = file.cursor(table);
        long rows = 0;
        List<String> pragmaNames = new ArrayList<>();
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("PRAGMA table_info(\"" + table.replace("\"", "\"\"") + "\")")) {
            while (rs.next()) {
                pragmaNames.add(rs.getString("name"));
            }
        }
        List<String> parsedNames = cursor.table().columns().stream().map(TableDefinition.Column::name).toList();
        assertEquals(pragmaNames, parsedNames, table + ": columns from CREATE TABLE");
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT _rowid_, * FROM \"" + table.replace("\"", "\"\"") + "\" ORDER BY _rowid_")) {
            int n = rs.getMetaData().getColumnCount() - 1;
            while (rs.next()) {
                assertTrue(cursor.next(), table + ": scanner ends before row " + rs.getLong(1));
                assertEquals(rs.getLong(1), cursor.rowid(), table + ": rowid");
                for (int col = 0; col < n; col++) {
                    assertSameValue(rs.getObject(col + 2), cursor, col,
                            table + " rowid " + rs.getLong(1) + " column " + parsedNames.get(col));
                }
                rows++;
            }
        }
        assertFalse(cursor.next(), table + ": scanner has more rows than SQLite");
        assertEquals(rows, file.rowCount(table), table + ": row count from the leaf headers");
        return rows;
    }

    private static void assertSameValue(Object expected, TableCursor cursor, int col, String where) {
        if (expected == null) {
            assertTrue(cursor.isNull(col), where + " should be NULL");
            assertEquals(TableCursor.NULL, cursor.type(col), where);
            assertNull(cursor.getText(col), where);
        } else if (expected instanceof Integer || expected instanceof Long) {
            assertEquals(TableCursor.INTEGER, cursor.type(col), where + " type");
            assertEquals(((Number) expected).longValue(), cursor.getLong(col), where);
            assertFalse(cursor.isNull(col), where);
        } else if (expected instanceof Double d) {
            assertEquals(TableCursor.FLOAT, cursor.type(col), where + " type");
            assertEquals(Double.doubleToRawLongBits(d), Double.doubleToRawLongBits(cursor.getDouble(col)), where);
        } else if (expected instanceof String s) {
            assertEquals(TableCursor.TEXT, cursor.type(col), where + " type");
            assertEquals(s, cursor.getText(col), where);
        } else if (expected instanceof byte[] b) {
            assertEquals(TableCursor.BLOB, cursor.type(col), where + " type");
            assertArrayEquals(b, cursor.getBlob(col), where);
        } else {
            throw new AssertionError(where + ": unexpected JDBC value " + expected.getClass());
        }
    }

    @Test
    void nsysExportEveryRowOfEveryTable() throws Exception {
        long rows = assertSameRows(NSYS_FIXTURE);
        assertTrue(rows > 5000, "rows compared: " + rows);
    }

    /** Builds a database with page size {@code pageSize} full of awkward values through SQLite. */
    static Path build(Path dir, int pageSize, int rows, long seed) throws Exception {
        Path db = dir.resolve("gen-" + pageSize + "-" + seed + ".sqlite");
        Random rnd = new Random(seed);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             Statement st = c.createStatement()) {
            st.execute("PRAGMA page_size = " + pageSize);
            st.execute("""
                    CREATE TABLE "odd ""name"" table" (
                      id INTEGER PRIMARY KEY,   -- aliases the rowid
                      i INT NOT NULL DEFAULT 0,
                      r REAL /* integral reals are stored as integers */,
                      [t col] TEXT COLLATE NOCASE,
                      `b` BLOB,
                      n NUMERIC CHECK (n IS NULL OR n > -1e300),
                      untyped,
                      d DECIMAL(10, 2) CONSTRAINT positive CHECK (d >= 0 OR d < 0),
                      big UNSIGNED BIG INT,
                      'quoted' VARCHAR (255),
                      CONSTRAINT u UNIQUE (i, r, id)
                    )""");
            st.execute("CREATE TABLE plain (a INT PRIMARY KEY, b TEXT, c)"); // INT: not a rowid alias
            st.execute("CREATE TABLE tpk (x TEXT, k INTEGER, y REAL, PRIMARY KEY (k DESC))");
            st.execute("CREATE TABLE wr (k TEXT PRIMARY KEY, v INT) WITHOUT ROWID");
            st.execute("CREATE INDEX plain_b ON plain(b)");
            st.execute("CREATE VIEW v AS SELECT * FROM plain");
            c.setAutoCommit(false);
            try (PreparedStatement odd = c.prepareStatement("INSERT INTO \"odd \"\"name\"\" table\" (id, i, r, "
                    + "\"t col\", b, n, untyped, d, big, quoted) VALUES (?,?,?,?,?,?,?,?,?,?)");
                 PreparedStatement plain = c.prepareStatement("INSERT INTO plain VALUES (?,?,?)");
                 PreparedStatement tpk = c.prepareStatement("INSERT INTO tpk VALUES (?,?,?)");
                 PreparedStatement wr = c.prepareStatement("INSERT INTO wr VALUES (?,?)")) {
                long[] edges = {0, 1, -1, 127, -128, 128, 255, 32767, -32768, 32768, 8388607, -8388608, 8388608,
                    2147483647L, -2147483648L, 2147483648L, 140737488355327L, -140737488355328L, 140737488355328L,
                    Long.MAX_VALUE, Long.MIN_VALUE};
                for (int k = 0; k < rows; k++) {
                    long id = k < edges.length ? k * 3 + 1 : rnd.nextInt(1 << 30) * 4L + 1000;
                    odd.setLong(1, id);
                    odd.setLong(2, k < edges.length ? edges[k] : rnd.nextLong() >> rnd.nextInt(64));
                    if (rnd.nextInt(5) == 0) {
                        odd.setNull(3, java.sql.Types.DOUBLE);
                    } else if (rnd.nextBoolean()) {
                        odd.setDouble(3, rnd.nextInt(1000)); // integral: stored as an integer
                    } else {
                        odd.setDouble(3, rnd.nextGaussian() * Math.pow(10, rnd.nextInt(40) - 20));
                    }
                    setText(odd, 4, rnd, pageSize);
                    if (rnd.nextInt(4) == 0) {
                        odd.setNull(5, java.sql.Types.BLOB);
                    } else {
                        byte[] b = new byte[size(rnd, pageSize)];
                        rnd.nextBytes(b);
                        odd.setBytes(5, b);
                    }
                    switch (rnd.nextInt(4)) {
                        case 0 -> odd.setString(6, Integer.toString(rnd.nextInt(100000))); // becomes an integer
                        case 1 -> odd.setString(6, "1.5e" + rnd.nextInt(10));
                        case 2 -> odd.setNull(6, java.sql.Types.NUMERIC);
                        default -> odd.setString(6, "not a number");
                    }
                    switch (rnd.nextInt(5)) {
                        case 0 -> odd.setLong(7, rnd.nextInt(2)); // constants 0 and 1 (serial types 8 and 9)
                        case 1 -> odd.setDouble(7, rnd.nextDouble());
                        case 2 -> odd.setString(7, "x" + rnd.nextInt());
                        case 3 -> odd.setBytes(7, new byte[] {(byte) rnd.nextInt()});
                        default -> odd.setNull(7, java.sql.Types.NULL);
                    }
                    odd.setDouble(8, Math.round(rnd.nextDouble() * 10000) / 100.0);
                    odd.setLong(9, rnd.nextLong());
                    odd.setString(10, rnd.nextInt(3) == 0 ? null : "ünïcødé ✓ 𝄞 " + k);
                    odd.executeUpdate();
                    plain.setLong(1, k);
                    plain.setString(2, "b" + (k % 97));
                    plain.setLong(3, k * 1000003L);
                    plain.executeUpdate();
                    tpk.setString(1, "x" + k);
                    tpk.setLong(2, 5_000_000L - k * 7);
                    tpk.setDouble(3, k / 7.0);
                    tpk.executeUpdate();
                    wr.setString(1, "k" + k);
                    wr.setLong(2, k);
                    wr.executeUpdate();
                }
            }
            c.commit();
            c.setAutoCommit(true);
            // rows written before ADD COLUMN lack these columns in their records
            st.execute("ALTER TABLE plain ADD COLUMN added_null INT");
            st.execute("ALTER TABLE plain ADD COLUMN added_int INTEGER DEFAULT -42");
            st.execute("ALTER TABLE plain ADD COLUMN added_text TEXT DEFAULT 'it''s'");
            st.execute("ALTER TABLE plain ADD COLUMN added_real REAL DEFAULT 2");
            st.execute("ALTER TABLE plain ADD COLUMN added_float DOUBLE DEFAULT -0.25");
            st.execute("ALTER TABLE plain ADD COLUMN added_blob BLOB DEFAULT x'00ff10'");
            st.execute("INSERT INTO plain (a, b, c, added_null, added_int) VALUES (-5, 'after', NULL, 7, 8)");
            st.execute("DELETE FROM plain WHERE a % 5 = 3"); // free pages and freeblocks
        }
        return db;
    }

    private static void setText(PreparedStatement ps, int index, Random rnd, int pageSize) throws Exception {
        if (rnd.nextInt(6) == 0) {
            ps.setNull(index, java.sql.Types.VARCHAR);
            return;
        }
        int n = size(rnd, pageSize);
        StringBuilder s = new StringBuilder(n);
        while (s.length() < n) {
            s.append(rnd.nextInt(10) == 0 ? "é€" : Character.toString('a' + rnd.nextInt(26)));
        }
        ps.setString(index, s.toString());
    }

    /** Sizes around the local-payload thresholds of the page size, and now and then several pages long. */
    private static int size(Random rnd, int pageSize) {
        return switch (rnd.nextInt(8)) {
            case 0 -> pageSize - 40 + rnd.nextInt(80);
            case 1 -> rnd.nextInt(pageSize * 5);
            case 2 -> pageSize / 8 + rnd.nextInt(pageSize / 4);
            default -> rnd.nextInt(40);
        };
    }

    @Test
    void smallestPagesManyRowsDeepTrees(@TempDir Path dir) throws Exception {
        Path db = build(dir, 512, 3000, 1);
        try (SqliteFile f = SqliteFile.open(db)) {
            assertEquals(512, f.pageSize());
            assertTrue(f.pageCount() > 1000, "pages: " + f.pageCount());
        }
        assertTrue(assertSameRows(db) > 8000); // 3000 + 3000 + about 2400 left after the DELETE
    }

    @Test
    void largestPages(@TempDir Path dir) throws Exception {
        Path db = build(dir, 65536, 1500, 2);
        try (SqliteFile f = SqliteFile.open(db)) {
            assertEquals(65536, f.pageSize());
        }
        assertTrue(assertSameRows(db) > 4000);
    }

    @Test
    void defaultPages(@TempDir Path dir) throws Exception {
        assertTrue(assertSameRows(build(dir, 4096, 2000, 3)) > 5000);
    }

    @Test
    void withoutRowidTablesAreLeftToSqlite(@TempDir Path dir) throws Exception {
        Path db = build(dir, 1024, 10, 4);
        try (SqliteFile f = SqliteFile.open(db)) {
            assertFalse(f.canScan("wr"));
            assertTrue(f.canScan("PLAIN"));
            SqliteFormatException e = assertThrows(SqliteFormatException.class, () -> f.cursor("wr"));
            assertTrue(e.getMessage().contains("WITHOUT ROWID"), e.getMessage());
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             RowSource rows = RowSource.open(db, c, true)) {
            assertFalse(rows.scans("wr"));
            assertTrue(rows.scans("plain"));
            long sum = 0;
            try (TableRows r = rows.rows("wr", "v", "nope")) {
                while (r.next()) {
                    sum += r.getLong(0);
                    assertTrue(r.isNull(1));
                }
            }
            assertEquals(45, sum); // v = 0..9
            assertEquals(10, rows.count("wr"));
        }
    }

    @Test
    void utf16DatabaseIsRefusedClearly(@TempDir Path dir) throws Exception {
        Path db = dir.resolve("utf16.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             Statement st = c.createStatement()) {
            st.execute("PRAGMA encoding = 'UTF-16le'");
            st.execute("CREATE TABLE t (a TEXT)");
            st.execute("INSERT INTO t VALUES ('hello')");
        }
        SqliteFormatException e = assertThrows(SqliteFormatException.class, () -> SqliteFile.open(db));
        assertTrue(e.getMessage().contains("UTF-16") && e.getMessage().contains(db.toString()), e.getMessage());
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             RowSource rows = RowSource.open(db, c, true); TableRows r = rows.rows("t", "a")) {
            assertFalse(rows.scans("t"));
            assertTrue(r.next());
            assertEquals("hello", r.getText(0));
        }
    }

    @Test
    void fileWithLiveWriteAheadLogIsLeftToSqlite(@TempDir Path dir) throws Exception {
        Path db = dir.resolve("wal.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode = WAL");
            st.execute("PRAGMA wal_autocheckpoint = 0");
            st.execute("CREATE TABLE t (a INT)");
            st.execute("INSERT INTO t VALUES (1), (2), (3)");
            assertTrue(Files.size(dir.resolve("wal.sqlite-wal")) > 0);
            assertTrue(SqliteFile.hasPendingChanges(db));
            assertThrows(SqliteFormatException.class, () -> SqliteFile.open(db));
            try (Connection reader = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
                 RowSource rows = RowSource.open(db, reader, true)) {
                assertFalse(rows.scans("t"));
                assertEquals(3, rows.count("t"));
            }
        }
    }
}
