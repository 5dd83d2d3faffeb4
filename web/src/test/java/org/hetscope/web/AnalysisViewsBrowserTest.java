package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.hetscope.analysis.gpu.DurationStatistics;
import org.hetscope.analysis.gpu.LaunchLatency;
import org.hetscope.analysis.memory.BlockHistory;
import org.hetscope.analysis.memory.Heatmap;
import org.hetscope.analysis.memory.ManagerGantt;
import org.hetscope.analysis.memory.MemoryTrace;
import org.hetscope.analysis.memory.Pictures;
import org.hetscope.analysis.memory.ResidencyAnalysis;
import org.hetscope.analysis.memory.Snapshot;
import org.hetscope.analysis.profiling.Advisor;
import org.hetscope.analysis.tasks.CriticalPath;
import org.hetscope.analysis.tasks.TaskGraph;
import org.hetscope.analysis.tasks.WorkerIdle;
import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.formats.nsys.NsysFormat;
import org.hetscope.formats.paje.PajeFormat;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import org.hetscope.web.BrowserSession.Fixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The advice and critical-path views in Debian's Chromium (web/e2e/views.e2e.mjs). The tables shown are the CLI's
 * ('hetscope advise', 'hetscope tasks critical-path': Advisor and CriticalPath on the same store), and where a click
 * takes the timeline is checked against the store by separate code: the idle gap is recounted from the device's
 * activity intervals, the path is a chain of task_dependency edges, the selected slices are the rule's slices.
 */
class AnalysisViewsBrowserTest {
    @TempDir
    Path dir;

    @Test
    void adviceAndCriticalPathShowTheCliNumbersAndLinkToTheTimeline() throws Exception {
        List<Fixture> fixtures = List.of(
                new Fixture("starpu chol-dmda-nb6", "../shared/fixtures/starpu/chol-dmda-nb6", new PajeFormat()),
                new Fixture("kineto-cuda-sampled-rank0", "../shared/fixtures/chrome/kineto-cuda-sampled-rank0.json.gz",
                        new ChromeTraceFormat()),
                new Fixture("nsys cloverleaf", "../shared/fixtures/nsys/perlmutter-cloverleaf-cuda.sqlite",
                        new NsysFormat()));
        BrowserSession.Result run = BrowserSession.run(dir, "views.e2e.mjs", fixtures);
        JsonNode page = run.page();
        try (Store s = Store.open(run.stores().get(0))) {
            TaskGraph g = TaskGraph.load(s);
            SqlConsoleBrowserTest.assertShown(CriticalPath.summary(g), page.get("cpSummary"), "critical path summary");
            Table path = CriticalPath.table(g);
            SqlConsoleBrowserTest.assertShown(path, page.get("cpPath"), "critical path");
            // Independently: consecutive path tasks are dependency edges, and the durations add up to path_ns.
            Set<String> edges = new HashSet<>();
            for (Object[] e : s.query("SELECT f.job_id, t.job_id FROM task_dependency d JOIN task f ON f.id = "
                    + "d.from_task_id JOIN task t ON t.id = d.to_task_id").rows()) {
                edges.add(e[0] + ">" + e[1]);
            }
            long sum = 0;
            for (int i = 0; i < path.size(); i++) {
                sum += (Long) path.get(i, "dur_ns");
                if (i > 0) {
                    assertTrue(edges.contains(path.get(i - 1, "job_id") + ">" + path.get(i, "job_id")), "edge " + i);
                }
            }
            assertEquals(sum, (Long) CriticalPath.summary(g).get(0, "path_ns"));
            // The clicked last step selected that task's slice.
            int last = path.size() - 1;
            long slice = page.get("cpStep").get("selected").asLong();
            assertEquals(path.get(last, "job_id"), s.scalarLong("SELECT job_id FROM task WHERE slice_id = ?", slice));
            assertShownAdvice(new Advisor(s).table(), page.get("adviceStarpu"));
            // Worker panel: WorkerIdle and the codelet statistics as the CLI prints them; one label per worker with
            // its idle share; the legend lists every codelet; the clicked task's slice is a task of the store.
            Table idle = WorkerIdle.of(s);
            SqlConsoleBrowserTest.assertShown(idle, page.get("wkIdle"), "worker idle");
            SqlConsoleBrowserTest.assertShown(new DurationStatistics(s).codelets(), page.get("wkCodelets"), "codelets");
            for (int i = 0; i < idle.size(); i++) {
                String label = page.get("wkLabels").get(i).asText();
                assertTrue(label.startsWith((String) idle.get(i, "worker")) && label.endsWith(String.format(
                        java.util.Locale.ROOT, "idle %.1f %%", ((Number) idle.get(i, "idle_percent")).doubleValue())), label);
            }
            List<String> codelets = new ArrayList<>();
            for (Object[] r : s.query("SELECT DISTINCT name FROM task WHERE worker_track_id IS NOT NULL ORDER BY name").rows()) {
                codelets.add((String) r[0]);
            }
            List<String> legend = new ArrayList<>();
            page.get("wkLegend").forEach(n -> legend.add(n.asText()));
            assertEquals(codelets, legend.stream().sorted().toList());
            assertEquals(1L, s.scalarLong("SELECT count(*) FROM task WHERE slice_id = ?", page.get("wkClicked").asLong()));
            // The memory pictures are the SVG 'hetscope memory ... --svg' writes, the snapshot at the window's centre.
            MemoryTrace m = MemoryTrace.load(s);
            long origin = s.scalarLong("SELECT start_ns FROM hs_trace_bounds");
            for (String shot : List.of("memory1", "memory2")) {
                JsonNode p = page.get(shot);
                long t = p.get("t").asLong();
                JsonNode view = p.get("view");
                assertEquals(Math.round((view.get("t0").asLong() + view.get("t1").asLong()) / 2.0), t, shot + " at the centre");
                assertEquals(Pictures.snapshot(Snapshot.blocks(m, origin + t), Snapshot.tasks(m, origin + t)),
                        p.get("snapshot").asText(), shot + " snapshot");
                assertEquals(Pictures.residency(ResidencyAnalysis.bins(m, ResidencyAnalysis.DEFAULT_BIN_NS, null)),
                        p.get("residency").asText(), shot + " residency");
                assertEquals(Pictures.heatmap(Heatmap.of(m, Heatmap.Normalisation.parse("lifetime"))),
                        p.get("heatmap").asText(), shot + " heatmap");
            }
            assertTrue(page.get("memory1").get("widths").get(0).asInt() > 0, "the snapshot image loaded");
            // The manager's share of the window shown, and a block's history, as 'hetscope memory' prints them.
            JsonNode w = page.get("memory1").get("view");
            SqlConsoleBrowserTest.assertShown(ManagerGantt.shares(m, origin + w.get("t0").asLong(),
                    origin + w.get("t1").asLong()), page.get("memory1").get("shares"), "manager shares");
            List<Table> history = BlockHistory.of(m, m.findBlock(page.get("block").asText()));
            JsonNode shownHistory = page.get("history");
            assertEquals(history.size(), shownHistory.size());
            for (int i = 0; i < history.size(); i++) {
                Table h = history.get(i);
                JsonNode rows = shownHistory.get(i).get("rows");
                assertEquals(h.size(), rows.size(), h.title());
                for (int r = 0; r < h.size(); r++) {
                    for (int c = 0; c < h.columns().size(); c++) {
                        Object v = h.rows().get(r)[c];
                        JsonNode got = rows.get(r).get(c);
                        if (v instanceof Double d) {
                            assertEquals(d, got.asDouble(), 0.0, h.title() + " " + r + "," + c);
                        } else {
                            assertEquals(v == null ? "null" : String.valueOf(v), got.asText(), h.title() + " " + r + "," + c);
                        }
                    }
                }
            }
        }
        try (Store s = Store.open(run.stores().get(1))) {
            // The statistics pane: the kernels of 'hetscope stats' (StandardLibraryConsistencyTest: its --json is
            // the same table), exact in data-col and data-v, headers without their units.
            SqlConsoleBrowserTest.assertShown(new DurationStatistics(s).kernels(), page.get("statsKernels"),
                    "statistics pane kernels");
            assertEquals("total", page.get("statsKernels").get("labels").get(
                    new DurationStatistics(s).kernels().columns().indexOf("total_ns")).asText());
            assertShownAdvice(new Advisor(s).table(), page.get("advice"));
            // Launch latency: the bars are LaunchLatency.histogram() ('hetscope gpu --latency-histogram'), recounted
            // here from every flow's latency with the same edges; the table is 'hetscope gpu''s launch latency.
            LaunchLatency latency = new LaunchLatency(s);
            Table histogram = latency.histogram();
            long[] edges = LaunchLatency.bucketEdges();
            java.util.TreeMap<Long, Long> recount = new java.util.TreeMap<>();
            for (Object[] r : latency.perFlow().rows()) {
                long v = (Long) r[5];
                long lo = v < 0 ? -1 : v < edges[0] ? 0 : edges[edges.length - 1];
                for (int i = 0; i + 1 < edges.length; i++) {
                    if (v >= edges[i] && v < edges[i + 1]) {
                        lo = edges[i];
                    }
                }
                recount.merge(lo, 1L, Long::sum);
            }
            JsonNode bars = page.get("latencyBars");
            assertEquals(histogram.size(), bars.size());
            long maxCount = 0;
            for (int i = 0; i < histogram.size(); i++) {
                Long lo = (Long) histogram.get(i, "lo_ns");
                long flows = (Long) histogram.get(i, "flows");
                assertEquals(flows, bars.get(i).get("count").asLong(), "bucket " + i);
                assertEquals(recount.getOrDefault(lo == null ? -1L : lo, 0L), flows, "recount of bucket " + lo);
                maxCount = Math.max(maxCount, flows);
            }
            assertEquals(recount.values().stream().mapToLong(Long::longValue).sum(), latency.perFlow().size());
            for (JsonNode b : bars) {
                if (b.get("count").asLong() == maxCount) {
                    assertTrue(b.get("width").asDouble() > 100, "the largest bucket's bar is drawn long: " + b);
                }
            }
            SqlConsoleBrowserTest.assertShown(latency.table(), page.get("latencyStats"), "launch latency table");
            long origin = s.scalarLong("SELECT start_ns FROM hs_trace_bounds");
            // gpu-idle: the window shown is the device's longest idle gap, recounted from its activity intervals.
            JsonNode idle = page.get("findings").get(page.get("followed").get("gpu-idle").get("index").asInt());
            Long device = s.scalarLong("SELECT device_id FROM hs_device WHERE device = ?", idle.get("subject").asText());
            long bestStart = 0;
            long bestEnd = 0;
            long reach = Long.MIN_VALUE;
            for (Object[] r : s.query(null, "SELECT s.ts, s.ts + s.dur FROM slice s JOIN hs_track_device d ON "
                    + "d.track_id = s.track_id WHERE d.device_id = ? AND s.category IN ('kernel', 'task', 'memcpy', "
                    + "'memset') ORDER BY s.ts, s.ts + s.dur", device).rows()) {
                long ts = (Long) r[0];
                if (reach != Long.MIN_VALUE && ts - reach > bestEnd - bestStart) {
                    bestStart = reach;
                    bestEnd = ts;
                }
                reach = Math.max(reach, (Long) r[1]);
            }
            assertEquals(bestStart - origin, idle.get("window").get(0).asLong());
            assertEquals(bestEnd - origin, idle.get("window").get(1).asLong());
            JsonNode view = page.get("followed").get("gpu-idle").get("view");
            assertTrue(view.get("t0").asLong() <= bestStart - origin && view.get("t1").asLong() >= bestEnd - origin,
                    "the timeline shows the gap: " + view);
            // launch-bound: the selected slice is a kernel, the longest one.
            long selected = page.get("followed").get("launch-bound").get("selected").asLong();
            assertEquals("kernel", s.query(null, "SELECT category FROM slice WHERE id = ?", selected).get(0, "category"));
            assertEquals(s.scalarLong("SELECT max(dur) FROM slice WHERE category = 'kernel'"),
                    s.scalarLong("SELECT dur FROM slice WHERE id = ?", selected));
        }
        try (Store s = Store.open(run.stores().get(2))) {
            assertShownAdvice(new Advisor(s).table(), page.get("adviceNsys"));
            // pageable-memory: the selected evidence is a copy from pageable memory, the longest of them.
            long selected = page.get("pageable").get("selected").asLong();
            Table copy = s.query(null, "SELECT category, args, dur FROM slice WHERE id = ?", selected);
            assertEquals("memcpy", copy.get(0, "category"));
            assertTrue(((String) copy.get(0, "args")).contains("Pageable"), (String) copy.get(0, "args"));
            assertEquals(s.scalarLong("SELECT max(dur) FROM slice WHERE category = 'memcpy' AND args LIKE '%Pageable%'"),
                    copy.get(0, "dur"));
            assertEquals(s.scalarLong("SELECT count(*) FROM slice WHERE category = 'memcpy' AND args LIKE '%Pageable%'"),
                    page.get("findingsNsys").get(page.get("pageable").get("index").asInt()).get("slice_count").asLong());
        }
        Path out = TimelineBrowserTest.ROOT.resolve("web/target/screenshots");
        for (String shot : List.of("views-critical-path-starpu.png", "views-advice-gpu-idle-kineto.png",
                "views-advice-launch-bound-kineto.png", "views-memory-starpu.png", "views-launch-latency-kineto.png", "views-workers-starpu.png", "views-memory-manager-starpu.png", "views-advice-pageable-nsys.png")) {
            assertTrue(Files.size(out.resolve(shot)) > 5_000, shot + " written");
        }
    }

    /** The advice table shown has the CLI's rows (rule, severity, subject, advice, evidence), text unchanged. */
    private static void assertShownAdvice(Table expected, JsonNode shown) {
        List<List<String>> want = new ArrayList<>();
        for (Object[] r : expected.rows()) {
            List<String> row = new ArrayList<>();
            for (Object v : r) {
                row.add(String.valueOf(v));
            }
            want.add(row);
        }
        List<List<String>> got = new ArrayList<>();
        if (shown != null && !shown.isNull()) {
            for (JsonNode r : shown.get("rows")) {
                List<String> row = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    row.add(r.get(i).asText());
                }
                got.add(row);
            }
        }
        assertEquals(want, got);
    }
}
