package org.hetscope.formats.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.TraceSink;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A damaged page cuts only its own table short, whether the rows come from the file scanner or, with the scanner
 * off, from sqlite-jdbc (whose failures reach the reader as an IOException around an SQLException): the tables
 * before and after it are read whole, the rows before the damage are kept, and the loss is reported with the table
 * and the file. The damage is made by hand (the last leaf of table {@code b} gets an invalid page type, as in the
 * nsys and rocpd damage tests); expected counts and sums come from SQL over the intact file and the number of cells
 * on the damaged leaf from its page header.
 */
class TableByTableDamageTest {
    static final int PAGE_SIZE = 1024;
    static final String[] TABLES = {"a", "b", "c"};

    @TempDir
    Path dir;
    Path intact;
    Path damaged;
    /** Per table, over the intact file: number of rows and sum of v. */
    final Map<String, long[]> expected = new LinkedHashMap<>();
    long lastLeaf;
    int lostRows;
    /** Sum of v over b's rows before the damaged leaf, by SQL over the intact file. */
    long keptSum;

    @BeforeEach
    void build() throws Exception {
        intact = dir.resolve("intact.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + intact.toAbsolutePath());
             Statement st = c.createStatement()) {
            st.execute("PRAGMA page_size = " + PAGE_SIZE);
            c.setAutoCommit(false);
            int[] sizes = {40, 4000, 300}; // b spans many pages, so its root is an interior page
            for (int t = 0; t < TABLES.length; t++) {
                st.execute("CREATE TABLE " + TABLES[t] + " (id INTEGER, v INTEGER, name TEXT)");
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + TABLES[t] + " VALUES (?,?,?)")) {
                    for (int i = 0; i < sizes[t]; i++) {
                        ps.setLong(1, i);
                        ps.setLong(2, 7L * i + t);
                        ps.setString(3, TABLES[t] + "_" + (i % 17));
                        ps.executeUpdate();
                    }
                }
            }
            c.commit();
            for (String t : TABLES) {
                try (ResultSet rs = st.executeQuery("SELECT count(*), sum(v) FROM " + t)) {
                    expected.put(t, new long[] {rs.getLong(1), rs.getLong(2)});
                }
            }
        }
        damaged = dir.resolve("damaged.sqlite");
        Files.copy(intact, damaged);
        SqliteDamage.LostLeaf lost = SqliteDamage.breakLastLeaf(damaged, "b");
        lastLeaf = lost.page();
        lostRows = lost.rows();
        assertTrue(lostRows > 0 && lostRows < expected.get("b")[0], "the damage cuts b short: " + lostRows);
        // the right-most leaf holds the highest rowids: what comes before it is every row up to count - lost
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + intact.toAbsolutePath());
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT sum(v) FROM (SELECT v FROM b ORDER BY rowid LIMIT "
                     + (expected.get("b")[0] - lostRows) + ")")) {
            keptSum = rs.getLong(1);
        }
    }

    /** A sink that keeps where each loss was reported too. */
    static final class Sink extends CollectingSink {
        final List<String[]> losses = new ArrayList<>();

        @Override
        public void skipped(org.hetscope.model.SkipReason reason, String detail, String where, long count) {
            super.skipped(reason, detail, where, count);
            String what = key(reason, detail);
            losses.add(new String[] {what, where, Long.toString(count)});
        }
    }

    record Read(Map<String, long[]> tables, Sink sink) {}

    /** Reads every table as the nsys and rocpd readers do: one TableByTable, rows through a RowSource. */
    Read readAll(Path file, boolean scan) throws Exception {
        Map<String, long[]> got = new LinkedHashMap<>();
        Sink sink = new Sink();
        long[] rowsRead = {0};
        try (Connection c = SqliteFiles.openReadOnly(file); RowSource rows = RowSource.open(file, c, scan)) {
            for (String t : TABLES) {
                assertEquals(scan, rows.scans(t), t + (scan ? " through the scanner" : " through JDBC"));
            }
            TableByTable tables = new TableByTable(file, sink, () -> rowsRead[0], t -> {
                try {
                    return rows.count(t);
                } catch (IOException e) {
                    return -1;
                }
            });
            for (String t : TABLES) {
                long[] n = new long[2];
                got.put(t, n);
                tables.read(t, () -> {
                    try (TableRows r = rows.rows(t, "id", "v", "name")) {
                        while (r.next()) {
                            n[1] += r.getLong(1);
                            r.getText(2);
                            n[0]++;
                            rowsRead[0]++;
                        }
                    }
                });
            }
        }
        return new Read(got, sink);
    }

    @ParameterizedTest(name = "scanner {0}")
    @ValueSource(booleans = {false, true})
    void aDamagedPageCutsOnlyItsTableShort(boolean scan) throws Exception {
        Read whole = readAll(intact, scan);
        assertTrue(whole.sink().losses.isEmpty(), "nothing lost from the intact file");
        for (String t : TABLES) {
            assertEquals(List.of(expected.get(t)[0], expected.get(t)[1]),
                    List.of(whole.tables().get(t)[0], whole.tables().get(t)[1]), t + " of the intact file");
        }

        Read cut = readAll(damaged, scan);
        for (String t : new String[] {"a", "c"}) {
            assertEquals(List.of(expected.get(t)[0], expected.get(t)[1]),
                    List.of(cut.tables().get(t)[0], cut.tables().get(t)[1]), t + " is read whole");
        }
        assertEquals(List.of(expected.get("b")[0] - lostRows, keptSum),
                List.of(cut.tables().get("b")[0], cut.tables().get("b")[1]),
                "b keeps its rows before the damaged leaf");
        assertEquals(1, cut.sink().losses.size(), "one loss, b's");
        String[] loss = cut.sink().losses.get(0);
        String what = loss[0];
        assertTrue(org.hetscope.model.CollectingSink.isDamageKey(what), what);
        // the table's row count (scanner or SELECT count(*)) walks every leaf, the damaged one too, so it fails
        // as well and the number lost is unknown: one entry
        assertEquals("damaged_page: b (rows lost unknown)", what);
        assertEquals("1", loss[2], what);
        assertTrue(loss[1].startsWith(damaged.toString()) && loss[1].contains("table b: "), loss[1]);
        if (scan) {
            assertTrue(loss[1].contains(" page " + lastLeaf + ", "), "the scanner names the page: " + loss[1]);
        } else {
            assertTrue(loss[1].contains("SQLITE_CORRUPT") && loss[1].contains("page not known"),
                    "SQLite's reason, without a page: " + loss[1]);
        }
    }

    /** Only damage is absorbed: an IOException that is not SQLite's still ends the import. */
    @Test
    void otherIoFailuresStillPropagate() {
        TableByTable tables = new TableByTable(damaged, new Sink(), () -> 0, t -> -1);
        IOException disk = new IOException("Input/output error");
        assertSame(disk, assertThrows(IOException.class, () -> tables.read("b", () -> {
            throw disk;
        })));
        Sink sink = new Sink();
        TableByTable quiet = new TableByTable(damaged, sink, () -> 0, t -> -1);
        assertThrows(IOException.class, () -> quiet.read("b", () -> {
            throw new IOException("not SQLite", new IllegalStateException("x"));
        }));
        assertFalse(sink.losses.size() > 0, "nothing reported as damage");
    }
}
