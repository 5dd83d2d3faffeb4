package org.hetscope.web;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A zoom level of a cache held in memory per track, so that its windows are answered without a query: the coarsest
 * level (whole-trace windows) and the finer ones (medium zooms, where a window reads up to a few hundred thousand
 * buckets of the tracks on screen). Tracks are loaded in batches, whole, when first asked for; all at once when the
 * store opens if the level fits the budget and {@link #preload} is called. Beyond the budget the least recently used
 * tracks are dropped (and read again when asked for).
 */
final class ResidentLevel {
    /** Tracks read per query while loading. */
    private static final int BATCH = 64;

    private final LevelOfDetail lod;
    private final LevelOfDetail.Level level;
    private final long budgetRows;
    private final LinkedHashMap<Long, TrackBuckets> held = new LinkedHashMap<>(64, 0.75f, true);
    private long rowsHeld;

    /** @param budgetRows most rows (buckets and long slices) held at once */
    ResidentLevel(LevelOfDetail lod, long budgetRows) {
        this(lod, lod.coarsest(), budgetRows);
    }

    /** @param budgetRows most rows (buckets and long slices) of this level held at once */
    ResidentLevel(LevelOfDetail lod, LevelOfDetail.Level level, long budgetRows) {
        this.lod = lod;
        this.level = level;
        this.budgetRows = Math.max(1, budgetRows);
    }

    /** The default budget: about a sixth of the heap, at ~64 bytes per row. */
    static long defaultBudgetRows() {
        long configured = Long.getLong("hetscope.web.residentRows", -1);
        return configured >= 0 ? configured : Runtime.getRuntime().maxMemory() / 6 / 64;
    }

    /**
     * The budget of each finer level, {@code hetscope.web.residentFineRows}; 0 (the default) reads them from the
     * cache file. Held in memory, repeated medium zooms over the same tracks answer several times faster, but the
     * first zoom over a track loads all its buckets (16,384 rows at 100M slices), so windows over ever new tracks
     * (the benchmark's random track sets) are slower: docs/performance.md, "Web".
     */
    static long defaultFineBudgetRows() {
        return Math.max(0, Long.getLong("hetscope.web.residentFineRows", 0));
    }

    LevelOfDetail.Level level() {
        return level;
    }

    long rowsHeld() {
        return rowsHeld;
    }

    /** Loads every track when the whole level fits the budget; otherwise tracks load when first asked for. */
    synchronized void preload(List<Long> trackIds) {
        long total = lod.query("SELECT (SELECT count(*) FROM " + level.table() + ") + (SELECT count(*) FROM "
                + level.longTable() + ")").longs(0)[0];
        if (total <= budgetRows) {
            tracks(trackIds);
        }
    }

    /** The rows of these tracks (an empty entry for a track without any). */
    synchronized Map<Long, TrackBuckets> tracks(List<Long> trackIds) {
        Map<Long, TrackBuckets> out = new HashMap<>();
        List<Long> missing = new ArrayList<>();
        for (Long id : trackIds) {
            TrackBuckets t = held.get(id);
            if (t == null) {
                missing.add(id);
            } else {
                out.put(id, t);
            }
        }
        for (int i = 0; i < missing.size(); i += BATCH) {
            List<Long> batch = missing.subList(i, Math.min(missing.size(), i + BATCH));
            String where = SliceWindow.tracksWhere(batch);
            Map<Long, TrackBuckets> loaded = TrackBuckets.split(
                    lod.buckets(level, where, Long.MIN_VALUE, Long.MAX_VALUE),
                    lod.query("SELECT track_id, depth, id, ts, dur, code FROM " + level.longTable() + " WHERE "
                            + where + " ORDER BY track_id, depth, ts"), batch);
            for (Map.Entry<Long, TrackBuckets> e : loaded.entrySet()) {
                TrackBuckets previous = held.put(e.getKey(), e.getValue());
                rowsHeld += e.getValue().rows() - (previous == null ? 0 : previous.rows());
                out.put(e.getKey(), e.getValue());
            }
        }
        evict(trackIds);
        return out;
    }

    /** Drops least recently used tracks over the budget, never one of those just asked for. */
    private void evict(List<Long> keep) {
        if (rowsHeld <= budgetRows) {
            return;
        }
        java.util.Set<Long> asked = keep.stream().collect(Collectors.toSet());
        var it = held.entrySet().iterator();
        while (rowsHeld > budgetRows && it.hasNext()) {
            Map.Entry<Long, TrackBuckets> e = it.next();
            if (!asked.contains(e.getKey())) {
                rowsHeld -= e.getValue().rows();
                it.remove();
            }
        }
    }
}
