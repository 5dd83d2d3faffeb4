package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hetscope.store.Store;
import org.hetscope.web.BrowserSession.Fixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30's track tools on a store of 16,400 tracks (web/e2e/manytracks.e2e.mjs): the page lays out every track
 * but keeps only the rows on screen in the DOM; the typed track filter shows the matching tracks with their
 * ancestors, a pinned track stays at the top while scrolled to the bottom, collapse all leaves the processes, and
 * search next/previous (Enter, the button, Shift+Enter) walks the matching slices in start order. Each list is
 * recomputed here from the store. Screenshots: web/target/screenshots/manytracks-*.png.
 */
class ManyTracksBrowserTest {
    @TempDir
    Path dir;

    @Test
    void filterPinCollapseAndSearchOn16000Tracks() throws Exception {
        Path store = dir.resolve("many.duckdb");
        ManyTracksTrace.write(store, 400, 40);
        BrowserSession.Result run = BrowserSession.run(dir, "manytracks.e2e.mjs",
                List.of(new Fixture("16,400 tracks", store.toString(), null)));
        JsonNode page = run.page();
        System.out.println("16,400 tracks: page load " + page.get("loadMs") + " ms, first data drawn at "
                + page.get("firstDataDrawMs") + " ms");
        try (Store s = Store.open(store)) {
            Map<Long, Long> parent = new HashMap<>();
            Map<Long, String> text = new HashMap<>();
            long processes = 0;
            for (Object[] r : s.query(null, "SELECT id, parent_id, name, kind FROM track").rows()) {
                parent.put((Long) r[0], (Long) r[1]);
                text.put((Long) r[0], (r[2] + " " + r[3]).toLowerCase());
                if (r[1] == null) {
                    processes++;
                }
            }
            assertEquals(16_400, parent.size());
            JsonNode f = page.get("filter");
            String want = f.get("text").asText();
            Set<Long> matches = new HashSet<>();
            Set<Long> shown = new HashSet<>();
            text.forEach((id, t) -> {
                if (t.contains(want)) {
                    matches.add(id);
                    for (Long p = id; p != null; p = parent.get(p)) {
                        shown.add(p);
                    }
                }
            });
            assertTrue(matches.size() > 1 && matches.size() < 100, "matches: " + matches.size());
            assertEquals(matches.size(), f.get("matches").asInt(), "tracks matching the filter");
            assertEquals(String.format("%,d of 16,400", matches.size()), f.get("count").asText());
            Set<Long> rows = new HashSet<>();
            f.get("rows").forEach(n -> rows.add(n.asLong()));
            assertEquals(shown, rows, "the filtered tree: matches and their ancestors");
            assertEquals(processes + 1, page.get("collapsedRows").asLong(), "collapse all: the processes + the pinned");
            assertEquals(16_400, page.get("expandedRows").asLong());

            List<Long> order = new ArrayList<>();
            Map<Long, String> names = new HashMap<>();
            for (Object[] r : s.query(null, "SELECT id, name FROM slice WHERE name LIKE '%task_0777%' ORDER BY ts, id")
                    .rows()) {
                order.add((Long) r[0]);
                names.put((Long) r[0], (String) r[1]);
            }
            assertEquals(10, order.size());
            int[] expectedIndex = {0, 1, 2, 1}; // Enter, Enter, next button, Shift+Enter
            for (int i = 0; i < 4; i++) {
                JsonNode st = page.get("search").get(i);
                long id = order.get(expectedIndex[i]);
                assertEquals(id, st.get("id").asLong(), "search step " + i);
                assertEquals(expectedIndex[i] + 1, st.get("index").asInt(), "place of step " + i);
                assertEquals(10, st.get("total").asInt());
                assertEquals((expectedIndex[i] + 1) + " / 10", st.get("pos").asText());
                assertEquals(names.get(id), st.get("detail").asText());
            }
        }
    }
}
