package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hetscope.analysis.profiling.LaneTree;
import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.formats.ctf.mapping.CtfTraceFormat;
import org.hetscope.formats.nsys.NsysFormat;
import org.hetscope.formats.otf2.Otf2Format;
import org.hetscope.formats.paje.PajeFormat;
import org.hetscope.store.Store;
import org.hetscope.web.BrowserSession.Fixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30's timeline tools in Chromium (web/e2e/tools.e2e.mjs): the spec's sub-lane example drawn as the lane tree
 * places it (defect 7), and the event table on a trace of each format: what it lists for the window, sorted by
 * duration, filtered by name and arguments, for a shift-drag range, and the row a slice clicked on the timeline
 * becomes. Every list the page showed is recomputed here from all slice rows of the store, filtered and sorted in
 * Java (an independent reference for the server's SQL). Screenshots go to web/target/screenshots/tools-*.png.
 */
class TimelineToolsBrowserTest {
    @TempDir
    Path dir;

    private record Row(long id, long ts, long dur, String name, String category, long track, String args) {
    }

    private static List<Row> rows(Store s) {
        List<Row> out = new ArrayList<>();
        for (Object[] r : s.query(null, "SELECT id, ts, dur, name, category, track_id, args FROM slice").rows()) {
            out.add(new Row((Long) r[0], (Long) r[1], (Long) r[2], (String) r[3], (String) r[4], (Long) r[5],
                    (String) r[6]));
        }
        return out;
    }

    private static long origin(Store s) {
        return (Long) s.query(null, "SELECT start_ns FROM hs_trace_bounds").rows().get(0)[0];
    }

    /** The slices of a window (and tracks), filtered and sorted as the table's state says. */
    private static List<Long> expected(List<Row> all, long origin, JsonNode st, Set<Long> tracks, String name,
                                       String args, String sort, String dir) {
        long a = origin + st.get("t0").asLong();
        long b = origin + st.get("t1").asLong();
        Comparator<Row> by = switch (sort) {
            case "dur" -> Comparator.comparingLong(Row::dur);
            case "ts" -> Comparator.comparingLong(Row::ts);
            default -> throw new IllegalArgumentException(sort);
        };
        if ("desc".equals(dir)) {
            by = by.reversed();
        }
        by = by.thenComparingLong(Row::id);
        return all.stream().filter(r -> r.ts() < b && r.ts() + r.dur() >= a)
                .filter(r -> tracks == null || tracks.contains(r.track()))
                .filter(r -> name == null || r.name().toLowerCase().contains(name.toLowerCase()))
                .filter(r -> args == null || (r.args() == null ? "" : r.args()).toLowerCase()
                        .contains(args.toLowerCase()))
                .sorted(by).map(Row::id).toList();
    }

    private static List<Long> ids(JsonNode a) {
        List<Long> out = new ArrayList<>();
        a.forEach(n -> out.add(n.asLong()));
        return out;
    }

    @Test
    void subLanesAndEventTableOnEveryFormat() throws Exception {
        Path spec = dir.resolve("spec-sublanes.json");
        Files.writeString(spec, SubLaneWindowTest.SPEC_EXAMPLE);
        List<Fixture> fixtures = List.of(
                new Fixture("spec sub-lane example", spec.toString(), new ChromeTraceFormat()),
                new Fixture("kineto-cuda-sampled-rank0", "../shared/fixtures/chrome/kineto-cuda-sampled-rank0.json.gz",
                        new ChromeTraceFormat()),
                new Fixture("nsys cloverleaf", "../shared/fixtures/nsys/perlmutter-cloverleaf-cuda.sqlite",
                        new NsysFormat()),
                new Fixture("starpu chol-dmda-nb6", "../shared/fixtures/starpu/chol-dmda-nb6", new PajeFormat()),
                new Fixture("perf-taskset2", "../shared/fixtures/ctf/perf-taskset2", new CtfTraceFormat()),
                new Fixture("otf2 ping-pong", "../shared/fixtures/otf2/ping-pong-otf2/traces.otf2", new Otf2Format()));
        BrowserSession.Result run = BrowserSession.run(dir, "tools.e2e.mjs", fixtures);
        JsonNode page = run.page();
        List<Path> stores = run.stores();

        // Defect 7: the drawn rows are the lane tree's sub-lanes ('hetscope lanes --placements').
        try (Store s = Store.open(stores.get(0))) {
            Map<Long, Long> subLane = new HashMap<>();
            for (Object[] p : LaneTree.of(s).placementsTable().rows()) {
                subLane.put((Long) p[0], (Long) p[2]);
            }
            Map<String, Long> want = Map.of("k_a", 0L, "k_b", 1L, "k_c", 0L, "k_d", 0L);
            for (Map.Entry<String, Long> e : want.entrySet()) {
                JsonNode k = page.get("subLanes").get(e.getKey());
                assertEquals(e.getValue(), k.get("row").asLong(), e.getKey());
                assertEquals(subLane.get(k.get("id").asLong()), k.get("row").asLong(), e.getKey() + " as the CLI");
            }
        }

        // The window's events on every format, in start order, first page.
        for (JsonNode w : page.get("windows")) {
            int t = w.get("trace").asInt();
            try (Store s = Store.open(stores.get(t))) {
                List<Long> want = expected(rows(s), origin(s), w, null, null, null, "ts", "asc");
                assertEquals(want.size(), w.get("total").asLong(), "trace " + t + " total");
                assertEquals(want.subList(0, Math.min(100, want.size())), ids(w.get("ids")), "trace " + t + " page");
                assertEquals("1–" + Math.min(100, want.size()) + " of " + String.format("%,d", want.size()),
                        w.get("shownRows").asText(), "trace " + t + " pager");
            }
        }
        try (Store s = Store.open(stores.get(1))) {
            List<Row> all = rows(s);
            long o = origin(s);
            Map<Long, Row> byId = new HashMap<>();
            all.forEach(r -> byId.put(r.id(), r));
            JsonNode d = page.get("sortedByDuration");
            List<Long> want = expected(all, o, d, null, null, null, "dur", "desc");
            assertEquals(want.subList(0, 100), ids(d.get("ids")), "longest first");
            for (int i = 0; i < 100; i++) {
                assertEquals(byId.get(want.get(i)).dur(), TimelineBrowserTest.parseDuration(
                        d.get("durations").get(i).asText()), "duration shown in row " + i);
            }
            assertEquals(expected(all, o, d, null, null, null, "dur", "asc").subList(0, 100),
                    ids(page.get("sortedByDurationAsc").get("ids")), "shortest first");
            JsonNode f = page.get("nameFilter");
            List<Long> named = expected(all, o, f, null, f.get("part").asText(), null, "dur", f.get("dir").asText());
            assertEquals(named.size(), f.get("total").asLong(), "name filter total");
            assertEquals(named.subList(0, Math.min(100, named.size())), ids(f.get("ids")), "name filter page");
            JsonNode af = page.get("argsFilter");
            List<Long> withArgs = expected(all, o, d, null, null, "stream", "dur", "asc");
            assertEquals(withArgs.size(), af.get("total").asLong(), "args filter total");
            assertTrue(withArgs.size() > 0 && withArgs.size() < all.size(), "the args filter keeps some slices");
            assertEquals(withArgs.subList(0, Math.min(100, withArgs.size())), ids(af.get("ids")), "args filter page");
            JsonNode rc = page.get("rowClick");
            assertEquals(byId.get(rc.get("id").asLong()).name(), rc.get("detailName").asText(), "row click details");
            assertTrue(rc.get("onScreen").asBoolean(), "the clicked row's slice is drawn on screen");
            // The kernel clicked on the timeline: the table shows the page holding it in its order.
            JsonNode sc = page.get("sliceClick");
            List<Long> order = expected(all, o, sc, null, null, null, sc.get("sort").asText(), sc.get("dir").asText());
            long pos = order.indexOf(sc.get("id").asLong());
            assertTrue(pos >= 0);
            assertEquals(pos / 100 * 100, sc.get("offset").asLong(), "page of the selected kernel");
            JsonNode r = page.get("range");
            Set<Long> tracks = new HashSet<>(ids(r.get("tracks")));
            List<Long> inRange = expected(all, o, r, tracks, null, null, r.get("sort").asText(), r.get("dir").asText());
            assertEquals(inRange.size(), r.get("total").asLong(), "range total");
            assertEquals(inRange.subList(0, Math.min(100, inRange.size())), ids(r.get("ids")), "range page");
        }
    }
}
