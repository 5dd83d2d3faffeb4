package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.hetscope.model.Category;
import org.hetscope.model.Flow;
import org.hetscope.model.Slice;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The window API against brute-force recomputation from the slices the generator wrote. */
class WindowApiTest {
    @TempDir
    static Path dir;
    static SyntheticTrace trace;
    static TraceView view;
    /** The same store read through the zoom cache (forced on, although the store is small). */
    static TraceView cached;
    /**
     * A copy of the store through a finely cut cache: two levels (the finer one read from the cache file, the
     * coarser one from memory with a budget far too small to hold it, so tracks are dropped and reloaded), time
     * slabs of ~500 slices, the time-ordered copy sorted in several runs and read with DuckDB's grouping (the
     * default cache above, being small, has its slices grouped in Java).
     */
    static TraceView tight;
    static List<Long> sliceTracks;

    @BeforeAll
    static void open() throws Exception {
        trace = SyntheticTrace.write(dir.resolve("t.duckdb"), 4000, 42);
        view = new TraceView("t", Store.open(dir.resolve("t.duckdb")), Long.MAX_VALUE);
        cached = new TraceView("t", Store.open(dir.resolve("t.duckdb")), 0);
        java.nio.file.Files.copy(dir.resolve("t.duckdb"), dir.resolve("tight.duckdb"));
        tight = new TraceView("t", Store.open(dir.resolve("tight.duckdb")), 0,
                new LevelOfDetail.Settings(new int[] {256, 32}, 500, 3000, 0), 40);
        sliceTracks = trace.slices.stream().map(Slice::trackId).distinct().sorted().toList();
    }

    @AfterAll
    static void close() {
        tight.close();
        cached.close();
        view.close();
    }

    private static long clipped(Slice s, long a, long b) {
        return Math.max(0, Math.min(s.end(), b) - Math.max(s.ts(), a));
    }

    private static boolean inWindow(Slice s, long a, long b) {
        return s.ts() < b && s.end() >= a;
    }

    private List<long[]> windows() {
        long span = view.span();
        List<long[]> w = new ArrayList<>();
        w.add(new long[] {0, span});
        w.add(new long[] {-span / 10, span + span / 10});
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < 12; i++) {
            long len = 1 + r.nextLong(span / (1 + r.nextInt(1000)));
            long t0 = r.nextLong(span);
            w.add(new long[] {t0, t0 + len});
        }
        return w;
    }

    @Test
    void originIsTheEarliestEventAndTimesStayExact() {
        assertEquals(trace.start(), view.origin());
        assertEquals(trace.end() - trace.start(), view.span());
    }

    @Test
    void neverMoreItemsPerTrackThanPixels() {
        neverMoreItemsPerTrackThanPixels(view);
        neverMoreItemsPerTrackThanPixels(cached);
        neverMoreItemsPerTrackThanPixels(tight);
    }

    private void neverMoreItemsPerTrackThanPixels(TraceView view) {
        for (int px : new int[] {1, 3, 17, 120, 640, 1920}) {
            for (long[] w : windows()) {
                Map<Long, List<WindowItem>> res = view.window(sliceTracks, w[0], w[1], px, null);
                for (Map.Entry<Long, List<WindowItem>> e : res.entrySet()) {
                    assertTrue(e.getValue().size() <= px, () -> "track " + e.getKey() + " got "
                            + e.getValue().size() + " items for " + px + " px");
                }
            }
        }
    }

    @Test
    void busyTimeAndCountsEqualTheRawSlices() {
        busyTimeAndCountsEqualTheRawSlices(view);
        busyTimeAndCountsEqualTheRawSlices(cached);
        busyTimeAndCountsEqualTheRawSlices(tight);
    }

    @Test
    void zoomCacheIsUsedForWideWindowsAndAgreesWithTheStore() {
        LevelOfDetail lod = cached.levelOfDetail();
        assertNotNull(lod);
        assertNull(view.levelOfDetail());
        long span = cached.span();
        assertNotNull(lod.levelFor((double) span / 1920), "the whole-trace view reads a cache level");
        // Same windows, with and without the cache: the same slices in the same places.
        for (long[] w : windows()) {
            Map<Long, List<WindowItem>> direct = view.window(sliceTracks, w[0], w[1], 700, null);
            Map<Long, List<WindowItem>> viaCache = cached.window(sliceTracks, w[0], w[1], 700, null);
            Map<Long, List<WindowItem>> viaTight = tight.window(sliceTracks, w[0], w[1], 700, null);
            for (long track : sliceTracks) {
                long len = w[1] - w[0];
                assertEquals(wideIds(direct.get(track), len), wideIds(viaCache.get(track), len), "track " + track);
                assertEquals(wideIds(direct.get(track), len), wideIds(viaTight.get(track), len), "track " + track);
            }
        }
    }

    @Test
    void finelyCutCacheServesEveryZoomFromItsLevelsAndTimeOrderedCopy() {
        LevelOfDetail lod = tight.levelOfDetail();
        assertEquals(2, lod.levels().size(), "both levels are used at this size");
        long span = tight.span();
        // Whole trace at 17 px: the coarse level (from memory); at 120 px: the finer one (from the cache file).
        assertEquals(lod.coarsest(), lod.levelFor((double) span / 17));
        assertEquals(lod.levels().get(0), lod.levelFor((double) span / 120));
        assertTrue(lod.slabs() > 8, "several time slabs, got " + lod.slabs());
        // The time-ordered copy holds every slice once, with its drawing columns, in (slab, track, start) order.
        Columns c = lod.query("SELECT s, track_id, depth, id, ts, dur, code FROM lod_slices ORDER BY rowid");
        assertEquals(trace.slices.size(), c.rows());
        Map<Long, Slice> byId = trace.slices.stream().collect(Collectors.toMap(Slice::id, x -> x));
        String[][] names = lod.names();
        for (int i = 0; i < c.rows(); i++) {
            Slice x = byId.remove(c.longs(3)[i]);
            assertNotNull(x, "slice " + c.longs(3)[i] + " once");
            assertEquals(x.trackId(), c.longs(1)[i]);
            assertEquals(x.depth(), (int) c.longs(2)[i]);
            assertEquals(x.ts(), c.longs(4)[i]);
            assertEquals(x.dur(), c.longs(5)[i]);
            assertEquals(x.name(), names[(int) c.longs(6)[i]][0]);
            assertEquals(Math.floorDiv(x.ts() - tight.origin(), lod.slab()), c.longs(0)[i]);
            if (i > 0) {
                long[] prev = {c.longs(0)[i - 1], c.longs(1)[i - 1], c.longs(4)[i - 1]};
                long[] cur = {c.longs(0)[i], c.longs(1)[i], c.longs(4)[i]};
                assertTrue(java.util.Arrays.compare(prev, cur) <= 0, "row " + i + " out of order");
            }
        }
        assertTrue(byId.isEmpty());
    }

    private static java.util.Set<Long> wideIds(List<WindowItem> items, long windowLength) {
        // Slices at least a pixel wide are drawn alone on both paths.
        return items.stream().filter(i -> i.count() == 1 && (i.end() - i.start()) * 700 >= windowLength)
                .map(WindowItem::id).collect(Collectors.toSet());
    }

    private void busyTimeAndCountsEqualTheRawSlices(TraceView view) {
        // All tracks (ids with a gap), a contiguous pair, one track: the cache reads them differently.
        List<List<Long>> trackSets = List.of(sliceTracks, List.of(trace.threadTrack, trace.apiTrack),
                List.of(trace.streamB));
        for (int px : new int[] {1, 40, 400, 1920}) {
            for (long[] w : windows()) {
                for (List<Long> tracks : trackSets) {
                    Map<Long, List<WindowItem>> res = view.window(tracks, w[0], w[1], px, null);
                    assertEquals(tracks.size(), res.size());
                    for (long track : tracks) {
                        assertMatchesRawSlices(view, track, w, px, res.get(track));
                    }
                }
            }
        }
    }

    private static void assertMatchesRawSlices(TraceView view, long track, long[] w, int px, List<WindowItem> items) {
        long a = view.origin() + w[0];
        long b = view.origin() + w[1];
        long rawBusy = 0;
        long rawCount = 0;
        for (Slice s : trace.slices) {
            if (s.trackId() == track && inWindow(s, a, b)) {
                rawBusy += clipped(s, a, b);
                rawCount++;
            }
        }
        assertEquals(rawBusy, items.stream().mapToLong(WindowItem::busy).sum(),
                "busy of track " + track + " at " + px + " px");
        assertEquals(rawCount, items.stream().mapToLong(WindowItem::count).sum(),
                "count of track " + track + " at " + px + " px");
    }

    @Test
    void singleItemsAreTheSlicesThemselves() {
        Map<Long, Slice> byId = trace.slices.stream().collect(Collectors.toMap(Slice::id, s -> s));
        long span = view.span();
        for (TraceView v : List.of(view, cached, tight)) {
            Map<Long, List<WindowItem>> res = v.window(sliceTracks, span / 3, span / 3 + span / 200, 1920, null);
            int singles = 0;
            for (List<WindowItem> items : res.values()) {
                for (WindowItem it : items) {
                    if (it.count() == 1) {
                        Slice s = byId.get(it.id());
                        assertEquals(s.ts() - v.origin(), it.start());
                        assertEquals(s.end() - v.origin(), it.end());
                        assertEquals(s.name(), it.name());
                        assertEquals(s.category().label(), it.category());
                        assertEquals(s.depth(), it.depth());
                        singles++;
                    }
                }
            }
            assertTrue(singles > 10, "a narrow window shows individual slices, got " + singles);
        }
    }

    @Test
    void zoomingInShowsMoreIndividualSlices() {
        long span = view.span();
        long a = span / 2;
        long b = a + span / 50;
        // Of the slices in [a, b), how many can be told apart in the whole-trace view and in the zoomed one.
        long wide = singles(view.window(sliceTracks, 0, span, 1920, null), a, b);
        long narrow = singles(view.window(sliceTracks, a, b, 1920, null), a, b);
        long raw = trace.slices.stream().filter(s -> inWindow(s, view.origin() + a, view.origin() + b)).count();
        assertTrue(narrow > wide, "wide " + wide + " narrow " + narrow);
        assertTrue(narrow <= raw);
    }

    private static long singles(Map<Long, List<WindowItem>> res, long a, long b) {
        return res.values().stream().flatMap(List::stream)
                .filter(i -> i.count() == 1 && i.start() < b && i.end() >= a).count();
    }

    @Test
    void highlightCountsMatchingSlices() {
        String name = "reduce_sum_kernel";
        for (TraceView v : List.of(view, cached, tight)) {
            for (long[] w : windows()) {
                long a = v.origin() + w[0];
                long b = v.origin() + w[1];
                Map<Long, List<WindowItem>> res = v.window(sliceTracks, w[0], w[1], 300, name);
                long matches = res.values().stream().flatMap(List::stream).mapToLong(WindowItem::matches).sum();
                assertEquals(trace.slices.stream().filter(s -> s.name().equals(name) && inWindow(s, a, b)).count(),
                        matches);
            }
        }
    }

    @Test
    void sliceDetailsGiveFlowPartnerAndNameStatistics() {
        Slice kernel = trace.slices.stream().filter(s -> s.category() == Category.KERNEL).skip(17).findFirst()
                .orElseThrow();
        Map<String, Object> d = view.slice(kernel.id());
        assertEquals(kernel.name(), d.get("name"));
        assertEquals(kernel.dur(), d.get("dur"));
        assertEquals(Long.toString(kernel.ts()), d.get("absolute_ts"));
        Flow launch = trace.flows.stream().filter(f -> f.toSliceId() == kernel.id()).findFirst().orElseThrow();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> flows = (List<Map<String, Object>>) d.get("flows");
        assertEquals(1, flows.size());
        assertEquals("in", flows.get(0).get("direction"));
        assertEquals(launch.fromSliceId(), ((Map<?, ?>) flows.get(0).get("from")).get("slice"));
        assertEquals("cudaLaunchKernel", flows.get(0).get("partner_name"));
        List<Long> durs = trace.slices.stream().filter(s -> s.name().equals(kernel.name())
                && s.category() == kernel.category()).map(Slice::dur).sorted().toList();
        @SuppressWarnings("unchecked")
        Map<String, Object> st = (Map<String, Object>) d.get("name_stats");
        assertEquals((long) durs.size(), st.get("count"));
        assertEquals(durs.get(0), st.get("min"));
        assertEquals(durs.get(durs.size() - 1), st.get("max"));
        long below = durs.stream().filter(x -> x < kernel.dur()).count();
        long atMost = durs.stream().filter(x -> x <= kernel.dur()).count();
        assertEquals(100.0 * (below + atMost) / (2.0 * durs.size()), (Double) st.get("percentile"), 1e-9);
        assertNotNull(d.get("kernel"));
    }

    @Test
    void flowsInAWindowAreThoseWithAnEndInIt() {
        Map<Long, Slice> byId = trace.slices.stream().collect(Collectors.toMap(Slice::id, s -> s));
        long span = view.span();
        for (long[] w : List.of(new long[] {0, span + 1}, new long[] {span / 3, span / 3 + span / 50})) {
            long a = view.origin() + w[0];
            long b = view.origin() + w[1];
            List<Flow> expected = trace.flows.stream().filter(f -> inWindow(byId.get(f.fromSliceId()), a, b)
                    || inWindow(byId.get(f.toSliceId()), a, b)).toList();
            Map<String, Object> res = view.flows(w[0], w[1]);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> flows = (List<Map<String, Object>>) res.get("flows");
            assertEquals(expected.size(), flows.size());
            Map<Long, Flow> want = expected.stream().collect(Collectors.toMap(Flow::id, f -> f));
            for (Map<String, Object> f : flows) {
                Flow x = want.get((Long) f.get("id"));
                assertNotNull(x);
                Map<?, ?> from = (Map<?, ?>) f.get("from");
                Map<?, ?> to = (Map<?, ?>) f.get("to");
                assertEquals(x.fromSliceId(), from.get("slice"));
                assertEquals(x.toSliceId(), to.get("slice"));
                Slice src = byId.get(x.fromSliceId());
                assertEquals(src.trackId(), from.get("track"));
                assertEquals(src.ts() - view.origin(), from.get("ts"));
                assertEquals(src.dur(), from.get("dur"));
                assertEquals((long) src.depth(), from.get("depth"));
                assertEquals(x.kind(), f.get("kind"));
            }
        }
    }

    @Test
    void kernelStatisticsEqualAGroupingOfTheRawSlices() {
        Table t = StatisticsTables.kernels(view.store());
        Map<String, long[]> expected = new HashMap<>();
        for (Slice s : trace.slices) {
            if (s.category() == Category.KERNEL) {
                long[] v = expected.computeIfAbsent(s.name(), k -> new long[3]);
                v[0]++;
                v[1] += s.dur();
                v[2] = Math.max(v[2], s.dur());
            }
        }
        assertEquals(expected.size(), t.size());
        for (int i = 0; i < t.size(); i++) {
            long[] v = expected.get((String) t.get(i, "name"));
            assertEquals(v[0], t.get(i, "count"));
            assertEquals(v[1], t.get(i, "total_ns"));
            assertEquals(v[2], t.get(i, "max_ns"));
        }
    }

    @Test
    void deviceUtilisationIsTheUnionOfItsIntervals() {
        List<Slice> work = trace.slices.stream()
                .filter(s -> s.trackId() == trace.streamA || s.trackId() == trace.streamB)
                .sorted(Comparator.comparingLong(Slice::ts)).toList();
        long union = 0;
        long reach = Long.MIN_VALUE;
        for (Slice s : work) {
            long from = Math.max(s.ts(), reach);
            union += Math.max(0, s.end() - from);
            reach = Math.max(reach, s.end());
        }
        Table t = StatisticsTables.utilisation(view.store());
        boolean found = false;
        for (int i = 0; i < t.size(); i++) {
            if ("device".equals(t.get(i, "level"))) {
                assertEquals(union, t.get(i, "busy_ns"));
                found = true;
            }
        }
        assertTrue(found);
    }

    @Test
    void badWindowsAreRefusedWithAReason() {
        assertThrows(BadQueryException.class, () -> view.window(sliceTracks, 10, 10, 100, null));
        assertThrows(BadQueryException.class, () -> view.window(sliceTracks, 0, 10, 0, null));
        assertThrows(BadQueryException.class, () -> view.window(sliceTracks, 0, 10, TraceView.MAX_PIXELS + 1, null));
        BadQueryException e = assertThrows(BadQueryException.class,
                () -> view.window(List.of(987_654L), 0, 10, 100, null));
        assertTrue(e.getMessage().contains("987654"));
    }

    @Test
    void counterWindowKeepsStepValues() {
        long span = view.span();
        Map<String, Object> c = view.counter(trace.counterTrack, 0, span + 1, 50);
        @SuppressWarnings("unchecked")
        List<Object[]> points = (List<Object[]>) c.get("points");
        assertTrue(points.size() <= 50);
        long total = points.stream().mapToLong(p -> (Long) p[5]).sum();
        assertEquals(trace.counters.size(), total);
        double lastValue = trace.counters.get(trace.counters.size() - 1).value();
        assertEquals(lastValue, (Double) points.get(points.size() - 1)[4]);
    }
}
