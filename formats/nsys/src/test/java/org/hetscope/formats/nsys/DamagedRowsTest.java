package org.hetscope.formats.nsys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hetscope.model.Category;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceSink;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rows whose values are damaged in a copy of the real export (a kernel start that is text, a start of 1.5e300, an end
 * before the start, a blob end, a deleted string id): each is counted as damaged input with its table and row, never
 * stored at ts 0 or Long.MAX_VALUE, and every other row is read as before. The expected rows come from SQL over the
 * damaged copy ({@code typeof}), by the file scanner and through sqlite-jdbc alike.
 */
class DamagedRowsTest {
    @TempDir
    Path dir;

    private static List<long[]> query(Path db, String sql) throws Exception {
        List<long[]> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                long[] row = new long[n];
                for (int i = 0; i < n; i++) {
                    row[i] = rs.getLong(i + 1);
                }
                out.add(row);
            }
        }
        return out;
    }

    private static long one(Path db, String sql) throws Exception {
        return query(db, sql).get(0)[0];
    }

    private static void exec(Path db, String... sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             Statement st = c.createStatement()) {
            for (String s : sql) {
                st.executeUpdate(s);
            }
        }
    }

    /** Position (1-based, rowid order) of the row with {@code rowid} in {@code table}. */
    private static long position(Path db, String table, long rowid) throws Exception {
        return one(db, "SELECT count(*) FROM " + table + " WHERE rowid <= " + rowid);
    }

    private static Map.Entry<String, Long> damage(CollectingSink sink, String part) {
        return sink.skipped.entrySet().stream()
                .filter(e -> org.hetscope.model.CollectingSink.isDamageKey(e.getKey()) && e.getKey().contains(part)).findFirst()
                .orElseThrow(() -> new AssertionError("no damage '" + part + "' in " + sink.skipped.keySet()));
    }

    @ParameterizedTest(name = "scanner {0}")
    @ValueSource(booleans = {true, false})
    void damagedRowsAreCountedNotStoredAsZeroOrMax(boolean scan) throws Exception {
        Path copy = dir.resolve("damaged.sqlite");
        Files.copy(NsysFormatTest.FIXTURE, copy);
        copy.toFile().setWritable(true);
        String k = NsysReader.KERNEL;
        String r = NsysReader.RUNTIME;
        List<long[]> kernels = query(copy, "SELECT rowid, shortName FROM " + k + " ORDER BY rowid");
        long textRow = kernels.get(10)[0];
        long realRow = kernels.get(500)[0];
        long backwardsRow = kernels.get(900)[0];
        long runtimeRow = query(copy, "SELECT rowid FROM " + r + " ORDER BY rowid LIMIT 1 OFFSET 77").get(0)[0];
        // a kernel name used by none of the three rows above, whose string is then deleted
        java.util.Set<Long> used = new java.util.HashSet<>(List.of(kernels.get(10)[1], kernels.get(500)[1],
                kernels.get(900)[1]));
        long victimName = kernels.stream().mapToLong(x -> x[1]).filter(x -> !used.contains(x)).findFirst()
                .orElseThrow();
        exec(copy,
                "UPDATE " + k + " SET start = 'abc' WHERE rowid = " + textRow,
                "UPDATE " + k + " SET start = 1.5e300 WHERE rowid = " + realRow,
                "UPDATE " + k + " SET \"end\" = start - 5 WHERE rowid = " + backwardsRow,
                "UPDATE " + r + " SET \"end\" = X'0102' WHERE rowid = " + runtimeRow,
                "DELETE FROM StringIds WHERE id = " + victimName);
        assertEquals("text", typeOf(copy, k, "start", textRow));
        assertEquals("real", typeOf(copy, k, "start", realRow));

        CollectingSink sink = new CollectingSink();
        new NsysFormat(scan).read(copy, sink, Progress.NONE);

        // independent reference: the kernel rows whose times are integers with end >= start, by SQL
        List<long[]> good = query(copy, "SELECT start, \"end\" FROM " + k + " WHERE typeof(start) = 'integer' "
                + "AND typeof(\"end\") = 'integer' AND \"end\" >= start ORDER BY start, \"end\"");
        assertEquals(1312 - 3, good.size());
        List<long[]> stored = sink.slices.stream().filter(s -> s.category() == Category.KERNEL)
                .map(s -> new long[] {s.ts(), s.ts() + s.dur()})
                .sorted((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1])).toList();
        assertEquals(good.size(), stored.size());
        for (int i = 0; i < good.size(); i++) {
            assertEquals(good.get(i)[0], stored.get(i)[0]);
            assertEquals(good.get(i)[1], stored.get(i)[1]);
        }
        for (Slice s : sink.slices) {
            assertTrue(s.ts() != 0 && s.ts() != Long.MAX_VALUE, "no time made up: " + s);
        }
        assertEquals(one(copy, "SELECT count(*) FROM " + r) - 1,
                sink.slices.stream().filter(s -> "cuda_runtime".equals(s.sourceCategory())).count());

        Map.Entry<String, Long> text = damage(sink, k + " row skipped: start is text");
        assertEquals(1L, text.getValue());
        assertTrue(text.getKey().contains("not a number"), text.getKey());
        assertTrue(sink.skipped.keySet().stream().noneMatch(x -> x.contains("For input string")));
        assertEquals(1L, damage(sink, k + " row skipped: start is a real number").getValue());
        assertEquals(1L, damage(sink, k + " row skipped: end before start").getValue());
        assertEquals(1L, damage(sink, r + " row skipped: end is a blob").getValue());
        long unknown = one(copy, "SELECT count(*) FROM " + k + " WHERE shortName = " + victimName);
        assertTrue(unknown > 0);
        assertEquals(unknown, damage(sink, k + " row kernel name id not in StringIds").getValue());
        assertEquals(unknown, sink.slices.stream().filter(s -> s.name().equals("<unknown kernel>")).count());

        // where: the first damaged row's position in rowid order, with its values
        WhereSink where = new WhereSink();
        new NsysFormat(scan).read(copy, where, Progress.NONE);
        assertEquals(copy + " table " + k + ", row " + position(copy, k, textRow) + " (start = 'abc', end = "
                + one(copy, "SELECT \"end\" FROM " + k + " WHERE rowid = " + textRow) + ")",
                where.where(k + " row skipped: start is text"));
        assertTrue(where.where(k + " row skipped: end before start")
                .startsWith(copy + " table " + k + ", row " + position(copy, k, backwardsRow) + " ("));
    }

    private static String typeOf(Path db, String table, String column, long rowid) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT typeof(" + column + ") FROM " + table + " WHERE rowid = " + rowid)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Keeps the where of each skipped reason too. */
    static final class WhereSink extends CollectingSink {
        final Map<String, String> wheres = new java.util.LinkedHashMap<>();

        @Override
        public void skipped(org.hetscope.model.SkipReason reason, String detail, String where, long count) {
            super.skipped(reason, detail, where, count);
            String what = key(reason, detail);
            wheres.putIfAbsent(what, where);
        }

        String where(String part) {
            return wheres.entrySet().stream().filter(e -> e.getKey().contains(part)).map(Map.Entry::getValue)
                    .findFirst().orElseThrow(() -> new AssertionError("no '" + part + "' in " + wheres.keySet()));
        }
    }

    @ParameterizedTest(name = "scanner {0}")
    @ValueSource(booleans = {true, false})
    void theIntactExportHasNoDamagedRows(boolean scan) throws Exception {
        CollectingSink sink = new CollectingSink();
        new NsysFormat(scan).read(NsysFormatTest.FIXTURE, sink, Progress.NONE);
        assertFalse(sink.skipped.keySet().stream().anyMatch(x -> org.hetscope.model.CollectingSink.isDamageKey(x)),
                sink.skipped.toString());
    }
}
