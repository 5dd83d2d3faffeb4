package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.hetscope.formats.opencl.AgentRun;
import org.hetscope.store.Store;
import org.hetscope.web.AccessPolicy;
import org.hetscope.web.TraceServer;
import org.hetscope.web.TraceView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One definition of every figure (issue 24): on a real trace of every format, the CLI's {@code --json} output, the
 * web API's answer and the report's embedded figures are equal, figure by figure, for the statistics, utilisation,
 * span and per-codelet tables. Rows are compared in order and cell by cell (integers exactly, decimals as the same
 * double); the report's cells carry their exact value in {@code data-v}.
 */
class StandardLibraryConsistencyTest {
    static final Path ROOT = Path.of(System.getProperty("hetscope.root", "."));
    static final Path FIXTURES = ROOT.resolve("../shared/fixtures");
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Stream<Arguments> traces() {
        return Stream.of(
                Arguments.of("kineto", FIXTURES.resolve("chrome/kineto-cuda-sampled-rank0.json.gz")),
                Arguments.of("kineto-rocm", FIXTURES.resolve("chrome/kineto-rocm6.2-mi250-minitoy.json.gz")),
                Arguments.of("nsight", FIXTURES.resolve("nsys/perlmutter-cloverleaf-cuda.sqlite")),
                Arguments.of("ctf", FIXTURES.resolve("ctf/context-switches/context-switches-ust")),
                Arguments.of("ctf-kernel", FIXTURES.resolve("ctf/perf-taskset2")),
                Arguments.of("starpu", FIXTURES.resolve("starpu/chol-dmda-nb6")),
                Arguments.of("otf2", FIXTURES.resolve("otf2/ping-pong-otf2")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("traces")
    void cliWebAndReportShowTheSameFigures(String name, Path trace) throws Exception {
        Path db = dir.resolve(name + ".duckdb");
        CliRun imported = CliRun.of("import", trace.toString(), "-o", db.toString());
        assertTrue(imported.exitCode() == 0 || imported.exitCode() == 3, imported.err());
        checkFrontEnds(name, db);
    }

    /** The OpenCL capture agent's format: a trace captured here (skipped where no OpenCL ICD is installed). */
    @Test
    void captureTrace() throws Exception {
        AgentRun.require();
        AgentRun run = AgentRun.run(dir, "pipeline", "TransferPipeline", "3", "16384");
        assertEquals(0, run.exitCode(), run.output());
        Path db = dir.resolve("capture.duckdb");
        CliRun imported = CliRun.of("import", run.trace().toString(), "-o", db.toString());
        assertEquals(0, imported.exitCode(), imported.err());
        checkFrontEnds("capture", db);
    }

    /**
     * The ROCm profiler's results.csv (read by the rocpd module): no rocpd database is shipped as a fixture, so a
     * small results.csv in rocprof's own layout stands in, with two GPUs and overlapping dispatches.
     */
    @Test
    void rocprofResults() throws Exception {
        String header = "Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,scr,arch_vgpr,accum_vgpr,"
                + "sgpr,wave_size,sig,obj,DispatchNs,BeginNs,EndNs,CompleteNs,SQ_WAVES";
        StringBuilder csv = new StringBuilder(header).append('\n');
        long[][] dispatches = {{1, 100, 1200}, {1, 1000, 2500}, {2, 1300, 1900}, {1, 2600, 2700}, {2, 3000, 5200},
            {1, 5000, 5100}};
        for (int i = 0; i < dispatches.length; i++) {
            long[] d = dispatches[i];
            csv.append(i).append(",\"").append(i % 2 == 0 ? "reduce(float*, int) [clone .kd]" : "scale(float) [clone .kd]")
                    .append("\",").append(d[0]).append(",0,").append(i).append(",77,77,4096,64,0,0,24,0,16,64,\"0x0\",")
                    .append("\"0x7f\",").append(d[1] - 50).append(',').append(d[1]).append(',').append(d[2]).append(',')
                    .append(d[2] + 10).append(",64.0\n");
        }
        Path trace = dir.resolve("results.csv");
        Files.writeString(trace, csv.toString());
        Path db = dir.resolve("rocprof.duckdb");
        CliRun imported = CliRun.of("import", trace.toString(), "-o", db.toString());
        assertEquals(0, imported.exitCode(), imported.err());
        checkFrontEnds("rocprof", db);
    }

    /** hetscope sql exposes the library: its views answer as stats does. */
    @Test
    void sqlQueriesTheLibrary() throws Exception {
        Path db = dir.resolve("sql-starpu.duckdb");
        assertEquals(0, CliRun.of("import", FIXTURES.resolve("starpu/chol-dmda-nb6").toString(), "-o",
                db.toString()).exitCode());
        JsonNode sql = cliJson("sql", db.toString(), "select codelet, worker_kind, workers, count, total_ns, min_ns, "
                + "max_ns, mean_ns, stddev_ns, p50_ns, p90_ns, p95_ns, p99_ns, share_pct from hs_task_stats "
                + "order by codelet, worker_kind", "--json");
        JsonNode stats = cliJson("stats", db.toString(), "--codelets", "--json");
        assertEquals(6, sql.size());
        assertSameRows("sql vs stats", stats, sql);
        JsonNode window = cliJson("sql", db.toString(), "select busy_pct from hs_utilisation("
                + "(select start_ns from hs_activity_bounds), (select end_ns from hs_activity_bounds)) "
                + "where level = 'device' order by device", "--json");
        assertEquals(2, window.size());
        assertTrue(window.get(0).get("busy_pct").asDouble() > 50, window.toString());
    }

    static void checkFrontEnds(String name, Path db) throws Exception {
        JsonNode stats = cliJson("stats", db.toString(), "--json");
        JsonNode codelets = cliJson("stats", db.toString(), "--codelets", "--json");
        JsonNode gpu = cliJson("gpu", db.toString(), "--json");
        JsonNode info = cliJson("info", db.toString(), "--json");
        Path html = dir.resolve(name + ".html");
        CliRun report = CliRun.of("report", db.toString(), "-o", html.toString());
        assertEquals(0, report.exitCode(), report.err());
        String page = Files.readString(html);

        try (TraceServer server = new TraceServer(List.of(new TraceView(name, Store.open(db))),
                new AccessPolicy(null))) {
            int port = server.start("127.0.0.1", 0);
            HttpClient http = HttpClient.newHttpClient();
            String base = "http://127.0.0.1:" + port + "/api/";

            // statistics: CLI table title -> web table name -> report table id
            String[][] pairs = {{"kernels", "kernels", "kernels-table"}, {"API calls", "api", "api-table"},
                {"memory transfers", "memcpy", "memcpy-table"}};
            for (String[] p : pairs) {
                JsonNode cli = stats.get(p[0]);
                assertNotNull(cli, name + ": stats --json has no table " + p[0] + ": " + stats);
                JsonNode web = get(http, base + "t/0/tables/" + p[1]);
                assertSameRows(name + " " + p[0] + " (cli, web)", cli, web);
                assertSameRows(name + " " + p[0] + " (cli, report)", cli, reportTable(page, p[2]));
            }

            // per-codelet statistics: present in all three exactly when the store has executed tasks
            boolean hasTasks = !codelets.isEmpty();
            List<String> webTables = new ArrayList<>();
            get(http, base + "t/0/tables").forEach(t -> webTables.add(t.get("name").asText()));
            assertEquals(hasTasks, webTables.contains("codelets"), name);
            assertEquals(hasTasks, stats.has("task codelets"), name);
            assertEquals(hasTasks, page.contains("id=\"codelets-table\""), name);
            if (hasTasks) {
                assertSameRows(name + " codelets (cli, web)", codelets, get(http, base + "t/0/tables/codelets"));
                assertSameRows(name + " codelets (cli, report)", codelets, reportTable(page, "codelets-table"));
            }

            // utilisation: the CLI's device and unit tables are the web's and the report's one table
            JsonNode web = get(http, base + "t/0/tables/utilisation");
            List<JsonNode> cliRows = new ArrayList<>();
            gpu.get("utilisation per device").forEach(cliRows::add);
            gpu.get("utilisation per stream and worker").forEach(cliRows::add);
            JsonNode webRows = asObjects(web);
            assertEquals(cliRows.size(), webRows.size(), name + " utilisation rows");
            long devices;
            try (Store s = Store.open(db)) {
                devices = s.scalarLong("SELECT count(*) FROM device");
            }
            int deviceRows = 0;
            for (JsonNode w : webRows) {
                JsonNode match = null;
                for (JsonNode c : cliRows) {
                    if (c.get("device").equals(w.get("device")) && unit(c).equals(w.get("unit").asText(""))) {
                        match = c;
                    }
                }
                assertNotNull(match, name + ": web row not printed by gpu: " + w);
                for (var it = match.fieldNames(); it.hasNext(); ) {
                    String col = it.next();
                    if (!col.equals("kind")) {
                        assertSame(name + " utilisation " + w.get("device") + " " + col, match.get(col), w.get(col));
                    }
                }
                deviceRows += w.get("level").asText().equals("device") ? 1 : 0;
            }
            assertEquals(devices, deviceRows, name + ": every device has a utilisation row");
            assertSameRows(name + " utilisation (web, report)", web, reportTable(page, "utilisation-table"));

            // advice: 'hetscope advise --json' and the web's advice view, finding by finding
            JsonNode advise = cliJson("advise", db.toString(), "--json");
            JsonNode webAdvice = get(http, base + "t/0/advice");
            assertEquals(advise.size(), webAdvice.size(), name + " advice: " + advise + " vs " + webAdvice);
            for (int i = 0; i < advise.size(); i++) {
                for (String f : List.of("rule", "severity", "subject", "advice", "evidence")) {
                    assertEquals(advise.get(i).get(f).asText(), webAdvice.get(i).get(f).asText(),
                            name + " advice " + i + " " + f);
                }
            }

            // task critical path: 'hetscope tasks critical-path --json' and the web's view, where there are tasks
            JsonNode critical = get(http, base + "t/0/critical-path");
            if (hasTasks) {
                JsonNode cli = cliJson("tasks", db.toString(), "critical-path", "--json");
                assertSameRows(name + " critical path summary (cli, web)", cli.get("Critical path vs makespan"),
                        critical.get("summary"));
                assertSameRows(name + " critical path (cli, web)", cli.get("Critical path"), critical.get("path"));
            } else {
                assertEquals(0, critical.get("tasks").asInt(), name);
            }

            // launch latency: the table of 'hetscope gpu' and of the web's launch latency view
            JsonNode latency = get(http, base + "t/0/launch-latency");
            if (latency.get("flows").asBoolean()) {
                assertSameRows(name + " launch latency (cli, web)", gpu.get("launch latency"), latency.get("stats"));
            }

            // arrows: every launch arrow 'hetscope flows --json' prints is drawn by the web (stored flows of the
            // store's whole span), and the web draws no launch arrow that flows does not print
            JsonNode flows = cliJson("flows", db.toString(), "--json");
            JsonNode span = get(http, base + "traces").get(0).get("span");
            JsonNode drawn = get(http, base + "t/0/flows?t0=0&t1=" + (span.asLong() + 1));
            if (!drawn.get("truncated").asBoolean()) {
                java.util.Set<String> printed = new java.util.TreeSet<>();
                flows.forEach(f -> printed.add(f.get("call_id").asLong() + ">" + f.get("activity_id").asLong()));
                java.util.Set<String> webLaunch = new java.util.TreeSet<>();
                drawn.get("flows").forEach(f -> {
                    String k = f.get("kind").asText();
                    if (k.equals("launch") || k.equals("sync") && f.get("rule").asText().equals("correlation")) {
                        webLaunch.add(f.get("from").get("slice").asLong() + ">" + f.get("to").get("slice").asLong());
                    }
                });
                assertEquals(printed, webLaunch, name + ": arrows of flows --json vs the web's");
            }

            // span: info, the web's trace list and the report's summary
            Long infoSpan = null;
            for (JsonNode r : info.get("trace")) {
                if (r.get("item").asText().equals("span_ns")) {
                    infoSpan = r.get("value").isNull() ? null : Long.parseLong(r.get("value").asText());
                }
            }
            assertNotNull(infoSpan, name + ": info shows a span");
            assertEquals(infoSpan.longValue(), get(http, base + "traces").get(0).get("span").asLong(), name);
            Matcher m = Pattern.compile("id=\"trace-span\" data-v=\"(\\d+)\"").matcher(page);
            assertTrue(m.find(), name + ": the report shows the span");
            assertEquals(infoSpan.longValue(), Long.parseLong(m.group(1)), name);
        }
    }

    private static String unit(JsonNode cliRow) {
        return cliRow.has("unit") && !cliRow.get("unit").isNull() ? cliRow.get("unit").asText() : "";
    }

    static JsonNode cliJson(String... args) throws Exception {
        CliRun run = CliRun.of(args);
        assertEquals(0, run.exitCode(), String.join(" ", args) + ": " + run.err());
        return JSON.readTree(run.out());
    }

    static JsonNode get(HttpClient http, String url) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), url + ": " + r.body());
        return JSON.readTree(r.body());
    }

    /** A web table ({columns, rows}) as an array of row objects, like the CLI's --json; arrays pass through. */
    static JsonNode asObjects(JsonNode t) {
        if (t.isArray()) {
            return t;
        }
        var out = JSON.createArrayNode();
        for (JsonNode row : t.get("rows")) {
            var o = JSON.createObjectNode();
            for (int i = 0; i < t.get("columns").size(); i++) {
                o.set(t.get("columns").get(i).asText(), row.get(i));
            }
            out.add(o);
        }
        return out;
    }

    /** The report's table with this id as row objects: numbers from data-v, text from the cell. */
    static JsonNode reportTable(String page, String id) {
        int at = page.indexOf("<table id=\"" + id + "\">");
        var out = JSON.createArrayNode();
        if (at < 0) {
            assertTrue(page.contains("No rows in this trace."), id + " missing from the report");
            return out;
        }
        String table = page.substring(at, page.indexOf("</table>", at));
        // Each header: the exact column name in data-col, the name people read (unit left to the cells) as text.
        List<String> columns = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        Matcher th = Pattern.compile("<th( data-col=\"([^\"]*)\")?>(.*?)</th>").matcher(table);
        while (th.find()) {
            assertNotNull(th.group(2), id + ": a header without its column name: " + th.group());
            columns.add(unescape(th.group(2)));
            labels.add(unescape(th.group(3)));
        }
        assertReadableHeaders(id, columns, labels);
        Matcher tr = Pattern.compile("<tr>(<td.*?)</tr>").matcher(table);
        Pattern td = Pattern.compile("<td class=\"(n|name)\"[^>]*?(?: data-v=\"([^\"]*)\")?>(.*?)</td>");
        while (tr.find()) {
            Matcher c = td.matcher(tr.group(1));
            var o = JSON.createObjectNode();
            int i = 0;
            while (c.find()) {
                String col = columns.get(i++);
                if (c.group(2) != null) {
                    String v = c.group(2);
                    if (v.matches("-?\\d+")) {
                        o.put(col, Long.parseLong(v));
                    } else {
                        o.put(col, Double.parseDouble(v));
                    }
                } else if (c.group(3).isEmpty()) {
                    o.putNull(col);
                } else {
                    o.put(col, unescape(c.group(3)));
                }
            }
            out.add(o);
        }
        return out;
    }

    /**
     * Cells of {@code *_ns} columns show units (12.5 µs), so their header does not claim one (docs/cli.md):
     * {@code total_ns} reads "total", {@code share_pct} "share %", unless that reads like another column.
     */
    static void assertReadableHeaders(String what, List<String> columns, List<String> labels) {
        for (int i = 0; i < columns.size(); i++) {
            String c = columns.get(i);
            String want = c.endsWith("_ns") ? c.substring(0, c.length() - 3)
                    : c.endsWith("_pct") ? c.substring(0, c.length() - 4) + " %" : c;
            if (!want.equals(c) && columns.contains(want)) {
                want = c;
            }
            assertEquals(want, labels.get(i), what + ": header of " + c);
        }
    }

    static String unescape(String s) {
        return s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'")
                .replace("&amp;", "&");
    }

    /** Same rows in the same order, same columns, same figures; the report shows at most its first rows. */
    static void assertSameRows(String what, JsonNode a, JsonNode b) {
        JsonNode x = asObjects(a);
        JsonNode y = asObjects(b);
        boolean reportCut = y.size() < x.size() && y.size() == 100;
        assertEquals(reportCut ? y.size() : x.size(), y.size(), what + ": rows");
        for (int r = 0; r < y.size(); r++) {
            JsonNode rx = x.get(r);
            JsonNode ry = y.get(r);
            List<String> cx = new ArrayList<>();
            rx.fieldNames().forEachRemaining(cx::add);
            List<String> cy = new ArrayList<>();
            ry.fieldNames().forEachRemaining(cy::add);
            assertEquals(cx, cy, what + ": columns");
            for (String col : cx) {
                assertSame(what + " row " + r + " " + col, rx.get(col), ry.get(col));
            }
        }
        assertFalse(what.isEmpty());
    }

    /** Integers exactly; decimals as the same double; text as the same text; null as null. */
    static void assertSame(String what, JsonNode a, JsonNode b) {
        if (a == null || a.isNull() || b == null || b.isNull()) {
            assertEquals(a == null || a.isNull(), b == null || b.isNull(), what + ": " + a + " vs " + b);
        } else if (a.isIntegralNumber() && b.isIntegralNumber()) {
            assertEquals(a.asLong(), b.asLong(), what);
        } else if (a.isNumber() && b.isNumber()) {
            assertEquals(Double.doubleToLongBits(a.asDouble()), Double.doubleToLongBits(b.asDouble()),
                    what + ": " + a + " vs " + b);
        } else {
            assertEquals(a.asText(), b.asText(), what);
        }
    }
}
