package org.hetscope.e2e;

import static org.hetscope.e2e.Hetscope.FIXTURES;
import static org.hetscope.e2e.Hetscope.ROOT;
import static org.hetscope.e2e.Hetscope.run;
import static org.hetscope.e2e.Hetscope.storeLong;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/**
 * Every command of README.md and {@code ./hetscope --help}, run through {@code ./hetscope} on the packaged jar, on
 * real fixtures of each format (../shared/fixtures, examples/). Each case checks the exit code, the shape and key
 * values of the {@code --json} output against an independent count (the raw file read here, DuckDB or SQLite read
 * directly, the fixture's published counts, the kernel's arithmetic), and opens the files written (stores, HTML,
 * SVG, PNG). All cases live in this class, one method per command or family, each naming what it covers in
 * {@link Covers}; {@link #everyListedCommandHasACase} fails when a listed command has none. Stores are imported
 * once, in {@link #importAll}, and shared.
 */
class EndToEndTest {
    @TempDir
    static Path work;

    static final Path KINETO = ROOT.resolve("examples/kineto-cuda-simple-add.json.gz");
    static final Path CUPTI = FIXTURES.resolve("chrome/kineto-cuda-cupti-profiler.json.gz");
    static final Path NSYS = FIXTURES.resolve("nsys/perlmutter-cloverleaf-cuda.sqlite");
    static final Path STARPU = FIXTURES.resolve("starpu/chol-dmda-nb6");
    static final Path CYG = FIXTURES.resolve("ctf/cyg-profile/glxgears-cyg-profile");
    static final Path PERF = FIXTURES.resolve("ctf/perf-taskset2");
    static final Path OTF2 = FIXTURES.resolve("otf2/ping-pong-otf2/traces.otf2");
    static final Path KNN = ROOT.resolve("capture/kernels/src/test/resources/kernels/knn.cl");
    /** Tracks of the generated many-thread trace: more than the web view answers in one request (5000). */
    static final int MANY_TRACKS = 16_000;

    /** Stores imported once; key: a short name of the input. */
    static final Map<String, Path> STORES = new TreeMap<>();
    static final Map<String, Hetscope.Result> IMPORTS = new TreeMap<>();

    @BeforeAll
    static void importAll() throws Exception {
        Hetscope.requireBuilt();
        Path many = work.resolve("many-threads.json");
        writeManyThreads(many);
        Map<String, Path> inputs = new TreeMap<>(Map.of("kineto", KINETO, "cupti", CUPTI, "nsys", NSYS,
                "starpu", STARPU, "cyg", CYG, "perf", PERF, "otf2", OTF2, "many", many));
        for (var e : inputs.entrySet()) {
            Path store = work.resolve(e.getKey() + ".duckdb");
            IMPORTS.put(e.getKey(), run(work, "import", e.getValue().toString(), "-o", store.toString()));
            STORES.put(e.getKey(), store);
        }
    }

    /** One Chrome JSON thread per track, one kernel-like slice on each (a kernel trace has a track per thread). */
    static void writeManyThreads(Path file) throws IOException {
        StringBuilder b = new StringBuilder("{\"traceEvents\":[\n");
        for (int t = 0; t < MANY_TRACKS; t++) {
            b.append(t == 0 ? "" : ",\n").append("{\"name\":\"work").append(t % 7).append("\",\"ph\":\"X\",\"pid\":1,")
                    .append("\"tid\":").append(t).append(",\"ts\":").append(t).append(",\"dur\":").append(5 + t % 11)
                    .append(",\"cat\":\"cpu_op\"}");
        }
        Files.writeString(file, b.append("]}\n"));
    }

    static Path store(String name) {
        return STORES.get(name);
    }

    static String s(String name) {
        return store(name).toString();
    }

    // ---------------------------------------------------------------------------------------------------------
    // import, info, sql, stats, gpu

    @Test
    @Covers("import")
    void importsEveryFormat() throws Exception {
        for (var e : IMPORTS.entrySet()) {
            e.getValue().ok();
            assertTrue(Files.size(store(e.getKey())) > 0, e.getKey());
        }
        // Kineto: kernels in the store = events of category "kernel" in the raw JSON, read here with Jackson
        JsonNode events;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(KINETO))) {
            events = Hetscope.JSON.readTree(in).get("traceEvents");
        }
        long kernels = 0;
        for (JsonNode ev : events) {
            if ("kernel".equals(ev.path("cat").asText()) && "X".equals(ev.path("ph").asText())) {
                kernels++;
            }
        }
        assertTrue(kernels > 0);
        assertEquals(kernels, storeLong(store("kineto"), "select count(*) from slice where category = 'kernel'"));
        // Nsight: kernels and memcpys = rows of the CUPTI activity tables, read with SQLite
        assertEquals(Hetscope.sqliteLong(NSYS, "select count(*) from CUPTI_ACTIVITY_KIND_KERNEL"),
                storeLong(store("nsys"), "select count(*) from slice where category = 'kernel'"));
        assertEquals(Hetscope.sqliteLong(NSYS, "select count(*) from CUPTI_ACTIVITY_KIND_MEMCPY"),
                storeLong(store("nsys"), "select count(*) from transfer where kind in ('HtoD', 'DtoH', 'DtoD', 'HtoH',"
                        + " 'PtoP')"));
        // StarPU: tasks and dependencies = nodes and edges of dag.dot
        String dot = Files.readString(STARPU.resolve("dag.dot"));
        assertEquals(count(dot, "(?m)^\\s*\"task_\\d+\"\\s*\\["), storeLong(store("starpu"), "select count(*) from task"));
        assertEquals(count(dot, "->"), storeLong(store("starpu"), "select count(*) from task_dependency"));
        // CTF cyg-profile: one slice per func_entry (EXPECTED.tsv: 4977 events, 2490 entries, 2487 exits)
        assertEquals(2490, storeLong(store("cyg"), "select count(*) from slice"));
        // the generated trace: one track and one slice per thread
        assertEquals(MANY_TRACKS, storeLong(store("many"), "select count(*) from slice"));
        assertTrue(storeLong(store("many"), "select count(*) from track") >= MANY_TRACKS);
        // OTF2: one slice per ENTER of the archive (otf2 print lists them)
        String print = run(work, "otf2", "print", OTF2.toString()).ok().out();
        assertEquals(count(print, "(?m)^ENTER\\s"), storeLong(store("otf2"), "select count(*) from slice"));
        // a damaged input: exit code 3, the intact part kept
        Path cut = work.resolve("cut.json");
        String text = Files.readString(work.resolve("many-threads.json"));
        Files.writeString(cut, text.substring(0, text.length() / 2));
        Path cutStore = work.resolve("cut.duckdb");
        Hetscope.Result stopped = run(work, "import", cut.toString(), "-o", cutStore.toString());
        assertTrue(stopped.exit() != 0 && stopped.err().contains("cut.json"), stopped::toString);
        Hetscope.Result r = run(work, "import", cut.toString(), "-o", cutStore.toString(), "--keep-partial");
        assertEquals(3, r.exit(), r::toString);
        long kept = storeLong(cutStore, "select count(*) from slice");
        assertTrue(kept > 0 && kept < MANY_TRACKS, "kept " + kept);
    }

    @Test
    @Covers("import")
    void importMergesClocks() throws Exception {
        // A Kineto trace (µs since the Unix epoch) and an Nsight export (ns since its session start) in one store:
        // the Nsight source is put on the epoch by its session start, read here from the SQLite file.
        Path merged = work.resolve("merged.duckdb");
        run(work, "import", KINETO.toString(), NSYS.toString(), "-o", merged.toString()).ok();
        long sessionStart = Hetscope.sqliteLong(NSYS, "select utcEpochNs from TARGET_INFO_SESSION_START_TIME");
        long firstKernel = Hetscope.sqliteLong(NSYS, "select min(start) from CUPTI_ACTIVITY_KIND_KERNEL");
        String nsysFirstKernel = "select min(s.ts) from slice s join kernel k on k.slice_id = s.id join device d"
                + " on d.id = k.device_id where d.name like '%SXM4%'"; // Nsight's GPU; Kineto's is a PG509
        JsonNode sources = run(work, "info", merged.toString(), "--json").ok().table("sources");
        assertEquals(2, sources.size());
        assertEquals("reference", sources.get(0).get("clock_method").asText());
        assertEquals("clock facts", sources.get(1).get("clock_method").asText());
        assertEquals(sessionStart, sources.get(1).get("clock_adjust_ns").asLong());
        assertEquals(sessionStart + firstKernel, storeLong(merged, nsysFirstKernel));
        // an offset given on the command line wins over the facts, here by the file's name
        run(work, "import", KINETO.toString(), NSYS.toString(), "-o", merged.toString(), "--clock",
                NSYS.getFileName() + "=+1500us").ok();
        sources = run(work, "info", merged.toString(), "--json").ok().table("sources");
        assertEquals("given", sources.get(1).get("clock_method").asText());
        assertEquals(firstKernel + 1_500_000, storeLong(merged, nsysFirstKernel));
        // a manifest names the traces and their offsets
        Path manifest = work.resolve("merge.json");
        Files.writeString(manifest, "{\"traces\": [{\"path\": \"" + KINETO + "\"}, {\"path\": \"" + NSYS
                + "\", \"offset\": \"-2ms\"}]}");
        run(work, "import", "--clock-manifest", manifest.toString(), "-o", merged.toString()).ok();
        assertEquals(firstKernel - 2_000_000, storeLong(merged, nsysFirstKernel));
        Hetscope.Result bad = run(work, "import", KINETO.toString(), "-o", merged.toString(), "--clock", "5=+1ms");
        assertEquals(2, bad.exit(), bad::toString);
        assertTrue(bad.err().contains("sources 1 to 1"), bad::toString);
    }

    @Test
    @Covers("info")
    void info() throws Exception {
        Hetscope.Result r = run(work, "info", s("kineto"), "--json").ok();
        assertEquals(storeLong(store("kineto"), "select count(*) from device"), r.table("devices").size());
        Map<String, Long> events = new HashMap<>();
        for (JsonNode row : r.table("events")) {
            events.put(row.get("record").asText() + "/" + row.get("category").asText(), row.get("count").asLong());
        }
        assertEquals(storeLong(store("kineto"), "select count(*) from slice where category = 'kernel'"),
                events.get("slice/kernel"));
        Map<String, String> trace = new HashMap<>();
        for (JsonNode row : r.table("trace")) {
            trace.put(row.get("item").asText(), row.get("value").asText());
        }
        assertEquals("chrome", trace.get("formats"));
        assertTrue(trace.get("sources").endsWith("kineto-cuda-simple-add.json.gz"), trace.toString());
    }

    @Test
    @Covers("sql")
    void sql() throws Exception {
        JsonNode rows = run(work, "sql", s("nsys"), "select name, count(*) as n from slice where category = 'kernel'"
                + " group by name order by n desc, name", "--json").ok().table("sql");
        long total = 0;
        for (JsonNode row : rows) {
            total += row.get("n").asLong();
        }
        assertEquals(Hetscope.sqliteLong(NSYS, "select count(*) from CUPTI_ACTIVITY_KIND_KERNEL"), total);
        assertEquals(Hetscope.sqliteLong(NSYS, "select count(distinct shortName) from CUPTI_ACTIVITY_KIND_KERNEL"),
                rows.size());
        run(work, "sql", s("nsys"), "select nonsense from nowhere").exit(1);
        // a typo is no statement, a write is refused as one: each said as it is
        Hetscope.Result typo = run(work, "sql", s("nsys"), "selec 1").exit(1);
        assertTrue(typo.err().contains("'selec' begins no SQL statement") && !typo.err().contains("read-only"),
                typo::toString);
        Hetscope.Result write = run(work, "sql", s("nsys"), "delete from slice").exit(1);
        assertTrue(write.err().contains("read-only: DELETE statements are refused"), write::toString);
    }

    /**
     * hetscope spark (not a command of hetscope.jar: the launcher runs the spark module with Spark's class path): an
     * import on local[1] of two fixtures and a file that is no trace, and the same query on Spark and on DuckDB.
     */
    @Test
    void sparkThroughTheLauncher() throws Exception {
        Path ds = work.resolve("spark-dataset");
        Path notes = Files.writeString(work.resolve("notes.txt"), "not a trace\n");
        Hetscope.Result imp = run(work, "spark", "import", KINETO.toString(), STARPU.toString(), notes.toString(), "-o",
                ds.toString(), "--master", "local[1]", "--json").exit(3);
        assertTrue(imp.err().contains(notes.toString()), imp::toString);
        Map<String, String> status = new HashMap<>();
        imp.json().forEach(r -> status.put(r.get("trace").asText(), r.get("status").asText()));
        assertEquals(Map.of("kineto-cuda-simple-add", "ok", "chol-dmda-nb6", "ok", "notes.txt", "failed"), status);
        String q = "select count(*) as n from slice where trace = 'kineto-cuda-simple-add' and category = 'kernel'";
        long kernels = storeLong(store("kineto"), "select count(*) from slice where category = 'kernel'");
        assertEquals(kernels, run(work, "spark", "sql", ds.toString(), q, "--master", "local[1]", "--json").ok()
                .json().get(0).get("n").asLong());
        assertEquals(kernels, run(work, "spark", "sql", ds.toString(), q, "--engine", "duckdb", "--json").ok()
                .json().get(0).get("n").asLong());
    }

    @Test
    @Covers("export")
    void exportParquet() throws Exception {
        // two stores of different formats into one dataset, read back by DuckDB directly and through `sql`
        Path ds = work.resolve("dataset");
        JsonNode rows = run(work, "export", s("nsys"), s("starpu"), "--parquet", ds.toString(), "--json").ok()
                .table("export");
        Map<String, Long> exported = new HashMap<>();
        for (JsonNode row : rows) {
            exported.put(row.get("trace").asText() + "/" + row.get("table").asText(), row.get("rows").asLong());
        }
        for (String name : List.of("nsys", "starpu")) {
            for (String table : List.of("slice", "track", "device", "trace_info")) {
                long inStore = storeLong(store(name), "select count(*) from " + table);
                assertEquals(inStore, exported.get(name + "/" + table), name + "/" + table);
                String files = ds.resolve(table).resolve("trace=" + name).resolve("*.parquet").toString();
                assertEquals(inStore, storeLong(store(name), "select count(*) from read_parquet('" + files + "')"));
            }
        }
        JsonNode manifest = Hetscope.JSON.readTree(ds.resolve("_hetscope_dataset.json").toFile());
        assertEquals(2, manifest.get("traces").size());
        assertEquals(Hetscope.sqliteLong(NSYS, "select count(*) from CUPTI_ACTIVITY_KIND_KERNEL"),
                run(work, "sql", ds.toString(), "select count(*) as n from slice where category = 'kernel' and trace = "
                        + "'nsys'", "--json").ok().table("sql").get(0).get("n").asLong());
        // the same query on the store and on its trace in the dataset
        String q = "select * from hs_device_utilisation order by all";
        assertEquals(run(work, "sql", s("nsys"), q, "--json").ok().out(),
                run(work, "sql", ds.toString(), "--trace", "nsys", q, "--json").ok().out());
        // no overwrite, no other files
        Hetscope.Result again = run(work, "export", s("nsys"), "--parquet", ds.toString()).exit(1);
        assertTrue(again.err().contains("already holds trace 'nsys'"), again::toString);
        Hetscope.Result passwd = run(work, "sql", ds.toString(), "select * from read_csv('/etc/passwd')").exit(1);
        assertTrue(passwd.err().contains("read-only"), passwd::toString);
    }

    @Test
    @Covers("stats")
    void stats() throws Exception {
        JsonNode kernels = run(work, "stats", s("kineto"), "--json").ok().table("kernels");
        long count = 0;
        for (JsonNode row : kernels) {
            count += row.get("count").asLong();
            String name = row.get("name").asText().replace("'", "''");
            assertEquals(storeLong(store("kineto"), "select sum(dur) from slice where category = 'kernel' and name = '"
                    + name + "'"), row.get("total_ns").asLong(), name);
            assertTrue(row.get("min_ns").asLong() <= row.get("max_ns").asLong(), name);
        }
        assertEquals(storeLong(store("kineto"), "select count(*) from slice where category = 'kernel'"), count);
    }

    @Test
    @Covers("gpu")
    void gpu() throws Exception {
        Hetscope.Result r = run(work, "gpu", s("nsys"), "--json").ok();
        JsonNode devices = r.table("utilisation per device");
        assertTrue(devices.size() >= 1);
        for (JsonNode d : devices) {
            assertTrue(d.get("busy_ns").asLong() <= d.get("window_ns").asLong(), d.toString());
            assertTrue(d.get("compute_ns").asLong() <= d.get("busy_ns").asLong(), d.toString());
        }
        // one launch latency per kernel launched by correlation
        long launches = 0;
        for (JsonNode row : r.table("launch latency")) {
            if (row.get("activity").asText().equals("kernel")) {
                launches += row.get("count").asLong();
            }
        }
        assertEquals(Hetscope.sqliteLong(NSYS, "select count(*) from CUPTI_ACTIVITY_KIND_KERNEL"), launches);
    }

    @Test
    @Covers("diff")
    void diff() throws Exception {
        // a store against the trace it came from (imported again to a temporary store): nothing changed
        Hetscope.Result same = run(work, "diff", s("kineto"), KINETO.toString(), "--json").ok();
        JsonNode ops = same.table("operations");
        long kernels = 0;
        for (JsonNode row : ops) {
            assertEquals("same", row.get("status").asText(), row.toString());
            assertEquals(0, row.get("change_ns").asLong(), row.toString());
            assertEquals(1.0, row.get("p_value").asDouble(), row.toString());
            if (row.get("category").asText().equals("kernel")) {
                kernels += row.get("a_count").asLong();
            }
        }
        assertEquals(storeLong(store("kineto"), "select count(*) from slice where category = 'kernel'"), kernels);
        assertEquals(storeLong(store("kineto"), "select count(distinct (category, name)) from slice"), ops.size());
        for (JsonNode row : same.table("utilisation per device")) {
            assertEquals(0, row.get("busy_change_ns").asLong(), row.toString());
        }
        // two different runs: every operation of either, the largest change of the total first; B's kernel
        // totals are those of the Nsight store
        Hetscope.Result other = run(work, "diff", s("kineto"), s("nsys"), "--json").ok();
        JsonNode rows = other.table("operations");
        long last = Long.MAX_VALUE;
        long nsysKernelNs = 0;
        for (JsonNode row : rows) {
            long c = Math.abs(row.get("change_ns").asLong());
            assertTrue(c <= last, row.toString());
            last = c;
            if (row.get("category").asText().equals("kernel") && !row.get("b_total_ns").isNull()) {
                nsysKernelNs += row.get("b_total_ns").asLong();
            }
        }
        assertEquals(Hetscope.sqliteLong(NSYS, "select sum(\"end\" - start) from CUPTI_ACTIVITY_KIND_KERNEL"),
                nsysKernelNs);
        run(work, "diff", s("kineto"), s("nsys"), "--csv").ok();
        assertEquals(0, run(work, "diff", s("kineto"), s("kineto"), "--changed", "--json").ok().table("operations")
                .size());
        assertEquals(2, run(work, "diff", s("kineto"), s("kineto"), "--alpha", "2").exit());
        Hetscope.Result missing = run(work, "diff", s("kineto"), work.resolve("no-such.duckdb").toString());
        assertEquals(1, missing.exit(), missing::toString);
        assertTrue(missing.err().contains("no-such.duckdb"), missing::toString);
    }

    // ---------------------------------------------------------------------------------------------------------
    // flows, lanes, counters, roofline, advise, sched

    @Test
    @Covers({"flows", "lanes"})
    void flowsAndLanes() throws Exception {
        long arrows = 0;
        for (JsonNode row : run(work, "flows", s("kineto"), "--summary", "--json").ok().table("flows")) {
            arrows += row.get("flows").asLong();
        }
        assertEquals(storeLong(store("kineto"), "select count(*) from flow"), arrows);
        JsonNode launch = run(work, "flows", s("kineto"), "--json").ok().table("flows");
        for (JsonNode f : launch) {
            assertTrue(f.get("activity_ts").asLong() >= f.get("call_ts").asLong() || f.get("guess").asBoolean(),
                    f.toString());
        }
        assertEquals(storeLong(store("kineto"), "select count(*) from flow"), launch.size());

        JsonNode lanes = run(work, "lanes", s("kineto"), "--json").ok().table("lanes");
        Set<String> kinds = new TreeSet<>();
        for (JsonNode l : lanes) {
            kinds.add(l.get("kind").asText());
        }
        assertTrue(kinds.contains("thread") && kinds.contains("api"), kinds.toString());
        assertTrue(lanes.size() >= storeLong(store("kineto"), "select count(distinct thread_id) from track"
                + " where thread_id is not null"));
    }

    @Test
    @Covers({"counters", "roofline"})
    void countersAndRoofline() throws Exception {
        JsonNode perKernel = run(work, "counters", s("cupti"), "--json").ok().table("counters");
        assertFalse(perKernel.isEmpty());
        Set<String> counters = new TreeSet<>();
        for (JsonNode row : perKernel) {
            counters.add(row.get("counter").asText());
            assertTrue(row.get("min").asDouble() <= row.get("max").asDouble(), row.toString());
        }
        assertTrue(counters.contains("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"), counters.toString());
        Path profile = work.resolve("a100.properties");
        Files.writeString(profile, """
                peakFlops=19.5e12
                peakBandwidth=1.555e12
                flops=2*smsp__sass_thread_inst_executed_op_ffma_pred_on.sum+smsp__sass_thread_inst_executed_op_fmul_pred_on.sum+smsp__sass_thread_inst_executed_op_fadd_pred_on.sum
                bytes=4*smsp__sass_thread_inst_executed_op_fmul_pred_on.sum+4
                """);
        JsonNode roof = run(work, "roofline", s("cupti"), "--device-profile", profile.toString(), "--json").ok()
                .table("roofline");
        assertFalse(roof.isEmpty());
        // without peaks it says what to give instead of guessing
        Hetscope.Result none = run(work, "roofline", s("cupti"));
        assertTrue(none.exit() != 0 && none.err().contains("--"), none::toString);
    }

    @Test
    @Covers("advise")
    void advise() {
        JsonNode advice = run(work, "advise", s("nsys"), "--json").ok().table("advice");
        Set<String> rules = new TreeSet<>();
        for (JsonNode a : advice) {
            rules.add(a.get("rule").asText());
            assertFalse(a.get("evidence").asText().isBlank(), a.toString());
        }
        // CloverLeaf on Perlmutter: launch-bound kernels; the GPU is 88.7 % busy from its first to its last
        // activity (the gpu case's numbers, hs_device_utilisation), so it is not called idle
        assertTrue(rules.contains("launch-bound") && !rules.contains("gpu-idle"), rules.toString());
    }

    @Test
    @Covers("sched")
    void sched() throws Exception {
        Hetscope.Result r = run(work, "sched", s("perf"), "--json").ok();
        JsonNode cpus = r.table("CPUs");
        assertFalse(cpus.isEmpty());
        for (JsonNode c : cpus) {
            double pct = c.get("busy_pct").asDouble();
            assertTrue(pct >= 0 && pct <= 100, c.toString());
        }
        // a store without scheduler events says so, non-zero
        Hetscope.Result none = run(work, "sched", s("cyg"));
        assertTrue(none.exit() != 0 && none.err().contains("no scheduler"), none::toString);
    }

    // ---------------------------------------------------------------------------------------------------------
    // memory, tasks

    @Test
    @Covers({"memory residency", "memory history", "memory snapshot", "memory heatmap", "memory gantt",
        "memory detect"})
    void memory() throws Exception {
        // the StarPU folder itself, as for import
        Path svg = work.resolve("residency.svg");
        JsonNode bins = run(work, "memory", STARPU.toString(), "residency", "--json", "--svg", svg.toString()).ok()
                .table("residency");
        assertFalse(bins.isEmpty());
        for (JsonNode b : bins) {
            assertTrue(b.get("present_ns").asLong() <= b.get("bin_end_ts").asLong() - b.get("bin_start_ts").asLong(),
                    b.toString());
        }
        svg(svg);
        String st = s("starpu");
        JsonNode heat = run(work, "memory", st, "heatmap", "--json").ok().table("heatmap");
        Set<String> blocks = new TreeSet<>();
        for (JsonNode h : heat) {
            blocks.add(h.get("block").asText());
        }
        // every block the StarPU data.rec names appears
        assertEquals(count(Files.readString(STARPU.resolve("data.rec")), "(?m)^Handle:"), blocks.size());
        assertFalse(run(work, "memory", st, "history", "1 0", "--json").ok().json().isEmpty());
        long t0 = storeLong(store("starpu"), "select min(start_ts) from task");
        long t1 = storeLong(store("starpu"), "select max(end_ts) from task");
        Hetscope.Result snap = run(work, "memory", st, "snapshot", "@" + ((t0 + t1) / 2), "--json").ok();
        assertTrue(snap.json().size() >= 2, snap::toString);
        JsonNode gantt = run(work, "memory", st, "gantt", "--json").ok().table("gantt");
        for (JsonNode g : gantt) {
            assertTrue(g.get("percent").asDouble() >= 0 && g.get("percent").asDouble() <= 100, g.toString());
        }
        JsonNode detect = run(work, "memory", st, "detect", "--json").ok().json();
        assertTrue(detect.size() >= 5, detect.toString());
    }

    @Test
    @Covers("tasks critical-path")
    void tasks() throws Exception {
        String dot = Files.readString(STARPU.resolve("dag.dot"));
        Hetscope.Result r = run(work, "tasks", STARPU.toString(), "critical-path", "--json").ok();
        JsonNode summary = r.table("Critical path vs makespan").get(0);
        assertEquals(count(dot, "(?m)^\\s*\"task_\\d+\"\\s*\\["), summary.get("tasks").asLong());
        assertEquals(count(dot, "->"), summary.get("edges").asLong());
        long sum = 0;
        for (JsonNode step : r.table("Critical path")) {
            sum += step.get("dur_ns").asLong();
        }
        assertEquals(summary.get("path_ns").asLong(), sum);
        assertTrue(summary.get("path_ns").asLong() <= summary.get("makespan_ns").asLong());
    }

    /** User reports: commands on a store without the data they read say so, with a non-zero exit code. */
    @Test
    @Covers({"memory residency", "tasks critical-path", "plot"})
    void missingDataIsNamedNotPrintedAsEmptyTables() {
        // a trace of another format is read as report/plot read it, and then found to hold no such data
        Hetscope.Result m = run(work, "memory", KINETO.toString(), "residency");
        assertTrue(m.exit() != 0 && m.err().contains("no task-runtime memory data"), m::toString);
        assertEquals("", m.out());
        Hetscope.Result t = run(work, "tasks", s("nsys"), "critical-path", "--json");
        assertTrue(t.exit() != 0 && t.err().contains("no tasks"), t::toString);
        Path svg = work.resolve("no-kernels.svg");
        Hetscope.Result p = run(work, "plot", s("starpu"), "kernels", "-o", svg.toString());
        assertTrue(p.exit() != 0 && p.err().contains("no kernels"), p::toString);
        assertFalse(Files.exists(svg));
    }

    // ---------------------------------------------------------------------------------------------------------
    // serve, report, plot

    @Test
    @Covers("serve")
    void serve() throws Exception {
        Path log = work.resolve("serve.log");
        Process p = Hetscope.start(work, log, "serve", s("kineto"), STARPU.toString());
        try {
            String url = null;
            for (int i = 0; i < 600 && url == null; i++) {
                Matcher m = Pattern.compile("serving 2 trace\\(s\\) at (http://\\S+)").matcher(Hetscope.read(log));
                if (m.find()) {
                    url = m.group(1);
                } else if (!p.isAlive()) {
                    fail("serve stopped: " + Hetscope.read(log));
                } else {
                    Thread.sleep(100);
                }
            }
            assertNotNull(url, "serve printed no address: " + Hetscope.read(log));
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(url)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, page.statusCode());
            assertTrue(page.body().contains("<html") || page.body().contains("<!doctype"), page.body());
            URI api = URI.create(url).resolve("/api/traces");
            JsonNode traces = Hetscope.JSON.readTree(http.send(HttpRequest.newBuilder(api).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            assertEquals(2, traces.size());
            assertEquals(storeLong(store("kineto"), "select count(*) from track"), traces.get(0).get("tracks").asLong());
        } finally {
            p.destroy();
            p.waitFor();
        }
    }

    @Test
    @Covers("report")
    void report() throws Exception {
        Path html = work.resolve("kineto.html");
        run(work, "report", s("kineto"), "-o", html.toString()).ok();
        String text = Files.readString(html);
        for (String banned : new String[] {"<script", "src=", "http://", "https://"}) {
            assertFalse(text.contains(banned), "report contains " + banned);
        }
        long kernels = storeLong(store("kineto"), "select count(*) from slice where category = 'kernel'");
        assertTrue(text.contains("<th>kernels</th><td>" + String.format("%,d", kernels) + "</td>"), "kernel count");
        assertTrue(text.contains("<svg"));
        // the output never replaces an input, nor an existing file without --force
        byte[] storeBytes = Files.readAllBytes(store("kineto"));
        assertTrue(run(work, "report", s("kineto"), "-o", s("kineto"), "--force").exit(2).err()
                .contains("is one of the inputs"));
        assertArrayEquals(storeBytes, Files.readAllBytes(store("kineto")), "the store is intact");
        assertTrue(run(work, "report", s("nsys"), "-o", html.toString()).exit(2).err().contains("--force"));
        assertEquals(text, Files.readString(html), "the first report is intact");
        run(work, "report", s("nsys"), "-o", html.toString(), "--force").ok();
        assertTrue(Files.readString(html).contains("<h1>hetscope report: nsys"), "replaced with --force");
        // a StarPU folder, as import/memory/tasks take it
        Path starpu = work.resolve("starpu.html");
        run(work, "report", STARPU.toString(), "-o", starpu.toString()).ok();
        assertTrue(Files.readString(starpu).contains("<h1>hetscope report: chol-dmda-nb6</h1>"));
        // 16,000 tracks: more than one window request holds; the report still comes, and says what it left out
        Path many = work.resolve("many.html");
        run(work, "report", s("many"), "-o", many.toString()).ok();
        String m = Files.readString(many);
        assertTrue(m.contains("<th>tracks</th>"), "summary");
        assertTrue(m.contains("more tracks with"), "omitted tracks are counted");
        assertTrue(Files.size(many) < 20_000_000, "report of " + Files.size(many) + " bytes");
        // --diff: a comparison section with the rows of `diff A B --json`, the first operations row cell by cell
        Path diffHtml = work.resolve("diff.html");
        run(work, "report", s("kineto"), "--diff", s("cupti"), "-o", diffHtml.toString()).ok();
        String dt = Files.readString(diffHtml);
        JsonNode first = run(work, "diff", s("kineto"), s("cupti"), "--json").ok().table("operations").get(0);
        int at = dt.indexOf("<table id=\"diff-operations-table\">");
        assertTrue(at > 0, "diff section");
        String row = dt.substring(dt.indexOf("<tr><td", at), dt.indexOf("</tr>", dt.indexOf("<tr><td", at)));
        assertTrue(row.contains(">" + first.get("name").asText().replace("&", "&amp;").replace("<", "&lt;")
                .replace(">", "&gt;").replace("\"", "&quot;") + "</td>"), row);
        assertTrue(row.contains("data-v=\"" + first.get("change_ns").asLong() + "\""), row);
        assertTrue(row.contains("data-v=\"" + first.get("a_total_ns").asLong() + "\""), row);
    }

    @Test
    @Covers("plot")
    void plot() throws Exception {
        Path timeline = work.resolve("timeline.svg");
        run(work, "plot", s("kineto"), "timeline", "-o", timeline.toString()).ok();
        Document d = svg(timeline);
        assertTrue(d.getElementsByTagName("rect").getLength() > 0);
        Path png = work.resolve("kernels.png");
        run(work, "plot", s("kineto"), "kernels", "-o", png.toString(), "--width", "900").ok();
        BufferedImage img = ImageIO.read(png.toFile());
        assertNotNull(img, "PNG readable");
        assertEquals(1800, img.getWidth(), "PNG at twice the width asked for");
        // into a folder that does not exist yet: made, as import makes it (before: ImageIO's stack trace, exit 1)
        Path deeper = work.resolve("new-folder/kernels.png");
        Hetscope.Result made = run(work, "plot", s("kineto"), "kernels", "-o", deeper.toString()).ok();
        assertFalse(made.err().contains("\tat ") || made.err().contains("Exception"), made::toString);
        assertNotNull(ImageIO.read(deeper.toFile()), "PNG readable");
        Path util = work.resolve("utilisation.svg");
        run(work, "plot", s("nsys"), "utilisation", "-o", util.toString()).ok();
        svg(util);
        // a StarPU folder
        Path starpu = work.resolve("starpu-timeline.svg");
        run(work, "plot", STARPU.toString(), "timeline", "-o", starpu.toString()).ok();
        svg(starpu);
        // 16,000 tracks
        Path many = work.resolve("many-timeline.svg");
        run(work, "plot", s("many"), "timeline", "-o", many.toString()).ok();
        Document md = svg(many);
        assertTrue(md.getDocumentElement().getTextContent().contains("more tracks with"));
        assertTrue(md.getElementsByTagName("rect").getLength() >= 400);
        run(work, "plot", s("kineto"), "nonsense", "-o", work.resolve("x.svg").toString()).exit(2);
    }

    // ---------------------------------------------------------------------------------------------------------
    // ctf, otf2

    @Test
    @Covers({"ctf dump", "ctf count"})
    void ctf() throws Exception {
        long expected = 4977; // ../shared/fixtures/ctf/EXPECTED.tsv, confirmed with babeltrace2
        assertTrue(Files.readString(FIXTURES.resolve("ctf/EXPECTED.tsv"))
                .contains("cyg-profile/glxgears-cyg-profile\t" + expected + "\t"));
        JsonNode counts = run(work, "ctf", "count", CYG.toString(), "--json").ok().table("count");
        long total = -1;
        long sum = 0;
        for (JsonNode row : counts) {
            if (row.get("event class").asText().equals("total")) {
                total = row.get("events").asLong();
            } else {
                sum += row.get("events").asLong();
            }
        }
        assertEquals(expected, total);
        assertEquals(expected, sum);
        String dump = run(work, "ctf", "dump", CYG.toString()).ok().out();
        assertEquals(expected, dump.lines().count());
        assertEquals(2490, count(dump, "func_entry:"));
    }

    @Test
    @Covers("otf2 print")
    void otf2() {
        String out = run(work, "otf2", "print", OTF2.toString()).ok().out();
        assertTrue(out.contains("PROGRAM_BEGIN"), out);
        // two MPI ranks ping-pong: as many sends as receives
        assertEquals(count(out, "(?m)^MPI_SEND\\s"), count(out, "(?m)^MPI_RECV\\s"));
        assertEquals(count(out, "(?m)^ENTER\\s"), count(out, "(?m)^LEAVE\\s"));
    }

    // ---------------------------------------------------------------------------------------------------------
    // mine

    @Test
    @Covers({"mine transactions", "mine itemsets", "mine closed", "mine sequences"})
    void mineStoresAndTransactions() throws Exception {
        // FIMI file whose supports are counted here by brute force
        List<int[]> transactions = List.of(new int[] {1, 2, 3}, new int[] {1, 2}, new int[] {2, 3}, new int[] {1, 2, 3},
                new int[] {4});
        StringBuilder b = new StringBuilder();
        for (int[] t : transactions) {
            b.append(String.join(" ", java.util.Arrays.stream(t).mapToObj(String::valueOf).toList())).append('\n');
        }
        Path fimi = work.resolve("t.fimi");
        Files.writeString(fimi, b);
        JsonNode all = run(work, "mine", "transactions", fimi.toString(), "--all", "--min-support=2", "--json").ok()
                .table("itemsets");
        int frequent = 0;
        for (int mask = 1; mask < 16; mask++) { // subsets of {1,2,3,4}
            int support = 0;
            for (int[] t : transactions) {
                int tm = 0;
                for (int i : t) {
                    tm |= 1 << (i - 1);
                }
                support += (tm & mask) == mask ? 1 : 0;
            }
            frequent += support >= 2 ? 1 : 0;
        }
        assertEquals(frequent, all.size(), all.toString());

        JsonNode itemsets = run(work, "mine", "itemsets", s("kineto"), "--min-support=5", "--json").ok()
                .table("itemsets");
        assertFalse(itemsets.isEmpty());
        JsonNode closed = run(work, "mine", "closed", s("kineto"), "--min-support=5", "--json").ok().table("closed");
        assertFalse(closed.isEmpty());
        for (JsonNode c : closed) {
            assertTrue(c.get("support").asLong() >= 5, c.toString());
        }
        JsonNode seq = run(work, "mine", "sequences", s("kineto"), "--min-support=5", "--json").ok().table("sequences");
        assertFalse(seq.isEmpty());
    }

    @Test
    @Covers({"mine generate", "mine contention", "mine scalability"})
    void mineAccessTraces() throws Exception {
        Path four = work.resolve("four.trace");
        Path two = work.resolve("two.trace");
        run(work, "mine", "generate", four.toString(), "--cores", "4", "--iterations", "20").ok();
        run(work, "mine", "generate", two.toString(), "--cores", "2", "--iterations", "20").ok();
        long events = Files.readAllLines(four).stream().filter(l -> !l.startsWith("#") && !l.isBlank()).count();
        JsonNode method = run(work, "mine", "contention", four.toString(), "--json").ok().table("method II");
        assertEquals(events, method.get(0).get("events").asLong());
        JsonNode runs = run(work, "mine", "scalability", two.toString(), four.toString(), "--json").ok()
                .json().elements().next();
        assertEquals(2, runs.size());
        assertEquals(2, runs.get(0).get("cores").asLong());
        assertEquals(4, runs.get(1).get("cores").asLong());
    }

    // ---------------------------------------------------------------------------------------------------------
    // kernel, capture (OpenCL: PoCL on the CPU here, the GPU's ICD elsewhere)

    static final String[] KNN_LAUNCH = {"--global", "64", "--local", "16", "--arg", "random:400", "--arg", "random:8",
        "--arg", "zeros:50", "--arg", "50", "--arg", "8"};
    static final int SET = 50;
    static final int DATA = 8;

    /** {@code kernel SUB knn.cl compute} and the launch of the kNN kernel. */
    static List<String> knn(String sub) {
        List<String> a = new ArrayList<>(List.of("kernel", sub, KNN.toString(), "compute"));
        a.addAll(List.of(KNN_LAUNCH));
        return a;
    }

    @Test
    @Covers({"kernel instrument", "kernel count"})
    void kernelInstrumentAndCount() throws Exception {
        String src = run(work, "kernel", "instrument", KNN.toString(), "compute").ok().out();
        assertTrue(src.contains("__kernel") && src.contains("atom"), src);
        Path db = work.resolve("knn-counters.duckdb");
        List<String> args = knn("count");
        args.addAll(List.of("--json", "-o", db.toString()));
        JsonNode j = run(work, args.toArray(String[]::new)).ok().json();
        Map<String, Long> byConstruct = new HashMap<>();
        for (JsonNode c : j.get("counters")) {
            String key = c.get("kind").asText() + (c.get("construct").isNull() ? "" : ":" + c.get("construct").asText());
            byConstruct.merge(key, c.get("value").asLong(), Long::sum);
        }
        // the kNN kernel's arithmetic: 64 work-items, SET of them compare DATA values each
        assertEquals(SET * DATA, byConstruct.get("visits:while"));
        assertEquals(SET, byConstruct.get("visits:if"));
        assertEquals(64 - SET, byConstruct.get("visits:else"));
        assertEquals(2L * SET * DATA, byConstruct.get("load"));
        assertEquals(SET, byConstruct.get("store"));
        assertTrue(storeLong(db, "select count(*) from information_schema.tables") > 0);
    }

    @Test
    @Covers("kernel trace")
    void kernelTrace() throws Exception {
        // reduced tracepoints: one record per loop iteration and one at the branch: SET * (DATA + 1) in all
        long expected = (long) SET * (DATA + 1);
        for (String strategy : new String[] {"two-phase", "shared", "subbuffer"}) {
            List<String> args = knn("trace");
            args.addAll(List.of("--strategy", strategy, "--chunk", "4", "--json"));
            Hetscope.Result r = run(work, args.toArray(String[]::new)).ok();
            JsonNode summary = r.table("trace of compute").get(0);
            assertEquals(expected, summary.get("records").asLong(), strategy + ": " + r);
            assertEquals(0, summary.get("lost").asLong(), strategy + " loses nothing by default: " + r);
            assertTrue(summary.get("valid").asBoolean(), r::toString);
        }
        // a pool given too small: said before the run, and the loss after it
        List<String> args = knn("trace");
        args.addAll(List.of("--strategy", "subbuffer", "--chunk", "4", "--chunks", "20", "--json"));
        Hetscope.Result small = run(work, args.toArray(String[]::new)).ok();
        assertTrue(small.err().contains("holds 20 chunks of 4 records"), small::toString);
        long lost = small.table("trace of compute").get(0).get("lost").asLong();
        assertTrue(lost > 0 && small.err().contains("lost " + lost + " of"), small::toString);
        Path db = work.resolve("knn-trace.duckdb");
        List<String> stored = knn("trace");
        stored.addAll(List.of("-o", db.toString()));
        run(work, stored.toArray(String[]::new)).ok();
        assertTrue(Files.size(db) > 0);
    }

    @Test
    @Covers("capture")
    void capture() throws Exception {
        Path agentTarget = ROOT.resolve("capture/agent/target");
        Path examples;
        try (var files = Files.list(agentTarget)) {
            examples = files.filter(f -> f.getFileName().toString().endsWith("-examples.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("no examples jar in " + agentTarget));
        }
        Path trace = work.resolve("pipeline");
        Path db = work.resolve("pipeline.duckdb");
        Path report = work.resolve("pipeline.report");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // no --agent: the launcher's jar finds the agent as a user's would
        Hetscope.Result r = run(work, "capture", "--out", trace.toString(), "-o", db.toString(), "--json", "--", java,
                "--enable-native-access=ALL-UNNAMED", "-Dhetscope.example.report=" + report, "-cp",
                Hetscope.classPathJar("jocl") + ":" + examples, "org.hetscope.capture.examples.TransferPipeline",
                "3", "16384").ok();
        Map<String, Long> program = new TreeMap<>();
        for (String line : Files.readAllLines(report)) {
            int eq = line.indexOf('=');
            program.put(line.substring(0, eq), Long.parseLong(line.substring(eq + 1)));
        }
        Map<String, JsonNode> rows = new HashMap<>();
        for (JsonNode row : r.table("capture")) {
            rows.put(row.get("what").asText(), row);
        }
        long calls = program.entrySet().stream().filter(e -> e.getKey().startsWith("call."))
                .mapToLong(Map.Entry::getValue).sum();
        assertEquals(calls, rows.get("API calls").get("count").asLong(), rows.toString());
        assertEquals(program.get("kernels"), rows.get("kernels").get("count").asLong());
        assertEquals(program.get("commands"), storeLong(db, "select count(*) from opencl_command"));
        assertTrue(Files.isRegularFile(trace.resolve("metadata")));
    }

    // ---------------------------------------------------------------------------------------------------------
    // help, and the list of commands

    @Test
    @Covers("help")
    void help() {
        Hetscope.Result r = run(work, "help", "stats").ok();
        assertTrue(r.out().startsWith("Usage: hetscope stats"), r::toString);
        Hetscope.Result bad = run(work, "no-such-command");
        assertEquals(2, bad.exit(), bad::toString);
        Hetscope.Result v = run(work, "--version").ok();
        assertTrue(v.out().startsWith("hetscope "), v::toString);
    }

    /** Commands with sub-commands, as the help lists them: "memory residency", "stats". */
    static Set<String> helpCommands() throws Exception {
        List<java.util.concurrent.Future<?>> runs = new ArrayList<>();
        Set<String> out = java.util.Collections.synchronizedSet(new TreeSet<>());
        // each command's own --help, a few at a time: two dozen JVM starts
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(3)) {
            for (String c : commandsIn(run(work, "--help").ok().out())) {
                runs.add(pool.submit(() -> {
                    List<String> subs = commandsIn(run(work, c, "--help").ok().out());
                    if (subs.isEmpty() || c.equals("help")) {
                        out.add(c);
                    } else {
                        subs.forEach(sub -> out.add(c + " " + sub));
                    }
                    return null;
                }));
            }
        }
        for (var r : runs) {
            r.get(); // a failed --help fails here
        }
        return new TreeSet<>(out);
    }

    /** The names of a usage text's "Commands:" section. */
    static List<String> commandsIn(String usage) {
        List<String> out = new ArrayList<>();
        int at = usage.indexOf("\nCommands:\n");
        if (at < 0) {
            return out;
        }
        Matcher m = Pattern.compile("(?m)^  ([a-z][a-z0-9-]*)(\\s|$)").matcher(usage.substring(at));
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /**
     * The commands README.md's "What it does" block names: lines "hetscope CMD[|CMD...] [SUB|SUB...] ARGS   text",
     * where " | " separates further commands on one line. A command given without sub-commands stands for all of
     * its sub-commands.
     */
    static Set<String> readmeCommands() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        int start = readme.indexOf("## What it does");
        assertTrue(start >= 0, "README.md has no 'What it does' section");
        int open = readme.indexOf("```", start);
        int close = readme.indexOf("```", open + 3);
        Set<String> out = new TreeSet<>();
        for (String line : readme.substring(open + 3, close).split("\n")) {
            if (!line.startsWith("hetscope ")) {
                continue;
            }
            String spec = line.substring("hetscope ".length()).split("\\s{3,}")[0];
            for (String part : spec.split(" \\| ")) {
                String[] words = part.trim().split("\\s+");
                String sub = null;
                for (int i = 1; i < words.length && !words[i].equals("--"); i++) {
                    if (words[i].matches("[a-z][a-z0-9-]*(\\|[a-z][a-z0-9-]*)*") && !words[i].equals("java")) {
                        sub = words[i];
                        break;
                    }
                }
                for (String cmd : words[0].split("\\|")) {
                    if (sub == null) {
                        out.add(cmd);
                    } else {
                        for (String s : sub.split("\\|")) {
                            out.add(cmd + " " + s);
                        }
                    }
                }
            }
        }
        return out;
    }

    @Test
    void everyListedCommandHasACase() throws Exception {
        Set<String> covered = new TreeSet<>();
        for (Method m : EndToEndTest.class.getDeclaredMethods()) {
            Covers c = m.getAnnotation(Covers.class);
            if (c != null) {
                assertNotNull(m.getAnnotation(Test.class), m.getName() + " names commands but is no test");
                covered.addAll(List.of(c.value()));
            }
        }
        Set<String> help = helpCommands();
        Set<String> readme = readmeCommands();
        assertTrue(help.size() >= 30, "commands in --help: " + help);
        assertTrue(readme.size() >= 25, "commands in README.md: " + readme);
        Set<String> missing = new TreeSet<>();
        for (String c : help) {
            if (!covered.contains(c)) {
                missing.add(c + " (--help)");
            }
        }
        for (String c : readme) {
            // a bare command of the README stands for its sub-commands (e.g. "mine ...")
            boolean ok = covered.contains(c) || (!c.contains(" ") && covered.stream().anyMatch(k -> k.startsWith(c + " ")));
            if (!ok) {
                missing.add(c + " (README.md)");
            }
        }
        assertTrue(missing.isEmpty(), "commands without an end-to-end case: " + missing);
        // and every README command exists in --help: the README does not promise what the program lacks
        for (String c : readme) {
            assertTrue(help.contains(c) || help.stream().anyMatch(k -> k.startsWith(c + " ")),
                    "README.md lists '" + c + "', which ./hetscope --help does not");
        }
    }

    // ---------------------------------------------------------------------------------------------------------

    static long count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        long n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    /** Parses an SVG file as XML; fails when it is not well-formed or not an SVG. */
    static Document svg(Path file) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(bytes));
        assertEquals("svg", d.getDocumentElement().getNodeName(), file.toString());
        assertTrue(new String(bytes, StandardCharsets.UTF_8).length() > 100, file.toString());
        return d;
    }
}
