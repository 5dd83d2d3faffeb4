package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hetscope.model.Slice;
import org.hetscope.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which stores the server opens with a zoom cache by default: a store of a few hundred thousand slices already
 * needs one (the whole-trace window of such a store, read slice by slice, misses the 50 ms redraw goal of
 * docs/performance.md "Web"), a small one does not.
 */
class ZoomCacheThresholdTest {
    @TempDir
    Path dir;

    @Test
    void aStoreOfATenthOfAMillionSlicesGetsAZoomCacheBySmallOnesNot() throws Exception {
        SyntheticTrace big = SyntheticTrace.write(dir.resolve("big.duckdb"), 25_000, 3);
        assertTrue(big.slices.size() >= 100_000 && big.slices.size() < 2_000_000, "slices: " + big.slices.size());
        SyntheticTrace small = SyntheticTrace.write(dir.resolve("small.duckdb"), 200, 3);
        assertTrue(small.slices.size() < 100_000);
        try (TraceView bigView = new TraceView("big", Store.open(dir.resolve("big.duckdb")));
             TraceView direct = new TraceView("big", Store.open(dir.resolve("big.duckdb")), Long.MAX_VALUE);
             TraceView smallView = new TraceView("small", Store.open(dir.resolve("small.duckdb")))) {
            assertNotNull(bigView.levelOfDetail());
            assertNull(smallView.levelOfDetail());
            // The whole trace through the cache: the same slice count and busy time per track as read directly.
            List<Long> tracks = big.slices.stream().map(Slice::trackId).distinct().sorted().toList();
            Map<Long, List<WindowItem>> viaCache = bigView.window(tracks, 0, bigView.span(), 1920, null);
            Map<Long, List<WindowItem>> fromStore = direct.window(tracks, 0, direct.span(), 1920, null);
            for (Long t : tracks) {
                long expected = big.slices.stream().filter(s -> s.trackId() == t).count();
                assertEquals(expected, viaCache.get(t).stream().mapToLong(WindowItem::count).sum(), "track " + t);
                assertEquals(fromStore.get(t).stream().mapToLong(WindowItem::busy).sum(),
                        viaCache.get(t).stream().mapToLong(WindowItem::busy).sum(), "track " + t);
            }
        }
    }
}
