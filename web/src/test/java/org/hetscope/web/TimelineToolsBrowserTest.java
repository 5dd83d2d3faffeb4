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
        assertEquals(3, page.get("aggregates").size());
        for (JsonNode agg : page.get("aggregates")) {
            try (Store s = Store.open(stores.get(agg.get("trace").asInt()))) {
                checkAggregates(s, agg);
            }
        }
    }

    private static double number(String shown) {
        return Double.parseDouble(shown.replace(",", ""));
    }

    /** The area selection's tables and flame graph against brute-force sums over the store's rows. */
    private static void checkAggregates(Store s, JsonNode agg) {
        long o = origin(s);
        long a = o + agg.get("t0").asLong();
        long b = o + agg.get("t1").asLong();
        String what = "trace " + agg.get("trace") + " range [" + a + ", " + b + ")";
        // CPU time per thread: outermost slices of thread and worker tracks clipped to the range, off-CPU states out.
        Set<String> off = Set.of("runnable", "blocked", "idle", "sleeping", "waiting", "preempted");
        Map<String, Long> perThread = new HashMap<>();
        Map<String, Long> perProcess = new HashMap<>();
        for (Object[] r : s.query(null, """
                SELECT p.pid, th.tid, sl.ts, sl.dur, sl.category, sl.name FROM slice sl JOIN track t ON t.id = sl.track_id
                JOIN thread th ON th.id = t.thread_id LEFT JOIN process p ON p.id = th.process_id
                WHERE sl.depth = 0 AND t.kind IN ('thread', 'worker')""").rows()) {
            long ts = (Long) r[2];
            long end = ts + (Long) r[3];
            if (ts >= b || end <= a || ("state".equals(r[4]) && off.contains(((String) r[5]).toLowerCase()))) {
                continue;
            }
            long clipped = Math.min(end, b) - Math.max(ts, a);
            perThread.merge(r[0] + "/" + r[1], clipped, Long::sum);
            perProcess.merge(String.valueOf(r[0]), clipped, Long::sum);
        }
        JsonNode threads = agg.get("tables").get("threads");
        assertEquals(List.of("process", "pid", "thread", "tid", "slices", "cpu_ns"), columns(threads));
        assertEquals(perThread.size(), threads.get("rows").size(), what + ": threads");
        for (JsonNode row : threads.get("rows")) {
            String key = (long) number(row.get(1).asText()) + "/" + (long) number(row.get(3).asText());
            assertEquals(perThread.get(key), TimelineBrowserTest.parseDuration(row.get(5).asText()), what + " " + key);
        }
        JsonNode processes = agg.get("tables").get("processes");
        assertEquals(perProcess.size(), processes.get("rows").size(), what + ": processes");
        for (JsonNode row : processes.get("rows")) {
            assertEquals(perProcess.get(String.valueOf((long) number(row.get(1).asText()))),
                    TimelineBrowserTest.parseDuration(row.get(3).asText()), what + " process " + row.get(0));
        }
        // Busy time per device as 'hetscope sql' gives it from the library.
        JsonNode devices = agg.get("tables").get("devices");
        List<Object[]> util = s.query(null, "SELECT device, busy_ns FROM hs_utilisation(?, ?) WHERE level = 'device' "
                + "ORDER BY device_id", a, b).rows();
        assertEquals(util.size(), devices.get("rows").size(), what + ": devices");
        for (int i = 0; i < util.size(); i++) {
            assertEquals(util.get(i)[0], devices.get("rows").get(i).get(0).asText());
            assertEquals((long) (Long) util.get(i)[1],
                    TimelineBrowserTest.parseDuration(devices.get("rows").get(i).get(1).asText()), what + " device");
        }
        // Counters: samples in the range, their min and max, recounted.
        JsonNode counters = agg.get("tables").get("counters");
        // Which track each row is (names repeat, e.g. per memory node): the rows are in (name, track id) order.
        List<Object[]> counterTracks = s.query(null, "SELECT DISTINCT t.name, t.id FROM track t JOIN counter c "
                + "ON c.track_id = t.id WHERE c.ts < ? ORDER BY t.name, t.id", b).rows();
        assertEquals(counterTracks.size(), counters.get("rows").size(), what + ": counters with a value in the range");
        for (int i = 0; i < counterTracks.size(); i++) {
            JsonNode row = counters.get("rows").get(i);
            assertEquals(counterTracks.get(i)[0], row.get(0).asText());
            List<Object[]> samples = s.query(null, "SELECT value FROM counter WHERE track_id = ? AND ts >= ? AND ts < ?",
                    counterTracks.get(i)[1], a, b).rows();
            assertEquals(samples.size(), (long) number(row.get(2).asText()), what + " samples of " + row.get(0));
            if (!samples.isEmpty()) {
                double min = samples.stream().mapToDouble(x -> ((Number) x[0]).doubleValue()).min().orElseThrow();
                double max = samples.stream().mapToDouble(x -> ((Number) x[0]).doubleValue()).max().orElseThrow();
                assertEquals(min, number(row.get(3).asText()), Math.abs(min) * 1e-5 + 1e-9, what + " min " + row.get(0));
                assertEquals(max, number(row.get(4).asText()), Math.abs(max) * 1e-5 + 1e-9, what + " max " + row.get(0));
            }
        }
        // Flame graph: per call path (names along the parent chain within the selected tracks), the clipped time.
        Set<Long> tracks = new HashSet<>(ids(agg.get("tracks")));
        Map<Long, Object[]> sel = new HashMap<>();
        for (Object[] r : s.query(null, "SELECT id, parent_id, name, ts, dur, track_id FROM slice WHERE ts < ? "
                + "AND ts + dur > ?", b, a).rows()) {
            if (tracks.contains((Long) r[5])) {
                sel.put((Long) r[0], r);
            }
        }
        Map<String, Long> total = new HashMap<>();
        for (Object[] r : sel.values()) {
            StringBuilder path = new StringBuilder((String) r[2]);
            for (Object[] p = sel.get((Long) r[1]); p != null; p = sel.get((Long) p[1])) {
                path.insert(0, p[2] + ";");
            }
            long ts = (Long) r[3];
            total.merge(path.toString(), Math.min(ts + (Long) r[4], b) - Math.max(ts, a), Long::sum);
        }
        assertTrue(agg.get("frames").size() > 0, what + ": flame graph frames");
        for (JsonNode f : agg.get("frames")) {
            assertEquals(total.get(f.get("path").asText()), f.get("total").asLong(), what + " frame " + f.get("path"));
        }
    }

    private static List<String> columns(JsonNode table) {
        List<String> out = new ArrayList<>();
        table.get("columns").forEach(c -> out.add(c.asText()));
        return out;
    }
}
