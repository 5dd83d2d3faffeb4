package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import org.hetscope.web.StatisticsTables;
import org.hetscope.web.TraceView;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The defects 1-4 of issue 24, each on the real trace it was found on; each failed before the standard library. */
class StandardLibraryDefectsTest {
    static final Path FIXTURES = Path.of(System.getProperty("hetscope.root", ".")).resolve("../shared/fixtures");
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static Path starpu;
    static Path nsight;

    @BeforeAll
    static void importTraces() {
        starpu = dir.resolve("chol-dmda-nb6.duckdb");
        assertEquals(0, CliRun.of("import", FIXTURES.resolve("starpu/chol-dmda-nb6").toString(), "-o",
                starpu.toString()).exitCode());
        nsight = dir.resolve("cloverleaf.duckdb");
        assertEquals(0, CliRun.of("import", FIXTURES.resolve("nsys/perlmutter-cloverleaf-cuda.sqlite").toString(),
                "-o", nsight.toString()).exitCode());
    }

    static JsonNode cliJson(String... args) throws Exception {
        CliRun run = CliRun.of(args);
        assertEquals(0, run.exitCode(), run.err());
        return JSON.readTree(run.out());
    }

    /** Defect 1: task executions on a StarPU worker are device activity, as busy as tasks critical-path says. */
    @Test
    void starpuWorkersAreBusyWithTheirTasks() throws Exception {
        JsonNode gpu = cliJson("gpu", starpu.toString(), "--json");
        JsonNode tasks = cliJson("tasks", starpu.toString(), "critical-path", "--json");
        // one key on every trace (it held the run's length: "... over the run of 20723882 ns")
        JsonNode idle = tasks.get("Idle time per worker over the run");
        assertNotNull(idle, tasks.toString());
        long makespan = tasks.get("Critical path vs makespan").get(0).get("makespan_ns").asLong();
        for (JsonNode w : idle) {
            assertEquals(makespan, w.get("run_ns").asLong(), w.toString());
        }
        Map<String, JsonNode> byDevice = new HashMap<>();
        gpu.get("utilisation per device").forEach(r -> byDevice.put(r.get("device").asText(), r));
        assertEquals(2, idle.size());
        for (JsonNode w : idle) {
            JsonNode d = byDevice.get(w.get("worker").asText() + " #0");
            assertNotNull(d, w + " in " + byDevice.keySet());
            assertEquals(w.get("busy_ns").asLong(), d.get("busy_ns").asLong(), w.toString());
            assertEquals(makespan, d.get("window_ns").asLong());
            assertEquals(100.0 - w.get("idle_percent").asDouble(), d.get("busy_pct").asDouble(), 0.01);
        }
        // the figures the issue quotes: OpenCL worker ~62 %, CPU worker ~75 %
        assertEquals(61.5, byDevice.get("OPENCL0 #0").get("busy_pct").asDouble(), 0.1);
        assertEquals(75.1, byDevice.get("CPU0 #0").get("busy_pct").asDouble(), 0.1);
    }

    /** Defect 2: a StarPU task is compared with the tasks of its codelet, not with the 0 ns worker states. */
    @Test
    void aSliceIsComparedOnlyWithSlicesOfItsNameAndCategory() throws Exception {
        try (TraceView view = new TraceView("starpu", Store.open(starpu))) {
            Table gemm = view.store().query(null, "SELECT id, dur FROM slice WHERE name = 'chol_gemm' "
                    + "AND category = 'task' ORDER BY id");
            long states = view.store().scalarLong("SELECT count(*) FROM slice WHERE name = 'chol_gemm' "
                    + "AND category = 'state'");
            assertTrue(states > 0, "the trace has worker states of the same name");
            Map<String, Object> d = view.slice((Long) gemm.rows().get(0)[0]);
            @SuppressWarnings("unchecked")
            Map<String, Object> st = (Map<String, Object>) d.get("name_stats");
            assertEquals((long) gemm.size(), st.get("count"));
            long min = gemm.rows().stream().mapToLong(r -> (Long) r[1]).min().orElseThrow();
            assertEquals(min, st.get("min"));
            assertTrue(min > 0);
        }
    }

    /** Defect 3: one standard deviation (population) in stats and in the web panel. */
    @Test
    void statsAndTheWebPanelShowTheSameStandardDeviation() throws Exception {
        JsonNode kernels = cliJson("stats", nsight.toString(), "--kernels", "--json");
        JsonNode top = kernels.get(0);
        String name = top.has("name") ? top.get("name").asText() : top.get("kernel").asText();
        try (TraceView view = new TraceView("nsight", Store.open(nsight))) {
            long id = view.store().scalarLong("SELECT min(id) FROM slice WHERE category = 'kernel' AND name = ?",
                    name);
            @SuppressWarnings("unchecked")
            Map<String, Object> st = (Map<String, Object>) view.slice(id).get("name_stats");
            assertEquals(top.get("stddev_ns").asDouble(), ((Number) st.get("stddev")).doubleValue(), 0.0);
            assertEquals(top.get("count").asLong(), ((Number) st.get("count")).longValue());
            assertEquals(top.get("p50_ns").asLong(), ((Number) st.get("median")).longValue());
        }
    }

    /** Defect 3: info shows the span of a trace of instants only. */
    @Test
    void infoShowsTheSpanOfATraceOfInstantsOnly() throws Exception {
        Path trace = dir.resolve("instants.json");
        Files.writeString(trace, """
                {"traceEvents": [
                  {"name": "a", "ph": "i", "ts": 10, "pid": 1, "tid": 1, "s": "t"},
                  {"name": "b", "ph": "i", "ts": 25.5, "pid": 1, "tid": 1, "s": "t"},
                  {"name": "c", "ph": "i", "ts": 12, "pid": 1, "tid": 2, "s": "t"}]}""");
        Path db = dir.resolve("instants.duckdb");
        assertEquals(0, CliRun.of("import", trace.toString(), "-o", db.toString()).exitCode());
        Map<String, String> items = new HashMap<>();
        cliJson("info", db.toString(), "--json").get("trace").forEach(r -> items.put(r.get("item").asText(),
                r.get("value").isNull() ? null : r.get("value").asText()));
        assertEquals("10000", items.get("first_ns"));
        assertEquals("25500", items.get("last_ns"));
        assertEquals("15500", items.get("span_ns"));
    }

    /** Defect 4: the web utilisation table lists the idle devices that gpu lists. */
    @Test
    void theWebUtilisationTableListsIdleDevices() throws Exception {
        JsonNode gpu = cliJson("gpu", nsight.toString(), "--json");
        try (Store s = Store.open(nsight)) {
            Table web = StatisticsTables.utilisation(s);
            List<Integer> deviceRows = new java.util.ArrayList<>();
            for (int r = 0; r < web.size(); r++) {
                if ("device".equals(web.get(r, "level"))) {
                    deviceRows.add(r);
                }
            }
            List<String> cliDevices = new java.util.ArrayList<>();
            gpu.get("utilisation per device").forEach(r -> cliDevices.add(r.get("device").asText()));
            assertEquals(4, cliDevices.size());
            assertEquals(cliDevices.size(), deviceRows.size(), "device rows in the web table");
            assertEquals(cliDevices, deviceRows.stream().map(r -> String.valueOf(web.get(r, "device"))).toList());
        }
    }
}
