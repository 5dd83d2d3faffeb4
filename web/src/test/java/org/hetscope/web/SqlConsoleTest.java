package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The query console's server side (SqlConsole): read-only, bounded, and its answers as 'hetscope sql' gives them. */
class SqlConsoleTest {
    @TempDir
    Path dir;

    @Test
    void refusesWhatDoesNotOnlyReadWithAClearMessage() throws Exception {
        SyntheticTrace.write(dir.resolve("a.duckdb"), 50, 3);
        Path secret = Files.writeString(dir.resolve("secret.csv"), "a,b\n1,2\n");
        SqlConsole console = new SqlConsole(10_000);
        try (Store s = Store.open(dir.resolve("a.duckdb"))) {
            Map<String, String> refused = Map.of(
                    "COPY slice TO '" + dir.resolve("out.csv") + "'", "read-only: COPY statements are refused",
                    "ATTACH '" + dir.resolve("other.duckdb") + "' AS o", "read-only: ATTACH statements are refused",
                    "CREATE TEMP VIEW hs_slice_stats AS SELECT 1", "read-only: CREATE statements are refused",
                    "SET enable_external_access = true", "read-only: SET statements are refused",
                    "INSERT INTO slice SELECT * FROM slice", "read-only: INSERT statements are refused",
                    "SELECT 1; DROP TABLE slice", "read-only: DROP statements are refused",
                    "PRAGMA enable_profiling", "read-only: PRAGMA enable_profiling is refused",
                    "selec 1", "'selec' begins no SQL statement",
                    // reads pass the statement check; the store's connection refuses the file access itself
                    "SELECT * FROM read_csv('" + secret + "')", "read-only: a query cannot read or write files",
                    "SELECT * FROM read_text('" + secret + "')", "read-only: a query cannot read or write files");
            for (var e : refused.entrySet()) {
                BadQueryException x = assertThrows(BadQueryException.class, () -> console.run(s, e.getKey()), e.getKey());
                assertTrue(x.getMessage().startsWith(e.getValue()), e.getKey() + " -> " + x.getMessage());
                assertFalse(x.getMessage().contains("a,b"), "the file's content never shows");
            }
            assertTrue(assertThrows(BadQueryException.class, () -> console.run(s, "SELECT 1; SELECT 2")).getMessage()
                    .startsWith("one statement at a time"));
            String syntax = assertThrows(BadQueryException.class, () -> console.run(s, "SELECT 1 +")).getMessage();
            assertTrue(syntax.startsWith("query failed: Parser Error"), syntax);
            // Nothing a refused statement tried changed the store or the library's views.
            assertEquals(s.query("SELECT count(*) FROM slice").rows().get(0)[0],
                    console.run(s, "SELECT count(*) AS n FROM slice").table().rows().get(0)[0]);
        }
    }

    @Test
    void answersEqualTheStoresOwnQueryBoundedAndWithATrack() throws Exception {
        SyntheticTrace.write(dir.resolve("a.duckdb"), 300, 9);
        SqlConsole console = new SqlConsole(10_000);
        try (Store s = Store.open(dir.resolve("a.duckdb"))) {
            String q = "SELECT id AS slice_id, ts, dur, name, track_id FROM slice ORDER BY dur DESC, id LIMIT 25";
            SqlConsole.Answer a = console.run(s, "-- longest\n" + q + ";");
            Table expected = s.query(q);
            assertEquals(expected.columns(), a.table().columns());
            assertEquals(expected.size(), a.table().size());
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(List.of(expected.rows().get(i)), List.of(a.table().rows().get(i)), "row " + i);
            }
            assertFalse(a.truncated());
            // The library's views are there, as 'hetscope sql' has them.
            assertEquals(s.query("SELECT * FROM hs_slice_stats ORDER BY 1, 2").size(),
                    console.run(s, "SELECT * FROM hs_slice_stats ORDER BY 1, 2").table().size());
            // Rows beyond the cap are cut and said to be.
            SqlConsole.Answer big = console.run(s, "SELECT * FROM range(" + (SqlConsole.MAX_ROWS + 10) + ")");
            assertEquals(SqlConsole.MAX_ROWS, big.table().size());
            assertTrue(big.truncated());
            // The track: one item per row, start relative to the trace origin, the row's own duration and track.
            try (TraceView view = new TraceView("a", Store.open(dir.resolve("a.duckdb")))) {
                Map<String, Object> json = SqlConsole.json(view, a);
                @SuppressWarnings("unchecked")
                List<long[]> track = (List<long[]>) json.get("track");
                assertEquals(expected.size(), track.size());
                for (long[] it : track) {
                    Object[] row = expected.rows().get((int) it[2]);
                    assertEquals((Long) row[1] - view.origin(), it[0]);
                    assertEquals(row[2], it[1]);
                    assertEquals(row[4], it[3]);
                }
                assertNull(json.get("track_note"));
                assertNull(SqlConsole.json(view, console.run(s, "SELECT name FROM slice LIMIT 1")).get("track"));
            }
        }
    }

    @Test
    void aQueryRunningPastTheTimeoutIsCancelled() throws Exception {
        SyntheticTrace.write(dir.resolve("a.duckdb"), 20, 1);
        try (Store s = Store.open(dir.resolve("a.duckdb"))) {
            SqlConsole console = new SqlConsole(300);
            long t = System.nanoTime();
            BadQueryException x = assertThrows(BadQueryException.class, () -> console.run(s,
                    "SELECT count(*) FROM range(100000000) a, range(100000) b WHERE a.range + b.range = -1"));
            assertTrue(x.getMessage().startsWith("query cancelled"), x.getMessage());
            assertTrue((System.nanoTime() - t) / 1e9 < 20, "cancelled promptly");
            // The store still answers afterwards.
            assertEquals(1, console.run(s, "SELECT 1").table().size());
        }
    }
}
