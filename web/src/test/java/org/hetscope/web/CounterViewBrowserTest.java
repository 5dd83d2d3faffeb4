package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hetscope.analysis.profiling.KernelCounters;
import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import org.hetscope.web.BrowserSession.Fixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The counter view in Debian's Chromium (web/e2e/counters.e2e.mjs) on a Kineto trace with CUPTI profiler counters:
 * the per-kernel table, a kernel's dispatches and a counter's step series are those of 'hetscope counters'
 * (without and with --dispatches, --series) on the same store; the clicked dispatch is selected on the timeline, and
 * the per-kernel means are recounted here from the store's kernel_counter rows.
 */
class CounterViewBrowserTest {
    @TempDir
    Path dir;

    @Test
    void counterTablesDrillDownAndSeriesAreTheClis() throws Exception {
        BrowserSession.Result run = BrowserSession.run(dir, "counters.e2e.mjs", List.of(new Fixture(
                "kineto-cuda-cupti-profiler", "../shared/fixtures/chrome/kineto-cuda-cupti-profiler.json.gz",
                new ChromeTraceFormat())));
        JsonNode page = run.page();
        try (Store s = Store.open(run.stores().get(0))) {
            KernelCounters kc = KernelCounters.load(s);
            Table perKernel = kc.perKernel();
            SqlConsoleBrowserTest.assertShown(perKernel, page.get("perKernel"), "per kernel");
            // Recount of the first row from the raw counter rows.
            String kernel = (String) perKernel.get(0, "kernel");
            String counter = (String) perKernel.get(0, "counter");
            Table raw = s.query(null, "SELECT count(c.value), avg(c.value) FROM kernel_counter c JOIN slice x ON "
                    + "x.id = c.slice_id WHERE x.name = ? AND c.name = ? AND NOT isnan(c.value)", kernel, counter);
            assertEquals(raw.rows().get(0)[0], perKernel.get(0, "dispatches"));
            assertEquals(((Number) raw.rows().get(0)[1]).doubleValue(), (Double) perKernel.get(0, "mean"), 1e-9);
            Table all = kc.perDispatch();
            int k = all.column("kernel");
            Table mine = new Table(all.title(), all.columns(), all.rows().stream().filter(r -> kernel.equals(r[k])).toList());
            SqlConsoleBrowserTest.assertShown(mine, page.get("dispatches"), "dispatches of " + kernel);
            assertEquals(mine.get(0, "slice_id"), page.get("selected").asLong());
            Table series = kc.series(page.get("counter").asText(), Long.MIN_VALUE, Long.MAX_VALUE);
            JsonNode shown = page.get("series");
            assertEquals(series.size(), shown.get("rows").size());
            long origin = s.scalarLong("SELECT start_ns FROM hs_trace_bounds");
            for (int i = 0; i < series.size(); i++) {
                JsonNode r = shown.get("rows").get(i);
                assertEquals(String.valueOf(series.get(i, "ts")), r.get(1).asText(), "point " + i);
                assertEquals(((Number) series.get(i, "value")).doubleValue(), r.get(2).asDouble(), 0.0, "point " + i);
                assertEquals((Long) series.get(i, "ts") - origin, r.get(5).asLong(), "point " + i);
            }
            assertTrue(page.get("seriesPoints").asInt() > 0);
        }
        assertTrue(Files.size(TimelineBrowserTest.ROOT.resolve("web/target/screenshots/views-counters-kineto-cupti.png"))
                > 5_000);
    }
}
