package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.model.Slice;
import org.hetscope.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Windows answered from single slices held in memory ({@link ResidentSlices}): the very same items as the store
 * read without a cache, or as the zoom cache's coarsest level (the id and name of a merged run may name another of
 * its members), the counts
 * and busy time of a recount of the raw slices, and per lane the same pixel columns covered as a brute-force
 * rendering of the raw slices. On a generated trace (nesting, long and short slices) and a real Kineto trace,
 * with every slice held and with a budget of about one track (tracks dropped and loaded again all the time).
 */
class ResidentSlicesTest {
    private static final LevelOfDetail.Settings SMALL = new LevelOfDetail.Settings(new int[] {256, 32}, 500, 3000, 0);

    @TempDir
    Path dir;

    /** A raw slice: track, lane, start, duration (absolute ns). */
    private record Raw(long track, int depth, long ts, long dur) {
    }

    @Test
    void generatedTrace() throws Exception {
        SyntheticTrace trace = SyntheticTrace.write(dir.resolve("t.duckdb"), 4000, 17);
        List<Raw> raw = trace.slices.stream().map(s -> new Raw(s.trackId(), s.depth(), s.ts(), s.dur())).toList();
        check(dir.resolve("t.duckdb"), raw, "aten::op1");
    }

    @Test
    void realKinetoTrace() throws Exception {
        Path store = SubLaneWindowTest.importTrace(dir, TimelineBrowserTest.ROOT.resolve(
                "../shared/fixtures/chrome/kineto-cuda-sampled-rank0.json.gz"), new ChromeTraceFormat(), "k");
        List<Raw> raw = new ArrayList<>();
        try (TraceView probe = new TraceView("k", Store.open(store), Long.MAX_VALUE)) {
            // The lane each slice is drawn in (device tracks: sub-lanes), from a window where every slice is single.
            List<Long> tracks = sliceTracks(probe);
            Map<Long, Integer> lane = new HashMap<>();
            for (List<WindowItem> items : probe.window(tracks, 0, probe.span(), TraceView.MAX_PIXELS, null).values()) {
                for (WindowItem it : items) {
                    if (it.count() == 1) {
                        lane.put(it.id(), it.depth());
                    }
                }
            }
            try (Store s = Store.open(store)) {
                for (Object[] r : s.query(null, "SELECT id, track_id, depth, ts, dur FROM slice").rows()) {
                    Integer l = lane.get((Long) r[0]);
                    raw.add(new Raw((Long) r[1], l == null ? ((Number) r[2]).intValue() : l, (Long) r[3],
                            (Long) r[4]));
                }
            }
        }
        assertTrue(raw.size() > 1000, "slices: " + raw.size());
        check(store, raw, null);
    }

    private void check(Path store, List<Raw> raw, String highlight) throws Exception {
        Files.copy(store, dir.resolve("held.duckdb"));
        Files.copy(store, dir.resolve("squeezed.duckdb"));
        long largestTrack = raw.stream().collect(java.util.stream.Collectors.groupingBy(Raw::track,
                java.util.stream.Collectors.counting())).values().stream().mapToLong(Long::longValue).max().orElse(0);
        Files.copy(store, dir.resolve("uncached.duckdb"));
        // every slice fits the budget; a track with a slice longer than 2^31 - 1 ns is never held
        Set<Long> tooLong = new HashSet<>();
        for (Raw s : raw) {
            if (s.dur() > Integer.MAX_VALUE) {
                tooLong.add(s.track());
            }
        }
        long heldCount = raw.stream().filter(s -> !tooLong.contains(s.track())).count();
        // The budget bounds the slices of all views together: the squeezed one gets room for about one track.
        try (TraceView fromFile = new TraceView("f", Store.open(store), 0, SMALL, 1_000_000);
             TraceView uncached = new TraceView("u", Store.open(dir.resolve("uncached.duckdb")), Long.MAX_VALUE);
             TraceView held = new TraceView("h", Store.open(dir.resolve("held.duckdb")), 0, SMALL, 1_000_000, 0,
                     1_000_000_000);
             TraceView squeezed = new TraceView("s", Store.open(dir.resolve("squeezed.duckdb")), 0, SMALL, 1_000_000,
                     0, heldCount + largestTrack + 1)) {
            List<Long> tracks = sliceTracks(fromFile);
            long span = fromFile.span();
            long origin = fromFile.origin();
            held.window(tracks, 0, span, 100, null);
            assertEquals(0, held.slicesInMemory(), "nothing is held before a server enables it");
            held.holdSlicesInMemory();
            squeezed.holdSlicesInMemory();
            held.window(tracks, 0, span, 100, null);
            held.awaitSlicesInMemory(120_000);
            assertEquals(heldCount, held.slicesInMemory(), "held slices");
            SplittableRandom r = new SplittableRandom(5);
            int coverageChecked = 0;
            int fromMemory = 0;
            for (int i = 0; i < 120; i++) {
                long len = Math.max(1, span / (1 + r.nextInt(i % 2 == 0 ? 64 : 5000)));
                long t0 = r.nextLong(span - len + 1);
                if (i % 5 == 1) {
                    // a window starting where a slice ends: that slice touches it and is drawn
                    Raw edge = raw.get(r.nextInt(raw.size()));
                    t0 = Math.min(span - len, Math.max(0, edge.ts() + edge.dur() - origin));
                }
                int px = new int[] {16, 120, 700, 1920}[i % 4];
                String hl = i % 3 == 0 ? highlight : null;
                // A random run of tracks; the squeezed view then loads them and drops others.
                int from = r.nextInt(tracks.size());
                List<Long> ids = tracks.subList(from, Math.min(tracks.size(), from + 1 + r.nextInt(4)));
                // With every track held, a window reads the coarsest level (held in memory) or single slices, which
                // the store without a cache groups the same way; partly held, it may read the finer level's buckets.
                Map<Long, List<WindowItem>> file = fromFile.window(ids, t0, t0 + len, px, hl);
                Map<Long, List<WindowItem>> noCache = uncached.window(ids, t0, t0 + len, px, hl);
                LevelOfDetail lod = fromFile.levelOfDetail();
                boolean coarse = hl == null && lod.coarsest().equals(lod.levelFor((double) len / px));
                for (TraceView view : new TraceView[] {held, squeezed}) {
                    if (view == squeezed) {
                        squeezed.awaitSlicesInMemory(60_000);
                        fromMemory += squeezed.slicesInMemory() > 0 ? 1 : 0;
                    }
                    Map<Long, List<WindowItem>> got = view.window(ids, t0, t0 + len, px, hl);
                    for (long track : ids) {
                        String where = "track " + track + ", window " + t0 + "+" + len + " at " + px + " px, "
                                + (view == held ? "all held" : "squeezed");
                        if (view == held) {
                            sameItems((coarse ? file : noCache).get(track), got.get(track), where);
                        } else if (!sameItems(file.get(track), got.get(track))) {
                            sameItems(noCache.get(track), got.get(track), where);
                        }
                        long a = origin + t0;
                        long b = a + len;
                        long n = 0;
                        long busy = 0;
                        for (Raw s : raw) {
                            if (s.track() == track && s.ts() < b && s.ts() + s.dur() >= a) {
                                n++;
                                busy += Math.max(0, Math.min(s.ts() + s.dur(), b) - Math.max(s.ts(), a));
                            }
                        }
                        assertEquals(n, got.get(track).stream().mapToLong(WindowItem::count).sum(), "count, " + where);
                        assertEquals(busy, got.get(track).stream().mapToLong(WindowItem::busy).sum(), "busy, " + where);
                        if (view == held && sameCoverage(raw, track, a, t0, len, px, got.get(track), where)) {
                            coverageChecked++;
                        }
                    }
                }
            }
            assertTrue(coverageChecked > 50, "windows whose coverage was compared: " + coverageChecked);
            assertTrue(fromMemory > 50, "squeezed windows with slices held: " + fromMemory);
            assertTrue(held.slicesInMemory() + squeezed.slicesInMemory() <= heldCount + largestTrack + 1,
                    "the budget bounds what both views hold together");
        }
    }

    private static List<Long> sliceTracks(TraceView v) {
        return v.tracks().stream().filter(t -> t.slices() > 0).map(TraceView.TrackInfo::id).toList();
    }

    private static boolean sameItems(List<WindowItem> want, List<WindowItem> got) {
        try {
            sameItems(want, got, "");
            return true;
        } catch (AssertionError e) {
            return false;
        }
    }

    /** Item by item equal; a merged run may carry the id and name of another member. */
    private static void sameItems(List<WindowItem> want, List<WindowItem> got, String where) {
        assertEquals(want.size(), got.size(), "items, " + where);
        for (int i = 0; i < want.size(); i++) {
            WindowItem w = want.get(i);
            WindowItem g = got.get(i);
            String at = "item " + i + " of " + where;
            assertEquals(w.depth(), g.depth(), at);
            assertEquals(w.start(), g.start(), at);
            assertEquals(w.end(), g.end(), at);
            assertEquals(w.count(), g.count(), at);
            assertEquals(w.busy(), g.busy(), at);
            assertEquals(w.matches(), g.matches(), at);
            if (w.count() == 1) {
                assertEquals(w.id(), g.id(), at);
                assertEquals(w.name(), g.name(), at);
            }
        }
    }

    /**
     * Per lane, the pixel columns the answer's items cover equal those the raw slices cover. Compared only where
     * the raw slices form no more groups than there are pixels (one per lane and pixel of narrow slices, one per
     * wider slice): beyond that the answer is capped at the width by merging across pixels, on purpose.
     *
     * @return whether it was compared
     */
    private static boolean sameCoverage(List<Raw> raw, long track, long a, long t0, long len, int px,
                                        List<WindowItem> items, String where) {
        Map<Integer, BitSet> want = new HashMap<>();
        Set<String> groups = new HashSet<>();
        long minWide = Math.ceilDiv(len, px);
        for (Raw s : raw) {
            if (s.track() == track && s.ts() < a + len && s.ts() + s.dur() >= a) {
                cover(want, s.depth(), s.ts() - a, s.ts() + s.dur() - a, len, px);
                groups.add(s.depth() + "/" + (s.dur() >= minWide ? "w" + s.ts() + "/" + s.dur()
                        : "p" + (Math.max(s.ts(), a) - a) * px / len));
            }
        }
        if (groups.size() > px) {
            return false;
        }
        Map<Integer, BitSet> got = new HashMap<>();
        for (WindowItem it : items) {
            // item times are relative to the trace origin, t0 is the window's start on that scale
            cover(got, it.depth(), it.start() - t0, it.end() - t0, len, px);
        }
        assertEquals(want, got, "pixel columns per lane, " + where);
        return true;
    }

    private static void cover(Map<Integer, BitSet> lanes, int depth, long from, long to, long len, int px) {
        long c0 = column(Math.max(0, from), len, px);
        long c1 = column(Math.min(len, to), len, px);
        lanes.computeIfAbsent(depth, k -> new BitSet()).set((int) c0, (int) c1 + 1);
    }

    private static long column(long t, long len, int px) {
        return Math.min(px - 1, Math.floorDiv(t * px, len));
    }
}
