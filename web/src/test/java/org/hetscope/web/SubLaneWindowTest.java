package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.analysis.profiling.LaneTree;
import org.hetscope.analysis.profiling.SubLanes;
import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.formats.nsys.NsysFormat;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.hetscope.store.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Defect 7 of issue 30: the timeline drew device slices by the store's nesting depth, which counts the slices still
 * running, so of the spec's kernels [0,10] [5,15] [10,12] [16,20] on one queue the second and third were both at
 * depth 1 and painted over each other. Windows now place them as the lane tree does (gpu-runtime-tracing §2.1).
 */
class SubLaneWindowTest {
    @TempDir
    Path dir;

    /** The spec's worked example as a Kineto trace: four kernels on stream 7 (µs), and a host operator. */
    static final String SPEC_EXAMPLE = """
            {"traceEvents":[
            {"ph":"X","cat":"kernel","name":"k_a","pid":0,"tid":7,"ts":1000,"dur":10,"args":{"device":0,"stream":7}},
            {"ph":"X","cat":"kernel","name":"k_b","pid":0,"tid":7,"ts":1005,"dur":10,"args":{"device":0,"stream":7}},
            {"ph":"X","cat":"kernel","name":"k_c","pid":0,"tid":7,"ts":1010,"dur":2,"args":{"device":0,"stream":7}},
            {"ph":"X","cat":"kernel","name":"k_d","pid":0,"tid":7,"ts":1016,"dur":4,"args":{"device":0,"stream":7}},
            {"ph":"X","cat":"cpu_op","name":"op","pid":100,"tid":100,"ts":995,"dur":30,"args":{}}
            ]}
            """;

    static Path importTrace(Path dir, Path trace, TraceFormat format, String name) throws Exception {
        Path store = dir.resolve(name + ".duckdb");
        try (StoreWriter w = StoreWriter.create(store)) {
            format.read(trace, w, Progress.NONE);
            w.commit();
        }
        return store;
    }

    /** Drawn row by slice id, over the whole trace at a width where every slice stays single. */
    private static Map<Long, Integer> drawnRows(TraceView view) {
        List<Long> tracks = view.tracks().stream().filter(t -> t.slices() > 0).map(TraceView.TrackInfo::id).toList();
        Map<Long, Integer> rows = new HashMap<>();
        for (List<WindowItem> items : view.window(tracks, 0, view.span(), TraceView.MAX_PIXELS, null).values()) {
            for (WindowItem it : items) {
                if (it.count() == 1) {
                    rows.put(it.id(), it.depth());
                }
            }
        }
        return rows;
    }

    @Test
    void specExampleKernelsGoToSubLanesWithAndWithoutTheZoomCache() throws Exception {
        Path json = dir.resolve("spec.json");
        Files.writeString(json, SPEC_EXAMPLE);
        Path store = importTrace(dir, json, new ChromeTraceFormat(), "spec");
        Map<String, Long> ids = new HashMap<>();
        try (Store s = Store.open(store)) {
            for (Object[] r : s.query(null, "SELECT name, id, depth FROM slice").rows()) {
                ids.put((String) r[0], (Long) r[1]);
            }
            // The store's depth puts k_b and k_c, which overlap, on one row: what the timeline drew before.
            assertEquals(1L, s.query(null, "SELECT depth FROM slice WHERE name = 'k_b'").rows().get(0)[0]);
            assertEquals(1L, s.query(null, "SELECT depth FROM slice WHERE name = 'k_c'").rows().get(0)[0]);
        }
        for (long lodFrom : new long[] {Long.MAX_VALUE, 0}) {
            try (TraceView view = new TraceView("spec", Store.open(store), lodFrom)) {
                Map<Long, Integer> rows = drawnRows(view);
                assertEquals(0, rows.get(ids.get("k_a")));
                assertEquals(1, rows.get(ids.get("k_b")));
                assertEquals(0, rows.get(ids.get("k_c")), "the spec puts [10,12] in sub-lane 0");
                assertEquals(0, rows.get(ids.get("k_d")));
                long stream = (Long) view.slice(ids.get("k_a")).get("track_id");
                assertEquals(2, view.track(stream).lanes(), "two sub-lanes on the stream");
                assertEquals(0, view.slice(ids.get("k_c")).get("lane"));
                // a narrower window (single slices from the store or the cache's time-ordered copy) agrees
                for (List<WindowItem> items : view.window(List.of(stream), 5_000_000, 17_000_000, 800, null)
                        .values()) {
                    for (WindowItem it : items) {
                        assertEquals(rows.get(it.id()), it.depth(), "slice " + it.id());
                    }
                }
            }
        }
    }

    /** On real traces every slice is drawn where the CLI's lane tree places it, and no two overlap on a row. */
    @Test
    void realTracesDrawWhereTheLaneTreePlacesAndNeverOverlapOnARow() throws Exception {
        Path root = TimelineBrowserTest.ROOT;
        Object[][] fixtures = {
            {"../shared/fixtures/chrome/kineto-cuda-simple-add.json.gz", new ChromeTraceFormat()},
            {"../shared/fixtures/chrome/kineto-cuda-event-sync-multistream.json.gz", new ChromeTraceFormat()},
            {"../shared/fixtures/chrome/kineto-rocm6.2-mi250-minitoy.json.gz", new ChromeTraceFormat()},
            {"../shared/fixtures/nsys/perlmutter-cloverleaf-cuda.sqlite", new NsysFormat()},
        };
        int checked = 0;
        for (Object[] f : fixtures) {
            Path store = importTrace(dir, root.resolve((String) f[0]), (TraceFormat) f[1], "f" + checked);
            try (Store s = Store.open(store); TraceView view = new TraceView("f", Store.open(store))) {
                Map<Long, Integer> rows = drawnRows(view);
                Map<Long, String> kinds = new HashMap<>();
                for (TraceView.TrackInfo t : view.tracks()) {
                    kinds.put(t.id(), t.kind());
                }
                LaneTree tree = LaneTree.of(s);
                Table placements = tree.placementsTable();
                // memcpy slices are also placed in a "Memory transfers" pair lane; the timeline draws their track
                java.util.Set<Long> pairLanes = new java.util.HashSet<>();
                for (Object[] l : tree.lanesTable().rows()) {
                    if ("transfer".equals(l[2])) {
                        pairLanes.add((Long) l[0]);
                    }
                }
                Map<Long, Object[]> slice = new HashMap<>();
                for (Object[] r : s.query(null, "SELECT id, track_id, ts, dur FROM slice").rows()) {
                    slice.put((Long) r[0], r);
                }
                for (Object[] p : placements.rows()) {
                    long id = (Long) p[0];
                    if (pairLanes.contains((Long) p[1])) {
                        continue;
                    }
                    long track = (Long) slice.get(id)[1];
                    long want = SubLanes.subLaned(kinds.get(track)) ? (Long) p[2] : (Long) p[3];
                    if (rows.containsKey(id)) {
                        assertEquals(want, (long) rows.get(id), f[0] + ": slice " + id);
                        checked++;
                    }
                }
                // brute force: on device tracks no two slices of one row overlap
                Map<String, List<long[]>> byRow = new HashMap<>();
                rows.forEach((id, row) -> {
                    Object[] r = slice.get(id);
                    if (SubLanes.subLaned(kinds.get((Long) r[1]))) {
                        byRow.computeIfAbsent(r[1] + "/" + row, k -> new java.util.ArrayList<>())
                                .add(new long[] {(Long) r[2], (Long) r[2] + (Long) r[3]});
                    }
                });
                for (List<long[]> list : byRow.values()) {
                    list.sort((a, b) -> Long.compare(a[0], b[0]));
                    for (int i = 1; i < list.size(); i++) {
                        assertTrue(list.get(i - 1)[1] <= list.get(i)[0], f[0] + ": overlap on one row");
                    }
                }
                assertFalse(byRow.isEmpty(), f[0] + ": has device slices");
            }
        }
        assertTrue(checked > 1000, "slices checked: " + checked);
    }
}
