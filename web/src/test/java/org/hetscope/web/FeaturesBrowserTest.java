package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.formats.ctf.mapping.CtfTraceFormat;
import org.hetscope.formats.paje.PajeFormat;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import org.hetscope.web.BrowserSession.Fixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30's hover tooltips, colour legend and keyboard help in Debian's Chromium (web/e2e/features.e2e.mjs) on a
 * Kineto trace, a StarPU trace and a perf kernel trace. What the tooltips and the legend showed is checked here
 * against the stores (rows read by SQL, Paje colours as the trace file declared them). Screenshots go to
 * target/screenshots/.
 */
class FeaturesBrowserTest {
    @TempDir
    Path dir;

    @Test
    void tooltipsLegendAndKeyboardHelp() throws Exception {
        List<Fixture> fixtures = List.of(
                new Fixture("kineto-cuda-sampled-rank0", "../shared/fixtures/chrome/kineto-cuda-sampled-rank0.json.gz",
                        new ChromeTraceFormat()),
                new Fixture("starpu chol-dmda-nb6", "../shared/fixtures/starpu/chol-dmda-nb6", new PajeFormat()),
                new Fixture("perf-taskset2", "../shared/fixtures/ctf/perf-taskset2", new CtfTraceFormat()));
        BrowserSession.Result run = BrowserSession.run(dir, "features.e2e.mjs", fixtures);
        JsonNode result = run.page();
        List<Path> stores = run.stores();
        Path out = TimelineBrowserTest.ROOT.resolve("web/target/screenshots");

        // The hovered kernel's tooltip is its store row: name, category, duration, start from the trace start.
        JsonNode slice = result.get("hoverSlice");
        try (Store s = Store.open(stores.get(0))) {
            Table row = s.query(null, "SELECT name, category, ts, dur FROM slice WHERE id = ?", slice.get("id").asLong());
            assertEquals(1, row.size());
            assertEquals(row.get(0, "name"), slice.get("name").asText());
            assertEquals(row.get(0, "category"), slice.get("category").asText());
            assertEquals((long) (Long) row.get(0, "dur"), TimelineBrowserTest.parseDuration(slice.get("duration").asText()));
            assertEquals((Long) row.get(0, "ts") - origin(s), TimelineBrowserTest.parseDuration(
                    slice.get("start").asText().substring(1)));
        }
        // The hovered StarPU instant: its row's name and time.
        JsonNode instant = result.get("hoverInstant");
        try (Store s = Store.open(stores.get(1))) {
            Table row = s.query(null, "SELECT name, category, ts FROM instant WHERE id = ?", instant.get("id").asLong());
            assertEquals(1, row.size());
            assertEquals(row.get(0, "name"), instant.get("name").asText());
            assertEquals(row.get(0, "category"), instant.get("category").asText());
            assertEquals((Long) row.get(0, "ts") - origin(s), TimelineBrowserTest.parseDuration(
                    instant.get("start").asText().substring(1)));
            // A hovered counter: a sample of that track at the time shown; a single sample's value is the one shown.
            JsonNode counter = result.get("hoverCounter");
            assertTrue(counter != null, "a StarPU counter was hovered");
            long ts = TimelineBrowserTest.parseDuration(counter.get("start").asText().substring(1)) + origin(s);
            Table c = s.query(null, "SELECT value FROM counter WHERE track_id = ? AND ts = ?",
                    counter.get("track").asLong(), ts);
            assertTrue(c.size() >= 1, "a sample of track " + counter.get("track") + " at " + ts);
            String shown = counter.get("value").asText();
            double value = Double.parseDouble(counter.get("value").asText().split(" ")[0].replace(",", ""));
            // The script hovers where samples are one per pixel: the value shown is that sample's.
            assertEquals("1", counter.get("count").asText(), "one sample under the cursor");
            assertEquals((Double) c.get(0, "value"), value, 0.0005 + Math.abs(value) * 1e-9, shown);
        }
        // StarPU's legend: every entry of the trace's own colours is a name paje.trace declares, in that colour; the
        // names drawn in the window (recounted by SQL on the drawn tracks) include them all.
        Map<String, String> legendDeclared = new LinkedHashMap<>();
        for (JsonNode sec : result.get("starpuLegend")) {
            if (sec.get("kind").asText().equals("declared")) {
                for (JsonNode e : sec.get("entries")) {
                    legendDeclared.put(e.get("name").asText(), e.get("colour").asText());
                }
            }
        }
        assertFalse(legendDeclared.isEmpty(), "the StarPU legend lists declared colours: " + result.get("starpuLegend"));
        try (Store s = Store.open(stores.get(1))) {
            for (Map.Entry<String, String> e : legendDeclared.entrySet()) {
                Set<String> declared = s.query(null, "SELECT color FROM paje_entity_value WHERE name = ?", e.getKey())
                        .rows().stream().map(r -> rgb((String) r[0]))
                        .collect(Collectors.toSet());
                assertTrue(declared.contains(e.getValue()), e.getKey() + " in " + e.getValue() + ", declared " + declared);
            }
            JsonNode vis = result.get("starpuVisible");
            List<String> ids = new ArrayList<>();
            vis.get("tracks").forEach(t -> ids.add(String.valueOf(t.asLong())));
            String tracks = String.join(",", ids);
            long o = origin(s);
            Set<String> window = new HashSet<>();
            for (Object[] r : s.query(null, "SELECT DISTINCT s.name FROM slice s WHERE s.track_id IN (" + tracks + ") "
                    + "AND s.ts <= ? AND s.ts + s.dur >= ? AND s.category <> 'task' AND s.name IN "
                    + "(SELECT name FROM paje_entity_value WHERE color IS NOT NULL)",
                    o + vis.get("t1").asLong(), o + vis.get("t0").asLong()).rows()) {
                window.add((String) r[0]);
            }
            assertTrue(window.containsAll(legendDeclared.keySet()), "legend " + legendDeclared.keySet()
                    + " within the declared names drawn " + window);
            System.out.println("StarPU legend: " + legendDeclared.size() + " declared names of " + window.size()
                    + " in the window; not listed (no drawn item carries the name: they lie inside merged runs): "
                    + window.stream().filter(n -> !legendDeclared.containsKey(n)).sorted().toList());
        }
        // perf: the thread-state section is Trace Compass's four states in their colours, and the store has them.
        Map<String, String> states = new LinkedHashMap<>();
        for (JsonNode sec : result.get("perfLegend")) {
            if (sec.get("kind").asText().equals("thread-state")) {
                sec.get("entries").forEach(e -> states.put(e.get("name").asText(), e.get("colour").asText()));
            }
        }
        assertEquals(Map.of("running", "rgb(46, 160, 67)", "runnable", "rgb(214, 120, 30)",
                "blocked", "rgb(222, 200, 90)", "syscall", "rgb(60, 100, 200)"), states);
        try (Store s = Store.open(stores.get(2))) {
            Set<String> names = new HashSet<>();
            s.query(null, "SELECT DISTINCT name FROM slice WHERE category = 'state'").rows()
                    .forEach(r -> names.add((String) r[0]));
            assertTrue(names.containsAll(List.of("running", "blocked")), "perf-taskset2's states " + names);
        }
        for (String shot : List.of("tooltip-slice.png", "help-overlay.png", "legend-starpu.png",
                "tooltip-instant.png", "legend-thread-states.png")) {
            assertTrue(Files.size(out.resolve(shot)) > 3_000, shot + " written");
        }
    }

    private static long origin(Store s) {
        return (Long) s.query(null, "SELECT start_ns FROM hs_trace_bounds").get(0, "start_ns");
    }

    /** Paje's "r g b" (0..1, maybe quoted) as the browser computes a CSS colour. */
    private static String rgb(String paje) {
        String[] p = paje.replace("\"", "").trim().split("\\s+");
        StringBuilder b = new StringBuilder("rgb(");
        for (int i = 0; i < 3; i++) {
            b.append(i > 0 ? ", " : "").append(Math.round(Double.parseDouble(p[i]) * 255));
        }
        return b.append(")").toString();
    }
}
