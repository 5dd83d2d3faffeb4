package org.hetscope.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the commands decide before any Spark session starts: arguments, names, refusals; and the rendering. */
class SparkMainTest {
    @Test
    void globsFoldersAndTracesExpand(@TempDir Path tmp) throws Exception {
        Path a = Files.writeString(tmp.resolve("rank0.json"), "{}");
        Path b = Files.writeString(tmp.resolve("rank1.json"), "{}");
        Files.writeString(tmp.resolve(".hidden"), "x");
        Path otf2 = TestTraces.fixtures().resolve("otf2/ping-pong-otf2");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(List.of(a, b), SparkImport.expand(List.of(tmp.resolve("rank*.json").toString()), e));
        // a folder of traces stands for its (visible) entries; a folder that is a trace for itself
        assertEquals(List.of(a, b), SparkImport.expand(List.of(tmp.toString()), e));
        assertEquals(List.of(otf2), SparkImport.expand(List.of(otf2.toString()), e));
        assertNull(SparkImport.expand(List.of(tmp.resolve("none*.json").toString()), e));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("matches no file"));
        assertNull(SparkImport.expand(List.of(tmp.resolve("missing.json").toString()), e));
    }

    @Test
    void traceNamesAreUniqueAndSafe() {
        Map<Path, String> n = SparkImport.names(List.of(Path.of("/x/rank0.json.gz"), Path.of("/y/rank0.json"),
                Path.of("/z/Rank0.sqlite"), Path.of("/w/my trace (1).json"), Path.of("/v/_odd.trace")));
        assertEquals(List.of("rank0", "rank0-2", "Rank0-3", "my_trace__1_", "t_odd"), List.copyOf(n.values()));
    }

    @Test
    void sqlRefusesWhatDoesNotRead(@TempDir Path tmp) {
        for (String q : List.of("INSERT OVERWRITE DIRECTORY '/tmp/x' SELECT 1", "CREATE TABLE t AS SELECT 1",
                "SET spark.sql.runSQLOnFiles=true", "select 1; drop table slice", "ADD JAR /tmp/x.jar")) {
            assertEquals(1, SparkMain.run("sql", tmp.toString(), q), q);
        }
        assertEquals("SELECT", SparkMain.SqlCmd.firstWord("-- c\n /* d */ (select 1)"));
    }

    @Test
    void usageErrorsExitTwo(@TempDir Path tmp) {
        assertEquals(2, SparkMain.run("ranks", tmp.resolve("nothing").toString()));
        assertEquals(2, SparkMain.run("ranks", tmp.toString(), "--engine", "presto"));
        assertEquals(2, SparkMain.run("import", tmp.resolve("missing.json").toString(), "-o",
                tmp.resolve("ds").toString()));
        assertFalse(Files.exists(tmp.resolve("ds")));
    }

    /** diff of two runs of three synthetic ranks (datasets written by the tasks' own code, without Spark). */
    @Test
    void diffPairsRanksByName(@TempDir Path tmp) throws Exception {
        Path a = run(tmp, "a", new long[] {10, 10, 10}, new long[] {50, 50, 50});
        Path b = run(tmp, "b", new long[] {20, 10, 10}, new long[] {50, 40, 50});
        try (Engine ea = new DuckEngine(a); Engine eb = new DuckEngine(b)) {
            var t = RankDiff.diff(ea.analysis("ranks"), eb.analysis("ranks"));
            assertEquals(3, t.size());
            Object[] r0 = t.rows().get(0);
            assertEquals("rank0", r0[t.column("trace")]);
            // two steps: busy = 2 x (NCCL + GEMM) us
            assertEquals(120_000L, r0[t.column("busy_a_ns")]);
            assertEquals(140_000L, r0[t.column("busy_b_ns")]);
            assertEquals(20_000L, r0[t.column("busy_change_ns")]);
            assertEquals(100.0 * 20 / 120, (Double) r0[t.column("busy_change_pct")], 1e-12);
            assertEquals(20_000L, r0[t.column("comm_change_ns")]);
            Object[] r1 = t.rows().get(1);
            assertEquals(-20_000L, r1[t.column("compute_change_ns")]);
            assertEquals(0L, t.rows().get(2)[t.column("busy_change_ns")]);
        }
    }

    /** ParquetExport.merge: a trace already in the dataset is refused (nothing moved), replaced with force. */
    @Test
    void mergeRefusesATraceTwiceUnlessForced(@TempDir Path tmp) throws Exception {
        Path ds = run(tmp, "a", new long[] {10}, new long[] {50});
        Path trace = TestTraces.rank(tmp.resolve("again.json"), new long[] {100, 200}, 30, 50);
        Path part = tmp.resolve("again-job/rank0");
        assertEquals("ok", TraceImport.run(trace, "rank0", part, tmp.resolve("tmp")).status());
        java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> org.hetscope.store.ParquetExport.merge(ds, List.of(part), false));
        assertTrue(e.getMessage().contains("already holds trace 'rank0'"), e.getMessage());
        assertTrue(Files.isDirectory(part.resolve("slice/trace=rank0")), "nothing moved");
        org.hetscope.store.ParquetExport.merge(ds, List.of(part), true);
        try (Engine d = new DuckEngine(ds)) {
            assertEquals(60_000L, d.analysis("ranks").rows().get(0)[d.analysis("ranks").column("comm_ns")]);
        }
    }

    /**
     * A task writes files of the tables with rows only; the merge keeps one file of each table that no trace has rows
     * of, so that the dataset still has every table of a store that hetscope import writes, with its columns and
     * types, and the rows of both stores (merged one trace at a time: the second adds no second empty file).
     */
    @Test
    void tablesWithoutRowsKeepTheirColumnsInOneFile(@TempDir Path tmp) throws Exception {
        Map<Path, String> traces = new java.util.LinkedHashMap<>();
        traces.put(TestTraces.rank(tmp.resolve("rank0.json"), new long[] {100, 200}, 10, 50), "rank0");
        traces.put(TestTraces.rank(tmp.resolve("rank1.json"), new long[] {120}, 20, 40), "rank1");
        Path ds = tmp.resolve("ds");
        for (var e : traces.entrySet()) {
            Path part = tmp.resolve("job").resolve(e.getValue());
            TraceImport.Outcome o = TraceImport.run(e.getKey(), e.getValue(), part, tmp.resolve("tmp"), 1);
            assertEquals("ok", o.status(), o.reason());
            org.hetscope.store.ParquetExport.merge(ds, List.of(part), false);
        }
        Map<String, Path> stores = TestTraces.stores(traces, tmp.resolve("stores"));
        Map<String, Long> rows = new java.util.TreeMap<>();
        Map<String, Integer> withRows = new java.util.TreeMap<>();
        Map<String, String> columns = new java.util.TreeMap<>();
        for (Path store : stores.values()) {
            try (org.hetscope.store.Store s = org.hetscope.store.Store.open(store)) {
                for (Object[] t : s.query("SELECT table_name FROM information_schema.tables WHERE table_schema = "
                        + "'main' AND table_type = 'BASE TABLE'").rows()) {
                    String table = (String) t[0];
                    long n = ((Number) s.query("SELECT count(*) FROM " + table).rows().get(0)[0]).longValue();
                    rows.merge(table, n, Long::sum);
                    withRows.merge(table, n > 0 ? 1 : 0, Integer::sum);
                    columns.put(table, TestTraces.dump(s.query("SELECT column_name, data_type FROM "
                            + "information_schema.columns WHERE table_schema = 'main' AND table_name = '" + table
                            + "' AND is_generated = 'NEVER' ORDER BY ordinal_position")) + "String:trace|String:VARCHAR|\n");
                }
            }
        }
        List<String> empty = rows.entrySet().stream().filter(e -> e.getValue() == 0).map(Map.Entry::getKey).toList();
        assertTrue(empty.contains("task") && rows.get("slice") > 0, rows.toString());
        try (org.hetscope.store.ParquetDataset d = org.hetscope.store.ParquetDataset.open(ds, null)) {
            for (String table : rows.keySet()) {
                assertEquals(rows.get(table), ((Number) d.query("SELECT count(*) FROM " + table).rows().get(0)[0])
                        .longValue(), table);
                assertEquals(columns.get(table), TestTraces.dump(d.query("SELECT column_name, data_type FROM "
                        + "information_schema.columns WHERE table_name = '" + table + "' ORDER BY ordinal_position")),
                        table);
                // files of the traces with rows only; one file for a table without rows in any trace
                assertEquals(Math.max(1, withRows.get(table)), (int) d.tables().get(table), table);
            }
        }
    }

    private static Path run(Path tmp, String name, long[] nccl, long[] gemm) throws Exception {
        Path ds = tmp.resolve(name);
        List<Path> parts = new java.util.ArrayList<>();
        for (int r = 0; r < nccl.length; r++) {
            Path trace = TestTraces.rank(Files.createDirectories(tmp.resolve(name + "-traces")).resolve("rank" + r
                    + ".json"), new long[] {100, 200}, nccl[r], gemm[r]);
            Path part = tmp.resolve(name + "-job").resolve("rank" + r);
            assertEquals("ok", TraceImport.run(trace, "rank" + r, part, tmp.resolve("tmp")).status());
            parts.add(part);
        }
        org.hetscope.store.ParquetExport.merge(ds, parts, false);
        return ds;
    }

    @Test
    void renderingInlinesAndNeedsNoRewrite() {
        for (String name : Analyses.NAMES) {
            for (Analyses.Dialect d : Analyses.Dialect.values()) {
                String sql = Analyses.render(name, d);
                assertFalse(sql.contains("{{"), name);
                assertFalse(sql.lines().anyMatch(l -> l.strip().startsWith("--")), name);
                assertEquals(Analyses.render(name, Analyses.Dialect.DUCKDB), sql, name);
            }
        }
        assertTrue(Analyses.render("imbalance", Analyses.Dialect.SPARK).contains(Analyses.source("ranks")));
    }
}
