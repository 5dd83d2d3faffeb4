package org.hetscope.web;

import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A store whose span times the page width passes a long (traces merged from runs recorded months apart: span x
 * 1,920 px overflows past ~55 days) is drawn like any other: every window, from the store, through the zoom cache
 * and from held slices, gives the count and busy time of a recount of the raw slices and, per lane, the pixel
 * columns a brute-force rendering in exact 128-bit arithmetic gives. Before, every such window was refused
 * ("cannot be represented in nanoseconds"), so `serve` and `report` of such a store exited 1. Pixel columns are
 * compared on the view without a cache; the cached and held views must give the same counts and busy time.
 */
class MonthsLongWindowTest {
    private static final long DAY_NS = 86_400_000_000_000L;
    private static final LevelOfDetail.Settings SMALL = new LevelOfDetail.Settings(new int[] {256, 32}, 500, 3000, 0);

    @TempDir
    Path dir;

    private record Raw(long track, long ts, long dur) {
    }

    @Test
    void windowsOverMonthsAreDrawnExactly() throws Exception {
        // Five bursts of short slices on two threads, 50 days apart (200 days in all), and one slice a day long.
        StringBuilder json = new StringBuilder("{\"traceEvents\":[");
        SplittableRandom r = new SplittableRandom(11);
        String sep = "";
        for (int burst = 0; burst < 5; burst++) {
            for (int tid = 1; tid <= 2; tid++) {
                long us = burst * 50 * DAY_NS / 1000 + tid * 7;
                for (int i = 0; i < 400; i++) {
                    long dur = 1 + r.nextInt(500);
                    json.append(sep).append("{\"ph\":\"X\",\"name\":\"k").append(i % 7).append("\",\"pid\":1,\"tid\":")
                            .append(tid).append(",\"ts\":").append(us).append(",\"dur\":").append(dur).append('}');
                    sep = ",";
                    us += dur + r.nextInt(3000);
                }
            }
        }
        json.append(",{\"ph\":\"X\",\"name\":\"day\",\"pid\":1,\"tid\":3,\"ts\":").append(120 * DAY_NS / 1000)
                .append(",\"dur\":").append(DAY_NS / 1000).append("}]}");
        Path trace = dir.resolve("months.json");
        Files.writeString(trace, json);
        Path store = SubLaneWindowTest.importTrace(dir, trace, new ChromeTraceFormat(), "m");
        Files.copy(store, dir.resolve("cached.duckdb"));
        Files.copy(store, dir.resolve("held.duckdb"));
        List<Raw> raw = new ArrayList<>();
        try (Store s = Store.open(store)) {
            for (Object[] row : s.query(null, "SELECT track_id, ts, dur FROM slice").rows()) {
                raw.add(new Raw((Long) row[0], (Long) row[1], (Long) row[2]));
            }
        }
        assertEquals(4001, raw.size());
        try (TraceView plain = new TraceView("p", Store.open(store), Long.MAX_VALUE);
             TraceView cached = new TraceView("c", Store.open(dir.resolve("cached.duckdb")), 0, SMALL, 1_000_000);
             TraceView held = new TraceView("h", Store.open(dir.resolve("held.duckdb")), 0, SMALL, 1_000_000, 0,
                     1_000_000_000)) {
            long span = plain.span();
            long origin = plain.origin();
            assertTrue(span > 199 * DAY_NS, "span " + span);
            List<Long> tracks = plain.tracks().stream().filter(t -> t.slices() > 0).map(TraceView.TrackInfo::id)
                    .toList();
            held.holdSlicesInMemory();
            held.window(tracks, 0, span, 100, null);
            held.awaitSlicesInMemory(60_000);
            int wide = 0;
            int compared = 0;
            for (int i = 0; i < 40; i++) {
                long len = i < 4 ? span : Math.max(1, span / (1 + r.nextInt(i % 2 == 0 ? 3 : 100_000)));
                long t0 = i < 4 ? 0 : r.nextLong(span - len + 1);
                int px = new int[] {1920, 4096, 700, 16}[i % 4];
                wide += BigInteger.valueOf(len).multiply(BigInteger.valueOf(px)).bitLength() > 63 ? 1 : 0;
                for (TraceView view : new TraceView[] {plain, cached, held}) {
                    Map<Long, List<WindowItem>> got = view.window(tracks, t0, t0 + len, px, i % 3 == 0 ? "k3" : null);
                    for (long track : tracks) {
                        String where = view + " track " + track + ", window " + t0 + "+" + len + " at " + px + " px";
                        long a = origin + t0;
                        long n = 0;
                        long busy = 0;
                        Map<Integer, BitSet> want = new HashMap<>();
                        for (Raw s : raw) {
                            if (s.track() == track && s.ts() < a + len && s.ts() + s.dur() >= a) {
                                n++;
                                busy += Math.max(0, Math.min(s.ts() + s.dur(), a + len) - Math.max(s.ts(), a));
                                cover(want, 0, s.ts() - a, s.ts() + s.dur() - a, len, px);
                            }
                        }
                        List<WindowItem> items = got.getOrDefault(track, List.of());
                        assertEquals(n, items.stream().mapToLong(WindowItem::count).sum(), "count, " + where);
                        assertEquals(busy, items.stream().mapToLong(WindowItem::busy).sum(), "busy, " + where);
                        Map<Integer, BitSet> drawn = new HashMap<>();
                        for (WindowItem it : items) {
                            cover(drawn, 0, it.start() - t0, it.end() - t0, len, px);
                        }
                        if (view == plain && n <= px / 2) {
                            assertEquals(want, drawn, "pixel columns, " + where);
                            compared++;
                        }
                    }
                }
            }
            assertTrue(wide >= 8, "windows whose span x pixels passes a long: " + wide);
            assertTrue(compared > 30, "coverage comparisons: " + compared);
        }
    }

    private static void cover(Map<Integer, BitSet> lanes, int lane, long from, long to, long len, int px) {
        long c0 = column(Math.max(0, from), len, px);
        long c1 = column(Math.min(len, to), len, px);
        lanes.computeIfAbsent(lane, k -> new BitSet()).set((int) c0, (int) c1 + 1);
    }

    private static long column(long t, long len, int px) {
        return Math.min(px - 1, BigInteger.valueOf(t).multiply(BigInteger.valueOf(px))
                .divide(BigInteger.valueOf(len)).longValueExact());
    }
}
