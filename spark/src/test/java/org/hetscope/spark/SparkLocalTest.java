package org.hetscope.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.SparkSession;
import org.hetscope.cli.TablePrinter;
import org.hetscope.store.ParquetDataset;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * hetscope spark import and the cross-trace analyses on Spark local[2]: a folder of a trace of every shared fixture
 * format, five synthetic ranks and two bad traces is imported once; every analysis then gives the same table on
 * DuckDB over one store per trace (each imported by `hetscope import`), DuckDB over the dataset and Spark over the
 * dataset, and agrees with figures recomputed here from the stores' raw rows or by hand.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkLocalTest {
    /** Synthetic ranks' ProfilerStep durations (us): rank 4 straggles in step 1, rank 1 in step 2. */
    static final long[][] STEPS = {{100, 200}, {102, 260}, {98, 199}, {101, 201}, {150, 200}};
    static final long[] NCCL_US = {10, 10, 10, 10, 40};
    static final long[] GEMM_US = {50, 52, 50, 51, 50};

    Path tmp;
    SparkSession spark;
    Path dataset;
    int exitCode;
    String stdout;
    String stderr;
    Map<Path, String> good = new LinkedHashMap<>();
    List<Path> bad;

    @BeforeAll
    void importOnce(@TempDir Path tmp) throws Exception {
        this.tmp = tmp;
        spark = SparkEngine.session("local[2]", "hetscope SparkLocalTest");
        List<Path> traces = new ArrayList<>(TestTraces.everyFormat(tmp));
        Path ranks = Files.createDirectories(tmp.resolve("ranks"));
        for (int r = 0; r < STEPS.length; r++) {
            traces.add(TestTraces.rank(ranks.resolve("rank" + r + ".json"), STEPS[r], NCCL_US[r], GEMM_US[r]));
        }
        Map<Path, String> names = SparkImport.names(traces);
        good.putAll(names);
        bad = TestTraces.bad(tmp.resolve("bad"));
        traces.addAll(bad);
        dataset = tmp.resolve("dataset");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        exitCode = SparkImport.run(spark, traces, dataset, null, false, TablePrinter.Style.JSON,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        stdout = out.toString(StandardCharsets.UTF_8);
        stderr = err.toString(StandardCharsets.UTF_8);
    }

    private Map<String, Path> stores;

    /** One store per good trace, by `hetscope import` (once for all tests). */
    synchronized Map<String, Path> stores() throws Exception {
        if (stores == null) {
            stores = TestTraces.stores(good, tmp.resolve("stores"));
        }
        return stores;
    }

    @AfterAll
    void stop() {
        if (spark != null) {
            spark.stop();
        }
    }

    @Test
    void badTracesAreReportedAndTheOthersImported() throws Exception {
        assertEquals(3, exitCode, stderr);
        JsonNode rows = new ObjectMapper().readTree(stdout);
        Map<String, JsonNode> byFile = new HashMap<>();
        rows.forEach(r -> byFile.put(r.get("file").asText(), r));
        assertEquals(good.size() + bad.size(), rows.size(), stdout);
        Path truncated = bad.get(0).toAbsolutePath().normalize();
        Path notes = bad.get(1).toAbsolutePath().normalize();
        JsonNode cut = byFile.get(truncated.toString());
        assertEquals("failed", cut.get("status").asText());
        assertFalse(cut.get("position").asText().isEmpty(), "a truncated trace is reported with its position");
        assertTrue(stderr.contains(truncated + " at " + cut.get("position").asText() + ": "), stderr);
        JsonNode text = byFile.get(notes.toString());
        assertEquals("failed", text.get("status").asText());
        assertTrue(text.get("reason").asText().contains("not a trace format"), text.toString());
        assertTrue(stderr.contains(notes.toString()), stderr);
        for (var e : good.entrySet()) {
            JsonNode r = byFile.get(e.getKey().toAbsolutePath().normalize().toString());
            assertNotEquals("failed", r.get("status").asText(), r.toString());
            assertEquals(e.getValue(), r.get("trace").asText());
        }
        try (ParquetDataset d = ParquetDataset.open(dataset, null)) {
            assertEquals(good.values().stream().sorted().toList(), d.traces());
        }
        // nothing of the job is left in the dataset folder
        try (var s = Files.list(dataset)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().startsWith(".hetscope-job-")));
        }
    }

    @Test
    void eventsMatchAStoreImportedByHetscopeImport() throws Exception {
        Map<String, Path> stores = stores();
        JsonNode rows = new ObjectMapper().readTree(stdout);
        Map<String, Long> events = new HashMap<>();
        rows.forEach(r -> events.put(r.get("trace").asText(), r.get("events").asLong()));
        for (var e : stores.entrySet()) {
            try (Store s = Store.open(e.getValue())) {
                long n = ((Number) s.query("SELECT (SELECT count(*) FROM slice) + (SELECT count(*) FROM instant) "
                        + "+ (SELECT count(*) FROM counter)").rows().get(0)[0]).longValue();
                assertEquals(n, events.get(e.getKey()), e.getKey());
                assertTrue(n > 0, e.getKey());
            }
        }
    }

    @Test
    void everyAnalysisIsIdenticalOnStoresDuckDbAndSpark() throws Exception {
        Map<String, Path> stores = stores();
        try (Engine s = new TestTraces.StoresEngine(stores); Engine d = new DuckEngine(dataset);
                Engine k = new SparkEngine(spark, dataset)) {
            for (String name : Analyses.NAMES) {
                Table ts = s.analysis(name);
                Table td = d.analysis(name);
                Table tk = k.analysis(name);
                assertTrue(ts.size() > 0, name + " has rows");
                assertEquals(TestTraces.dump(ts), TestTraces.dump(td), name + ": stores vs dataset on DuckDB");
                assertEquals(TestTraces.dump(td), TestTraces.dump(tk), name + ": DuckDB vs Spark");
            }
            // the same for a query of the user's (hetscope spark sql)
            String q = "SELECT trace, category, count(*) AS n, sum(dur) AS total_ns FROM slice GROUP BY trace, "
                    + "category ORDER BY trace, category";
            assertEquals(TestTraces.dump(d.query(q)), TestTraces.dump(k.query(q)));
            assertEquals(TestTraces.dump(s.query(q)), TestTraces.dump(d.query(q)));
        }
    }

    /** stats and gpu against figures recomputed in Java from each store's raw slices, and the store's own view. */
    /**
     * Every table of the stores is a table of the dataset with the same columns and rows on DuckDB and on Spark, also
     * those without rows in every trace (tasks write no file for them; the merge keeps one empty file).
     */
    @Test
    void everyTableOfTheStoresReadsTheSameOnBothEngines() throws Exception {
        java.util.Set<String> tables = new java.util.TreeSet<>();
        for (Path store : stores().values()) {
            try (Store s = Store.open(store)) {
                s.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' AND table_type "
                        + "= 'BASE TABLE'").rows().forEach(r -> tables.add((String) r[0]));
            }
        }
        try (ParquetDataset d = ParquetDataset.open(dataset, null); Engine k = new SparkEngine(spark, dataset)) {
            assertTrue(d.tables().keySet().containsAll(tables), d.tables() + " lacks some of " + tables);
            for (String t : tables) {
                Table a = d.query("SELECT * FROM " + t + " LIMIT 0");
                assertEquals(a.columns(), k.query("SELECT * FROM " + t + " LIMIT 0").columns(), t);
                assertEquals(TestTraces.dump(d.query("SELECT count(*) AS n FROM " + t)),
                        TestTraces.dump(k.query("SELECT count(*) AS n FROM " + t)), t);
            }
        }
    }

    @Test
    void statsAndBusyTimeAgreeWithARecount() throws Exception {
        Map<String, Path> stores = stores();
        try (Engine d = new DuckEngine(dataset)) {
            Table stats = d.analysis("stats");
            Table gpu = d.analysis("gpu");
            for (var e : stores.entrySet()) {
                Map<String, long[]> expect = new TreeMap<>();
                Map<Long, List<long[]>> intervals = new TreeMap<>();
                Map<Long, Long> storeBusy = new HashMap<>();
                try (Store s = Store.open(e.getValue())) {
                    for (Object[] r : s.query("SELECT s.category, s.name, s.dur, s.ts, coalesce(t.device_id, "
                            + "p.device_id) FROM slice s JOIN track t ON t.id = s.track_id LEFT JOIN track p ON "
                            + "p.id = t.parent_id AND p.kind = 'device'").rows()) {
                        String cat = (String) r[0];
                        long dur = ((Number) r[2]).longValue();
                        if (List.of("kernel", "cpu_op", "api", "task", "memcpy", "memset").contains(cat)) {
                            long[] a = expect.computeIfAbsent(cat + "\u0000" + r[1],
                                    k -> new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE});
                            a[0]++;
                            a[1] += dur;
                            a[2] = Math.min(a[2], dur);
                            a[3] = Math.max(a[3], dur);
                        }
                        if (r[4] != null && List.of("kernel", "task", "memcpy", "memset").contains(cat) && dur > 0) {
                            long ts = ((Number) r[3]).longValue();
                            intervals.computeIfAbsent(((Number) r[4]).longValue(), k -> new ArrayList<>())
                                    .add(new long[] {ts, ts + dur});
                        }
                    }
                    for (Object[] r : s.query("SELECT device_id, busy_ns FROM hs_device_utilisation WHERE level = "
                            + "'device'").rows()) {
                        storeBusy.put(((Number) r[0]).longValue(), ((Number) r[1]).longValue());
                    }
                }
                Map<String, long[]> got = new TreeMap<>();
                for (Object[] r : stats.rows()) {
                    if (r[stats.column("trace")].equals(e.getKey())) {
                        got.put(r[stats.column("category")] + "\u0000" + r[stats.column("name")], new long[] {
                            (Long) r[stats.column("count")], (Long) r[stats.column("total_ns")],
                            (Long) r[stats.column("min_ns")], (Long) r[stats.column("max_ns")]});
                    }
                }
                assertEquals(expect.keySet(), got.keySet(), e.getKey());
                expect.forEach((k, v) -> assertEquals(List.of(v[0], v[1], v[2], v[3]),
                        List.of(got.get(k)[0], got.get(k)[1], got.get(k)[2], got.get(k)[3]), e.getKey() + " " + k));
                for (var dev : intervals.entrySet()) {
                    long busy = union(dev.getValue());
                    Long shown = null;
                    for (Object[] r : gpu.rows()) {
                        if (r[gpu.column("trace")].equals(e.getKey()) && dev.getKey().equals(r[gpu.column("device_id")])) {
                            shown = (Long) r[gpu.column("busy_ns")];
                        }
                    }
                    assertEquals(busy, shown, e.getKey() + " device " + dev.getKey());
                    assertEquals(busy, storeBusy.get(dev.getKey()), e.getKey() + " device " + dev.getKey()
                            + " against the store's hs_device_utilisation");
                }
            }
        }
    }

    /** Brute force: sort, sweep. */
    static long union(List<long[]> spans) {
        List<long[]> s = new ArrayList<>(spans);
        s.sort((a, b) -> Long.compare(a[0], b[0]));
        long total = 0;
        long start = Long.MIN_VALUE;
        long end = Long.MIN_VALUE;
        for (long[] x : s) {
            if (x[0] > end) {
                total += end - start;
                start = x[0];
                end = x[1];
            } else {
                end = Math.max(end, x[1]);
            }
        }
        return total + (end - start);
    }

    /** The synthetic ranks worked by hand: medians, MADs, scores, comm vs compute, imbalance. */
    @Test
    void stragglersCommunicationAndImbalanceByHand() throws Exception {
        try (Engine d = new DuckEngine(dataset)) {
            Table st = d.analysis("stragglers");
            // step 1001: 100 102 98 101 150 us: median 101; |d| 1 1 3 0 49 -> median 1 us; rank4 (150) scores 49
            // step 1002: 200 260 199 201 200: median 200; |d| 0 60 1 1 0 -> 0 0 1 1 60 -> median 1; rank1 scores 60
            Map<String, Object[]> first = new HashMap<>();
            for (Object[] r : st.rows()) {
                if (((Long) r[st.column("place")]) == 1 && ((String) r[st.column("trace")]).startsWith("rank")) {
                    first.put(r[st.column("iteration")].toString(), r);
                }
            }
            Object[] s1 = first.get("1001");
            assertEquals("rank4", s1[st.column("trace")]);
            assertEquals(101_000.0, s1[st.column("median_ns")]);
            assertEquals(1_000.0, s1[st.column("mad_ns")]);
            assertEquals(49.0, s1[st.column("straggler_score")]);
            Object[] s2 = first.get("1002");
            assertEquals("rank1", s2[st.column("trace")]);
            assertEquals(200_000.0, s2[st.column("median_ns")]);
            assertEquals(60.0, s2[st.column("straggler_score")]);

            Table ranks = d.analysis("ranks");
            long sumBusy = 0;
            long maxBusy = 0;
            int n = 0;
            Map<String, Long> busy = new HashMap<>();
            for (Object[] r : ranks.rows()) {
                String trace = (String) r[ranks.column("trace")];
                busy.put(trace, (Long) r[ranks.column("busy_ns")]);
                sumBusy += (Long) r[ranks.column("busy_ns")];
                maxBusy = Math.max(maxBusy, (Long) r[ranks.column("busy_ns")]);
                n++;
                if (trace.startsWith("rank")) {
                    int k = Integer.parseInt(trace.substring(4));
                    // two steps, each one NCCL kernel and one GEMM that do not overlap
                    assertEquals(2 * NCCL_US[k] * 1000, r[ranks.column("comm_ns")], trace);
                    assertEquals(2 * GEMM_US[k] * 1000, r[ranks.column("compute_ns")], trace);
                    assertEquals(2 * (NCCL_US[k] + GEMM_US[k]) * 1000, r[ranks.column("busy_ns")], trace);
                }
            }
            Table imb = d.analysis("imbalance");
            assertEquals((long) n, imb.rows().get(0)[imb.column("ranks")]);
            assertEquals(maxBusy / ((double) sumBusy / n), (Double) imb.rows().get(0)[imb.column("imbalance")], 1e-12);
            assertEquals(maxBusy, imb.rows().get(0)[imb.column("max_busy_ns")]);
        }
    }
}
