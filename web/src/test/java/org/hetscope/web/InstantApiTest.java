package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hetscope.formats.ctf.mapping.CtfTraceFormat;
import org.hetscope.model.Progress;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.hetscope.store.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The instants API on a real LTTng-UST trace, recounted from the store by plain SQL. */
class InstantApiTest {
    @TempDir
    Path dir;

    @Test
    @SuppressWarnings("unchecked")
    void instantsPerPixelColumnAddUpToTheStoresRows() throws Exception {
        Path store = dir.resolve("ust.duckdb");
        try (StoreWriter w = StoreWriter.create(store)) {
            new CtfTraceFormat().read(Path.of("..", "..", "shared", "fixtures", "ctf", "debuginfo-test-app2"), w,
                    Progress.NONE);
            w.commit();
        }
        try (Store check = Store.open(store); TraceView view = new TraceView("ust", Store.open(store))) {
            List<Long> ids = view.tracks().stream().filter(t -> t.instants() > 0).map(TraceView.TrackInfo::id).toList();
            assertTrue(!ids.isEmpty(), "the UST trace has instant tracks");
            long stored = (Long) check.query("SELECT count(*) FROM instant").rows().get(0)[0];
            assertEquals(stored, view.tracks().stream().mapToLong(TraceView.TrackInfo::instants).sum(),
                    "instant counts of the track list");
            long origin = (Long) check.query("SELECT start_ns FROM hs_trace_bounds").rows().get(0)[0];
            for (int px : new int[] {3, 40, 5000}) {
                Map<String, Object> w = view.instants(ids, 0, view.span(), px);
                long total = 0;
                for (Map<String, Object> t : (List<Map<String, Object>>) w.get("tracks")) {
                    List<Object[]> items = (List<Object[]>) t.get("items");
                    assertTrue(items.size() <= px, "at most one item per pixel column");
                    for (Object[] it : items) {
                        total += (Long) it[1];
                        // The item names the first instant of its column: its id, time and name are the store's.
                        Table row = check.query(null, "SELECT ts, name, category FROM instant WHERE id = ?", it[2]);
                        assertEquals((Long) row.get(0, "ts") - origin, (Long) it[0]);
                        assertEquals(row.get(0, "name"), it[3]);
                        assertEquals(row.get(0, "category"), it[4]);
                    }
                }
                assertEquals(stored, total, "every instant counted once at " + px + " px");
            }
            Map<String, Object> one = view.instant(1);
            assertEquals(check.query("SELECT name FROM instant WHERE id = 1").rows().get(0)[0], one.get("name"));
            assertThrows(BadQueryException.class, () -> view.instant(987_654_321));
            assertTrue(view.declaredColours().isEmpty(), "no Paje colours in a CTF trace");
        }
    }

    @Test
    void pajeColoursBecomeCss() {
        assertEquals("rgb(0, 179, 255)", TraceView.cssColour("0.0 .7 1.0"));
        assertEquals("rgb(230, 26, 0)", TraceView.cssColour("\".9 .1 .0\""));
        assertNull(TraceView.cssColour("1 2"));
        assertNull(TraceView.cssColour("1.5 0 0"));
        assertNull(TraceView.cssColour("red green blue"));
    }
}
