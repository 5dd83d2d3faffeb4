package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.hetscope.model.Slice;
import org.hetscope.store.Store;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Medium zooms (windows of span/2 to span/64, between the zoom cache's levels) answered from the finer level held
 * in memory: per track the same counts and busy time as a recount of the raw slices and as the store read without
 * a cache, and the very same items as the finer level read from the cache file.
 */
class MediumZoomTest {
    private static final LevelOfDetail.Settings TWO_LEVELS =
            new LevelOfDetail.Settings(new int[] {256, 32}, 500, 3000, 0);

    @TempDir
    static Path dir;
    static SyntheticTrace trace;
    static TraceView uncached;
    static TraceView fromFile;
    static TraceView inMemory;
    /** A finer-level budget far below one track's rows: tracks are dropped and read again on every request. */
    static TraceView squeezed;
    static List<Long> sliceTracks;

    @BeforeAll
    static void open() throws Exception {
        trace = SyntheticTrace.write(dir.resolve("t.duckdb"), 4000, 11);
        uncached = new TraceView("t", Store.open(dir.resolve("t.duckdb")), Long.MAX_VALUE);
        fromFile = new TraceView("t", Store.open(dir.resolve("t.duckdb")), 0, TWO_LEVELS, 1_000_000);
        for (String copy : new String[] {"m.duckdb", "s.duckdb"}) {
            Files.copy(dir.resolve("t.duckdb"), dir.resolve(copy));
        }
        inMemory = new TraceView("t", Store.open(dir.resolve("m.duckdb")), 0, TWO_LEVELS, 1_000_000, 1_000_000);
        squeezed = new TraceView("t", Store.open(dir.resolve("s.duckdb")), 0, TWO_LEVELS, 1_000_000, 5);
        sliceTracks = trace.slices.stream().map(Slice::trackId).distinct().sorted().toList();
    }

    @AfterAll
    static void close() {
        squeezed.close();
        inMemory.close();
        fromFile.close();
        uncached.close();
    }

    @Test
    void mediumZoomsEqualTheRawSlicesAndTheUncachedAnswer() {
        LevelOfDetail.Level finer = inMemory.levelOfDetail().levels().get(0);
        assertEquals(0, inMemory.rowsInMemory(finer), "the finer level loads on first use");
        long span = uncached.span();
        SplittableRandom r = new SplittableRandom(3);
        int fromFinerLevel = 0;
        List<List<Long>> trackSets = List.of(sliceTracks, sliceTracks.subList(0, 2),
                List.of(sliceTracks.get(sliceTracks.size() - 1)));
        for (int i = 0; i < 40; i++) {
            long len = span / (2 + r.nextInt(63));
            long t0 = r.nextLong(span - len + 1);
            // 256 buckets against these widths: as 16,384 against 1,920 px at 100M slices, and narrower.
            int px = new int[] {4, 8, 16, 30, 120}[i % 5];
            if (finer.equals(inMemory.levelOfDetail().levelFor((double) len / px))) {
                fromFinerLevel++;
            }
            for (List<Long> tracks : trackSets) {
                Map<Long, List<WindowItem>> brute = uncached.window(tracks, t0, t0 + len, px, null);
                Map<Long, List<WindowItem>> file = fromFile.window(tracks, t0, t0 + len, px, null);
                for (TraceView view : new TraceView[] {inMemory, squeezed}) {
                    Map<Long, List<WindowItem>> got = view.window(tracks, t0, t0 + len, px, null);
                    for (long track : tracks) {
                        String where = "track " + track + ", window " + t0 + "+" + len + " at " + px + " px";
                        long[] raw = recount(track, uncached.origin() + t0, uncached.origin() + t0 + len);
                        assertEquals(raw[0], count(got.get(track)), "count of " + where);
                        assertEquals(raw[1], busy(got.get(track)), "busy of " + where);
                        assertEquals(count(brute.get(track)), count(got.get(track)), "count vs store, " + where);
                        assertEquals(busy(brute.get(track)), busy(got.get(track)), "busy vs store, " + where);
                        assertEquals(file.get(track), got.get(track), "items vs cache file, " + where);
                        assertTrue(got.get(track).size() <= px, where);
                    }
                }
            }
        }
        assertTrue(fromFinerLevel >= 10, "medium windows read the finer level, got " + fromFinerLevel);
        assertTrue(inMemory.rowsInMemory(finer) > 0, "the finer level is held in memory");
        assertTrue(squeezed.rowsInMemory(finer) < inMemory.rowsInMemory(finer), "the budget bounds what is held");
    }

    /** Count and clipped busy time of the raw slices of a track overlapping [a, b) (absolute ns). */
    private static long[] recount(long track, long a, long b) {
        long n = 0;
        long busy = 0;
        for (Slice s : trace.slices) {
            if (s.trackId() == track && s.ts() < b && s.end() >= a) {
                n++;
                busy += Math.max(0, Math.min(s.end(), b) - Math.max(s.ts(), a));
            }
        }
        return new long[] {n, busy};
    }

    private static long count(List<WindowItem> items) {
        return items.stream().mapToLong(WindowItem::count).sum();
    }

    private static long busy(List<WindowItem> items) {
        return items.stream().mapToLong(WindowItem::busy).sum();
    }
}
