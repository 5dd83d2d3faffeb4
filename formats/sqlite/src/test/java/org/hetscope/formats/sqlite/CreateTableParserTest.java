package org.hetscope.formats.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Column lists parsed from CREATE TABLE text against what SQLite itself reports (PRAGMA table_xinfo: name, declared
 * type, and which column is the rowid alias), for statements written to be awkward.
 */
class CreateTableParserTest {
    private static final String[] STATEMENTS = {
        "CREATE TABLE a (x)",
        "create temp table if not exists \"B\"\"q\" ( [my col] varchar ( 10 ), `back``tick` int, 'single' text )",
        "CREATE TABLE main.c (id INTEGER PRIMARY KEY ASC, v DOUBLE PRECISION NOT NULL DEFAULT -1.5e3, "
            + "w NUMERIC(10,2) CHECK (w > 0 AND coalesce(w, 2) IS NOT NULL OR 1), /* comment, with (parens) */ "
            + "z UNSIGNED BIG INT -- trailing comment\n REFERENCES a(x) ON DELETE CASCADE)",
        "CREATE TABLE d (k INTEGER, v TEXT, CONSTRAINT pk PRIMARY KEY (k), UNIQUE (v), CHECK (k <> 0), "
            + "FOREIGN KEY (v) REFERENCES a(x))",
        "CREATE TABLE e (k INTEGER PRIMARY KEY DESC, v BLOB)",
        "CREATE TABLE f (k INT PRIMARY KEY, v, w DEFAULT 'it''s', u DEFAULT (1 + 2))",
        "CREATE TABLE g (a INTEGER, b INTEGER, PRIMARY KEY (a, b))",
        "CREATE TABLE h (a INTEGER, b AS (a * 2), c INTEGER GENERATED ALWAYS AS (a + 1) STORED)",
        "CREATE TABLE i (k TEXT PRIMARY KEY, v INT) WITHOUT ROWID",
        "CREATE TABLE \"end\" (\"start\" INTEGER NOT NULL, end INTEGER NOT NULL, key INTEGER, primary_x INT)",
    };

    @Test
    void columnsAndRowidAliasAsSqliteSeesThem(@TempDir Path dir) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("p.sqlite"));
             Statement st = c.createStatement()) {
            for (String sql : STATEMENTS) {
                st.execute(sql);
                TableDefinition t = CreateTableParser.parse(sql);
                List<String> names = new ArrayList<>();
                List<String> types = new ArrayList<>();
                int pkColumns = 0;
                int pkIndex = -1;
                try (ResultSet rs = st.executeQuery("PRAGMA table_xinfo(\"" + t.name().replace("\"", "\"\"")
                        + "\")")) {
                    while (rs.next()) {
                        names.add(rs.getString("name"));
                        types.add(rs.getString("type"));
                        if (rs.getInt("pk") > 0) {
                            pkColumns++;
                            pkIndex = names.size() - 1;
                        }
                    }
                }
                assertEquals(names, t.columns().stream().map(TableDefinition.Column::name).toList(), sql);
                for (int i = 0; i < names.size(); i++) {
                    assertEquals(types.get(i).replace(" ", "").toUpperCase(),
                            t.columns().get(i).declaredType().replace(" ", "").toUpperCase(), sql + " type " + i);
                }
                // SQLite's own rule: the rowid alias is a lone INTEGER primary key of a rowid table; check it
                // through the data: a row inserted with that column set must get it as its rowid
                if (t.rowidAlias() >= 0) {
                    assertEquals(1, pkColumns, sql);
                    assertEquals(pkIndex, t.rowidAlias(), sql);
                    String col = "\"" + names.get(pkIndex).replace("\"", "\"\"") + "\"";
                    String table = "\"" + t.name().replace("\"", "\"\"") + "\"";
                    st.execute("INSERT INTO " + table + " (" + col + ") VALUES (987654)");
                    try (ResultSet rs = st.executeQuery("SELECT rowid FROM " + table + " WHERE " + col
                            + " = 987654")) {
                        assertEquals(987654, rs.getLong(1), sql);
                    }
                } else if (pkColumns == 1 && !t.withoutRowid()) {
                    String col = "\"" + names.get(pkIndex).replace("\"", "\"\"") + "\"";
                    String table = "\"" + t.name().replace("\"", "\"\"") + "\"";
                    st.execute("INSERT INTO " + table + " (" + col + ") VALUES (987654)");
                    try (ResultSet rs = st.executeQuery("SELECT rowid FROM " + table + " WHERE " + col
                            + " = 987654")) {
                        assertTrue(rs.getLong(1) != 987654, sql + ": not an alias, the rowid is separate");
                    }
                }
            }
        }
        assertTrue(CreateTableParser.parse(STATEMENTS[8]).withoutRowid());
        assertFalse(CreateTableParser.parse(STATEMENTS[7]).scannable()); // b is a virtual generated column
        assertEquals("it's", CreateTableParser.parse(STATEMENTS[5]).columns().get(2).defaultValue());
        assertEquals(-1500.0, CreateTableParser.parse(STATEMENTS[2]).columns().get(1).defaultValue());
    }

    /** Reserved bytes at the end of each page (set only through the sqlite3 shell) shrink the usable size. */
    @Test
    void reservedBytesPerPage(@TempDir Path dir) throws Exception {
        Path db = dir.resolve("reserved.sqlite");
        ProcessBuilder pb;
        try {
            pb = new ProcessBuilder("sqlite3", db.toString(), ".filectrl reserve_bytes 40",
                    "PRAGMA page_size = 1024",
                    "CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT, b BLOB, r REAL)",
                    "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3000) "
                            + "INSERT INTO t SELECT x, printf('%.*c', (x * 37) % 5000, 'z'), randomblob((x * 53) % 3000), "
                            + "x / 7.0 FROM n")
                    .redirectErrorStream(true);
            Process p = pb.start();
            assumeTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "sqlite3 shell not usable");
        } catch (java.io.IOException noShell) {
            assumeTrue(false, "no sqlite3 shell");
        }
        assumeTrue(Files.size(db) > 0);
        try (SqliteFile f = SqliteFile.open(db)) {
            assertEquals(1024 - 40, f.usableSize());
        }
        assertEquals(3000, ScannerAgainstSqliteTest.assertSameRows(db));
    }
}
