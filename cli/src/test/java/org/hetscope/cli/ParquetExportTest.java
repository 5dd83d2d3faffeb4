package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code export --parquet} and {@code sql DATASET} (issue 28, item 1): on a trace of every fixture format, each
 * table read back from the Parquet files (by DuckDB directly, not through hetscope's views) equals the store's
 * table row for row, the same queries give the same output on the store and on the dataset, several stores make
 * the union, and neither command overwrites what is there or reads other files.
 */
class ParquetExportTest {
    static final Path FIXTURES = StandardLibraryConsistencyTest.FIXTURES;
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Stream<Arguments> traces() {
        return Stream.of(
                Arguments.of("kineto", "chrome", FIXTURES.resolve("chrome/kineto-cuda-sampled-rank0.json.gz")),
                Arguments.of("nsight", "nsys", FIXTURES.resolve("nsys/perlmutter-cloverleaf-cuda.sqlite")),
                Arguments.of("ctf", "ctf", FIXTURES.resolve("ctf/context-switches/context-switches-ust")),
                Arguments.of("starpu", "paje", FIXTURES.resolve("starpu/chol-dmda-nb6")),
                Arguments.of("otf2", "otf2", FIXTURES.resolve("otf2/ping-pong-otf2")));
    }

    static Path importStore(String name, Path trace) {
        Path db = dir.resolve(name + ".duckdb");
        if (!Files.exists(db)) {
            CliRun imported = CliRun.of("import", trace.toString(), "-o", db.toString());
            assertTrue(imported.exitCode() == 0 || imported.exitCode() == 3, imported.err());
        }
        return db;
    }

    static String lit(Object s) {
        return "'" + s.toString().replace("'", "''") + "'";
    }

    static long scalar(Statement st, String sql) throws Exception {
        try (ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getLong(1);
        }
    }

    /** The store's base tables, read by a plain DuckDB connection. */
    static Set<String> baseTables(Statement st) throws Exception {
        Set<String> out = new TreeSet<>();
        try (ResultSet rs = st.executeQuery("SELECT table_name FROM information_schema.tables WHERE table_catalog = "
                + "'s' AND table_type = 'BASE TABLE'")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("traces")
    void everyTableReadsBackEqual(String name, String format, Path trace) throws Exception {
        Path db = importStore(name, trace);
        Path ds = dir.resolve("ds-" + name);
        CliRun r = CliRun.of("export", db.toString(), "--parquet", ds.toString(), "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode manifest = JSON.readTree(ds.resolve("_hetscope_dataset.json").toFile());
        assertEquals("hetscope-parquet-dataset", manifest.get("format").asText());
        assertEquals(4, manifest.get("schema_version").asInt());
        assertEquals(1, manifest.get("traces").size());
        JsonNode t = manifest.get("traces").get(0);
        assertEquals(name, t.get("trace").asText());
        assertEquals(format, t.get("formats").get(0).asText(), t.toString());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("ATTACH " + lit(db) + " AS s (READ_ONLY)");
            assertEquals(scalar(st, "SELECT coalesce(sum(count), 0) FROM s.skipped"), t.get("skipped").asLong());
            Set<String> tables = baseTables(st);
            Set<String> inManifest = new TreeSet<>();
            t.get("tables").fieldNames().forEachRemaining(inManifest::add);
            assertEquals(tables, inManifest);
            assertTrue(tables.contains("slice") && tables.contains("kernel_dispatch"), tables.toString());
            assertFalse(Files.exists(ds.resolve("kernel")), "views are not exported");
            for (String table : tables) {
                String files = lit(ds.resolve(table).resolve("trace=" + name).resolve("*.parquet"));
                String parquet = "(SELECT * EXCLUDE (trace) FROM read_parquet(" + files + ", hive_partitioning = true))";
                long rows = scalar(st, "SELECT count(*) FROM s.\"" + table + "\"");
                assertEquals(rows, scalar(st, "SELECT count(*) FROM " + parquet), table);
                assertEquals(rows, t.get("tables").get(table).asLong(), table);
                assertEquals(0, scalar(st, "SELECT count(*) FROM (SELECT * FROM s.\"" + table + "\" EXCEPT ALL "
                        + "SELECT * FROM " + parquet + ")"), table);
                assertEquals(0, scalar(st, "SELECT count(*) FROM (SELECT * FROM " + parquet + " EXCEPT ALL "
                        + "SELECT * FROM s.\"" + table + "\")"), table);
                assertEquals(rows, scalar(st, "SELECT count(*) FROM read_parquet(" + files + ", hive_partitioning = "
                        + "true) WHERE trace = " + lit(name)), table + ": the trace column");
            }
            assertTrue(scalar(st, "SELECT count(*) FROM s.slice") > 0);
        }
        // the same queries on the store and on the dataset print the same
        for (String q : List.of("select * from hs_slice_stats order by category, name",
                "select category, count(*) as n, sum(dur) as total, min(ts) as t0, max(ts + dur) as t1 from slice "
                        + "group by all order by all",
                "select * from hs_trace_bounds", "select * from hs_device_utilisation order by all",
                "select * from hs_transfer_stats order by kind", "select * from hs_task_stats order by all",
                "select * from hs_launch_latency_stats order by all",
                "select slice_id, full_name from kernel order by slice_id")) {
            CliRun onStore = CliRun.of("sql", db.toString(), q, "--json");
            CliRun onDataset = CliRun.of("sql", ds.toString(), q, "--json");
            assertEquals(0, onStore.exitCode(), q + ": " + onStore.err());
            assertEquals(0, onDataset.exitCode(), q + ": " + onDataset.err());
            assertEquals(onStore.out(), onDataset.out(), q);
        }
    }

    @Test
    void twoStoresMakeTheUnion() throws Exception {
        Path a = importStore("kineto", FIXTURES.resolve("chrome/kineto-cuda-sampled-rank0.json.gz"));
        Path b = importStore("starpu", FIXTURES.resolve("starpu/chol-dmda-nb6"));
        Path ds = dir.resolve("union");
        assertEquals(0, CliRun.of("export", a.toString(), "--parquet", ds.toString()).exitCode());
        CliRun second = CliRun.of("export", b.toString(), "--parquet", ds.toString(), "--trace", "run-2");
        assertEquals(0, second.exitCode(), second.err());
        JsonNode traces = JSON.readTree(ds.resolve("_hetscope_dataset.json").toFile()).get("traces");
        assertEquals(2, traces.size());
        long na;
        long nb;
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("ATTACH " + lit(a) + " AS a (READ_ONLY)");
            st.execute("ATTACH " + lit(b) + " AS b (READ_ONLY)");
            na = scalar(st, "SELECT count(*) FROM a.slice");
            nb = scalar(st, "SELECT count(*) FROM b.slice");
        }
        CliRun perTraceCount = CliRun.of("sql", ds.toString(), "select trace, count(*) as n from slice group by trace "
                + "order by trace", "--csv");
        assertEquals("trace,n\nkineto," + na + "\nrun-2," + nb + "\n", perTraceCount.out().replace("\r", ""));
        CliRun total = CliRun.of("sql", ds.toString(), "select count(*) as n from slice", "--csv");
        assertEquals("n\n" + (na + nb) + "\n", total.out().replace("\r", ""));
        // a table of one reader only (StarPU's) holds its trace alone
        CliRun anomalies = CliRun.of("sql", ds.toString(), "select distinct trace from starpu_anomaly", "--csv");
        assertEquals("trace\nrun-2\n", anomalies.out().replace("\r", ""), anomalies.err());
        // views pooled over traces exist; those defined per trace ask for --trace
        assertEquals(0, CliRun.of("sql", ds.toString(), "select * from hs_slice_stats").exitCode());
        CliRun perTrace = CliRun.of("sql", ds.toString(), "select * from hs_device_utilisation");
        assertEquals(1, perTrace.exitCode());
        assertTrue(perTrace.err().contains("--trace"), perTrace.err());
        String q = "select * from hs_device_utilisation order by all";
        assertEquals(CliRun.of("sql", b.toString(), q).out(), CliRun.of("sql", ds.toString(), "--trace", "run-2", q).out());
        assertEquals(1, CliRun.of("sql", ds.toString(), "--trace", "nope", q).exitCode());
    }

    @Test
    void neverOverwrites() throws Exception {
        Path a = importStore("kineto", FIXTURES.resolve("chrome/kineto-cuda-sampled-rank0.json.gz"));
        Path ds = dir.resolve("again");
        assertEquals(0, CliRun.of("export", a.toString(), "--parquet", ds.toString()).exitCode());
        Path part = ds.resolve("slice/trace=kineto/part-0.parquet");
        byte[] before = Files.readAllBytes(part);
        Files.setLastModifiedTime(part, java.nio.file.attribute.FileTime.fromMillis(1_000_000));
        CliRun again = CliRun.of("export", a.toString(), "--parquet", ds.toString());
        assertEquals(1, again.exitCode());
        assertTrue(again.err().contains("already holds trace 'kineto'") && again.err().contains("--force"), again.err());
        assertEquals(1_000_000, Files.getLastModifiedTime(part).toMillis(), "left alone");
        // --force replaces the trace's partitions, and only those; a file it did not write stops it
        Path foreign = ds.resolve("slice/trace=kineto/notes.txt");
        Files.writeString(foreign, "mine");
        CliRun forced = CliRun.of("export", a.toString(), "--parquet", ds.toString(), "--force");
        assertEquals(1, forced.exitCode(), forced.out());
        assertTrue(forced.err().contains("notes.txt"), forced.err());
        assertEquals(1_000_000, Files.getLastModifiedTime(part).toMillis());
        Files.delete(foreign);
        assertEquals(0, CliRun.of("export", a.toString(), "--parquet", ds.toString(), "--force").exitCode());
        assertArrayEquals(before, Files.readAllBytes(part), "the same store writes the same bytes");
        assertTrue(Files.getLastModifiedTime(part).toMillis() > 1_000_000, "replaced");
        try (var s = Files.list(ds)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().startsWith(".hetscope-export-")), "staging removed");
        }
        // a folder of the user's: neither written into nor given a lock file
        Path mine = Files.createDirectories(dir.resolve("mine"));
        Files.writeString(mine.resolve("thesis.tex"), "x");
        CliRun refused = CliRun.of("export", a.toString(), "--parquet", mine.toString());
        assertEquals(1, refused.exitCode());
        assertTrue(refused.err().contains("not empty and not a hetscope dataset"), refused.err());
        try (var s = Files.list(mine)) {
            assertEquals(List.of(mine.resolve("thesis.tex")), s.toList());
        }
        Path file = mine.resolve("thesis.tex");
        assertEquals(1, CliRun.of("export", a.toString(), "--parquet", file.toString()).exitCode());
        assertEquals("x", Files.readString(file));
        // two stores that would share a name
        assertEquals(2, CliRun.of("export", a.toString(), a.toString(), "--parquet", dir.resolve("x").toString()).exitCode());
    }

    @Test
    void whatAKilledExportLeftIsNotRead() throws Exception {
        Path a = importStore("kineto", FIXTURES.resolve("chrome/kineto-cuda-sampled-rank0.json.gz"));
        Path b = importStore("starpu", FIXTURES.resolve("starpu/chol-dmda-nb6"));
        Path ds = dir.resolve("killed");
        assertEquals(0, CliRun.of("export", a.toString(), "--parquet", ds.toString()).exitCode());
        Path part = ds.resolve("slice/trace=kineto/part-0.parquet");
        // an export killed after moving a partition but before the manifest, and one killed while staging
        Files.createDirectories(ds.resolve("slice/trace=ghost"));
        Files.copy(part, ds.resolve("slice/trace=ghost/part-0.parquet"));
        Path staging = Files.createDirectories(ds.resolve(".hetscope-export-x-1/slice/trace=x"));
        Files.copy(part, staging.resolve("part-0.parquet"));
        String count = "select count(*) as n from slice";
        assertEquals(CliRun.of("sql", a.toString(), count, "--csv").out(), CliRun.of("sql", ds.toString(), count,
                "--csv").out());
        assertEquals(0, CliRun.of("export", b.toString(), "--parquet", ds.toString()).exitCode());
        assertFalse(Files.exists(ds.resolve(".hetscope-export-x-1")), "the next export removes the staging folder");
        CliRun traces = CliRun.of("sql", ds.toString(), "select distinct trace from slice order by trace", "--csv");
        assertEquals("trace\nkineto\nstarpu\n", traces.out().replace("\r", ""));
    }

    @Test
    void aDatasetReadsNoOtherFiles() throws Exception {
        Path a = importStore("kineto", FIXTURES.resolve("chrome/kineto-cuda-sampled-rank0.json.gz"));
        Path ds = dir.resolve("closed");
        assertEquals(0, CliRun.of("export", a.toString(), "--parquet", ds.toString()).exitCode());
        Path secret = dir.resolve("secret.txt");
        Files.writeString(secret, "the-secret-line\n");
        Path inside = ds.resolve("notes.txt");
        Files.writeString(inside, "the-secret-line\n");
        // a part file that is a link to a file outside: not listed, so not readable
        Files.createSymbolicLink(ds.resolve("slice/trace=kineto/part-1.parquet"), secret);
        long slices = Long.parseLong(CliRun.of("sql", ds.toString(), "select count(*) as n from slice", "--csv").out()
                .split("\n")[1].strip());
        assertEquals(Long.parseLong(CliRun.of("sql", a.toString(), "select count(*) as n from slice", "--csv").out()
                .split("\n")[1].strip()), slices);
        for (String q : List.of("select * from read_csv('/etc/passwd')", "select * from read_text(" + lit(secret) + ")",
                "select * from read_text(" + lit(inside) + ")",
                "select * from read_text(" + lit(ds.resolve("slice/trace=kineto/part-1.parquet")) + ")",
                "select * from read_text(" + lit(ds.resolve("_hetscope_dataset.json")) + ")",
                "select * from glob(" + lit(ds + "/*") + ")")) {
            CliRun r = CliRun.of("sql", ds.toString(), q);
            assertEquals(1, r.exitCode(), q);
            assertFalse(r.out().contains("the-secret-line"), q);
            assertTrue(r.err().contains("read-only"), q + ": " + r.err());
        }
        for (String q : List.of("copy (select 1) to " + lit(ds.resolve("x.csv")), "attach " + lit(ds.resolve("y.db")),
                "set enable_external_access = true")) {
            assertEquals(1, CliRun.of("sql", ds.toString(), q).exitCode(), q);
        }
        assertFalse(Files.exists(ds.resolve("x.csv")) || Files.exists(ds.resolve("y.db")));
    }

    @Test
    void exportRunsNothingOfTheStore() throws Exception {
        Path a = importStore("kineto", FIXTURES.resolve("chrome/kineto-cuda-sampled-rank0.json.gz"));
        Path hostile = dir.resolve("hostile.duckdb");
        Files.copy(a, hostile);
        Path secret = dir.resolve("secret2.txt");
        Files.writeString(secret, "the-secret-line\n");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + hostile); Statement st = c.createStatement()) {
            st.execute("CREATE VIEW notes AS SELECT * FROM read_text(" + lit(secret) + ")");
            st.execute("CREATE TABLE \"we/ird\"(x BIGINT)");
            st.execute("CREATE TABLE extra(x BIGINT, twice AS (x * 2))");
            st.execute("INSERT INTO extra VALUES (21)");
        }
        Path ds = dir.resolve("hostile-ds");
        CliRun r = CliRun.of("export", hostile.toString(), "--parquet", ds.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.err().contains("we/ird"), r.err());
        assertFalse(Files.exists(ds.resolve("notes")));
        assertEquals("x\n21\n", CliRun.of("sql", ds.toString(), "select * exclude (trace) from extra", "--csv").out()
                .replace("\r", ""));
        List<String> all = new ArrayList<>();
        try (var w = Files.walk(ds)) {
            w.filter(Files::isRegularFile).forEach(p -> all.add(p.toString()));
        }
        for (String f : all) {
            assertFalse(new String(Files.readAllBytes(Path.of(f)), java.nio.charset.StandardCharsets.ISO_8859_1)
                    .contains("the-secret-line"), f);
        }
    }
}
