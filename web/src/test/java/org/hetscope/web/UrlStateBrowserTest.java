package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.formats.paje.PajeFormat;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import org.hetscope.web.BrowserSession.Fixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30's URL state in Debian's Chromium (web/e2e/urlstate.e2e.mjs): a link copied after zooming and selecting on
 * a StarPU trace reopens that trace, window and selection in a fresh page; malformed links open the default view.
 * Here the restored selection is checked against the store, and the restored window against the trace's span.
 */
class UrlStateBrowserTest {
    @TempDir
    Path dir;

    @Test
    void aCopiedUrlReopensTheSameView() throws Exception {
        List<Fixture> fixtures = List.of(
                new Fixture("kineto-cuda-sampled-rank0", "../shared/fixtures/chrome/kineto-cuda-sampled-rank0.json.gz",
                        new ChromeTraceFormat()),
                new Fixture("starpu chol-dmda-nb6", "../shared/fixtures/starpu/chol-dmda-nb6", new PajeFormat()));
        BrowserSession.Result run = BrowserSession.run(dir, "urlstate.e2e.mjs", fixtures);
        JsonNode result = run.page();
        JsonNode before = result.get("before");
        JsonNode after = result.get("after");
        long id = after.get("selected").asLong();
        assertEquals(before.get("selected").asLong(), id);
        try (Store s = Store.open(run.stores().get(1))) {
            // The restored selection is the store's slice of that id, by name.
            Table row = s.query(null, "SELECT name FROM slice WHERE id = ?", id);
            assertEquals(1, row.size());
            assertEquals(row.get(0, "name"), after.get("detailName").asText());
            // The default view of each trace is its whole span (from the bounds), which the malformed links got.
            long span = (Long) s.query(null, "SELECT end_ns - start_ns AS span FROM hs_trace_bounds").get(0, "span");
            assertEquals(0, result.get("defaultView1").get("view").get("t0").asLong());
            assertEquals(span, result.get("defaultView1").get("view").get("t1").asLong());
        }
        // The window is exact integer ns, the same before and after, inside the span and zoomed in.
        assertEquals(before.get("view"), after.get("view"));
        long t0 = after.get("view").get("t0").asLong();
        long t1 = after.get("view").get("t1").asLong();
        assertTrue(t1 - t0 < result.get("defaultView1").get("view").get("t1").asLong(), "zoomed in: " + t0 + ".." + t1);
        assertTrue(after.get("href").asText().contains("t0=" + t0 + "&t1=" + t1), after.get("href").asText());
        assertEquals(5, result.get("malformed").size());
        Path out = TimelineBrowserTest.ROOT.resolve("web/target/screenshots");
        for (String shot : List.of("urlstate-before.png", "urlstate-after.png")) {
            assertTrue(Files.size(out.resolve(shot)) > 3_000, shot + " written");
        }
    }
}
