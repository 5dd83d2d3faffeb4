package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hetscope.analysis.gpu.diff.TraceDiff;
import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import org.hetscope.web.BrowserSession.Fixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29's web part in Debian's Chromium (web/e2e/compare.e2e.mjs): two runs side by side on one axis aligned on
 * their first iteration, zoomed and panned together, and 'hetscope diff A B''s tables (TraceDiff on the same stores,
 * as 'hetscope diff --json' prints them). A trace against a copy of itself shows no change.
 */
class CompareRunsBrowserTest {
    @TempDir
    Path dir;

    @Test
    void twoRunsSideBySideWithTheDiffTables() throws Exception {
        List<Fixture> fixtures = List.of(
                new Fixture("kineto-cuda-sampled-rank0", "../shared/fixtures/chrome/kineto-cuda-sampled-rank0.json.gz",
                        new ChromeTraceFormat()),
                new Fixture("kineto-rocm-minitoy", "../shared/fixtures/chrome/kineto-rocm6.2-mi250-minitoy.json.gz",
                        new ChromeTraceFormat()),
                new Fixture("copy of rank0", "../shared/fixtures/chrome/kineto-cuda-sampled-rank0.json.gz",
                        new ChromeTraceFormat()));
        BrowserSession.Result run = BrowserSession.run(dir, "compare.e2e.mjs", fixtures);
        JsonNode page = run.page();
        try (Store a = Store.open(run.stores().get(0)); Store b = Store.open(run.stores().get(1));
             Store c = Store.open(run.stores().get(2))) {
            TraceDiff diff = new TraceDiff(a, b, DiffView.ALPHA);
            JsonNode shown = page.get("first").get("tables");
            Table ops = diff.operations();
            Table firstRows = new Table(ops.title(), ops.columns(), ops.rows().subList(0, Math.min(300, ops.size())));
            SqlConsoleBrowserTest.assertShown(firstRows, nulls(shown.get("cmp-operations")), "operations");
            SqlConsoleBrowserTest.assertShown(diff.iterations(), nulls(shown.get("cmp-iterations")), "iterations");
            SqlConsoleBrowserTest.assertShown(diff.utilisation(), nulls(shown.get("cmp-utilisation")), "utilisation");
            // The alignment points are each run's first ProfilerStep.
            JsonNode aligned = page.get("first").get("at").get("alignedOn");
            assertEquals("ProfilerStep#" + a.scalarLong("SELECT min(iteration) FROM hs_iterations"), aligned.get(0).asText());
            assertEquals("ProfilerStep#" + b.scalarLong("SELECT min(iteration) FROM hs_iterations"), aligned.get(1).asText());
            // Against its copy: every operation is 'same' with no change, and so is every iteration.
            TraceDiff self = new TraceDiff(a, c, DiffView.ALPHA);
            JsonNode selfShown = page.get("self").get("tables");
            Table selfOps = self.operations();
            SqlConsoleBrowserTest.assertShown(new Table(selfOps.title(), selfOps.columns(),
                    selfOps.rows().subList(0, Math.min(300, selfOps.size()))), nulls(selfShown.get("cmp-operations")), "self");
            int status = selfOps.column("status");
            int change = selfOps.column("change_ns");
            for (JsonNode r : selfShown.get("cmp-operations").get("rows")) {
                assertEquals(TraceDiff.SAME, r.get(status).asText());
                assertEquals(0, r.get(change).asLong());
            }
            assertEquals(page.get("self").get("at").get("a").asDouble(), page.get("self").get("at").get("b").asDouble(), 1.0);
        }
        Path out = TimelineBrowserTest.ROOT.resolve("web/target/screenshots");
        for (String shot : List.of("compare-runs.png", "compare-runs-zoomed.png")) {
            assertTrue(Files.size(out.resolve(shot)) > 5_000, shot + " written");
        }
    }

    /** The page writes an empty cell for null; assertShown reads "NULL". */
    private static JsonNode nulls(JsonNode table) {
        com.fasterxml.jackson.databind.node.ObjectNode t = table.deepCopy();
        for (JsonNode row : t.get("rows")) {
            com.fasterxml.jackson.databind.node.ArrayNode r = (com.fasterxml.jackson.databind.node.ArrayNode) row;
            for (int i = 0; i < r.size(); i++) {
                if ("null".equals(r.get(i).asText())) {
                    r.set(i, com.fasterxml.jackson.databind.node.TextNode.valueOf("NULL"));
                }
            }
        }
        return t;
    }
}
