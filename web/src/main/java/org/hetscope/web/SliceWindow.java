package org.hetscope.web;

import java.math.BigInteger;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Computes the aggregated slices of some tracks in a time window: per track and lane, slices at least a pixel wide
 * stay single items and narrower ones merge per pixel (count, busy time clipped to the window, the longest one's
 * name), then {@link WindowAggregator} caps the items per track at the pixel width.
 *
 * <p>Where the rows come from depends on the zoom. With a zoom cache ({@link LevelOfDetail}), a window whose pixel
 * spans at least one bucket of a level takes that level's buckets that lie wholly inside it (from memory,
 * {@link ResidentLevel}) and reads only the buckets its edges cut as single slices; a narrower window reads
 * single slices from the cache's time-ordered copy, or from the store when that scans fewer rows (few tracks over a
 * long window). Without a cache, everything comes from the store. Wherever single slices are read, those of tracks
 * held in memory ({@link ResidentSlices}) come from there instead, grouped the same way.
 */
final class SliceWindow {
    private static final boolean PROFILE = Boolean.getBoolean("hetscope.web.profile");
    private static final java.lang.management.ThreadMXBean CPU =
            java.lang.management.ManagementFactory.getThreadMXBean();

    private final Connection store;
    private final long origin;
    private final LevelOfDetail lod;
    /** Levels of the cache held in memory (by the tracks asked for), by level. */
    private final Map<LevelOfDetail.Level, ResidentLevel> resident = new HashMap<>();
    /** Single slices held in memory, or null. */
    private final ResidentSlices held;
    private final Map<Long, Long> slicesPerTrack;
    private final long slices;
    /** The store's slice rows with depth replaced by the drawn row (a table name or a subquery). */
    private final String drawnSlices;

    /**
     * @param lod the zoom cache, or null
     * @param resident its levels held in memory
     * @param slicesPerTrack slice count of every track that has slices
     */
    SliceWindow(Connection store, long origin, LevelOfDetail lod, List<ResidentLevel> resident, ResidentSlices held,
                Map<Long, Long> slicesPerTrack, String drawnSlices) {
        this.held = held;
        this.drawnSlices = drawnSlices;
        this.store = store;
        this.origin = origin;
        this.lod = lod;
        for (ResidentLevel r : resident) {
            this.resident.put(r.level(), r);
        }
        this.slicesPerTrack = slicesPerTrack;
        this.slices = slicesPerTrack.values().stream().mapToLong(Long::longValue).sum();
    }

    long rowsInMemory(LevelOfDetail.Level level) {
        ResidentLevel r = resident.get(level);
        return r == null ? 0 : r.rowsHeld();
    }

    /** A group of slices with the key it merges under: -1 - id for a single wide slice, else its pixel. */
    private record Keyed(int depth, long key, WindowItem item) {
    }

    private static final Comparator<Keyed> ORDER = Comparator.comparingInt(Keyed::depth)
            .thenComparingLong(Keyed::key);

    /** The window; times relative to the origin, arguments already checked. */
    Map<Long, List<WindowItem>> window(List<Long> trackIds, long t0, long t1, int pixels, String highlight) {
        if (held == null) {
            return answer(trackIds, t0, t1, pixels, highlight);
        }
        held.answering();
        try {
            return answer(trackIds, t0, t1, pixels, highlight);
        } finally {
            held.answered();
        }
    }

    private Map<Long, List<WindowItem>> answer(List<Long> trackIds, long t0, long t1, int pixels, String highlight) {
        Map<Long, List<WindowItem>> byTrack = new LinkedHashMap<>();
        for (Long id : trackIds) {
            byTrack.put(id, new ArrayList<>());
        }
        if (trackIds.isEmpty()) {
            return byTrack;
        }
        long started = System.nanoTime();
        long startedCpu = PROFILE ? CPU.getCurrentThreadCpuTime() : 0;
        Shape s = new Shape(origin + t0, origin + t1, t0, t1 - t0, pixels);
        String tracksWhere = tracksWhere(trackIds);
        Map<Long, List<Keyed>> singles = new HashMap<>();
        LevelOfDetail.Level level = lod == null || highlight != null ? null : lod.levelFor((double) s.span / pixels);
        Map<Long, ResidentSlices.Track> inMemory = held == null ? Map.of() : held.take(trackIds);
        List<Long> rest = inMemory.isEmpty() ? trackIds
                : trackIds.stream().filter(id -> !inMemory.containsKey(id)).toList();
        boolean[] highlighted = inMemory.isEmpty() ? null : highlightedCodes(highlight);
        Map<Long, TrackBuckets> buckets = Map.of();
        BucketRange range = null;
        if (level != null && !resident.containsKey(level) && inMemory.size() == trackIds.size()) {
            // Every track held: its slices in the window are scanned in memory (~3 ns a slice; span/2 of 48 tracks
            // at 100M slices is 2.4M) faster than the level's buckets are read from the cache file, and each
            // slice lands in its own pixel.
            level = null;
        }
        if (level != null) {
            long w = level.width();
            // Every bucket holding a slice shorter than w that overlaps the window.
            range = new BucketRange(Math.floorDiv(s.a - w - origin, w), Math.floorDiv(s.b - 1 - origin, w));
            ResidentLevel held = resident.get(level);
            buckets = held != null ? held.tracks(trackIds)
                    : TrackBuckets.split(lod.buckets(level, tracksWhere, range.from, range.to + 1),
                            lod.longSlices(level, tracksWhere, s.a, s.b), trackIds);
            for (TrackBuckets tb : buckets.values()) {
                range.markCut(tb, s);
            }
            // The buckets the window's edges cut are read as single slices shorter than a bucket.
            for (long[] run : range.cutRuns()) {
                readHeld(singles, inMemory, s, origin + run[0] * w, origin + (run[1] + 1) * w, w, highlighted);
                if (!rest.isEmpty()) {
                    readCache(singles, rest, tracksWhere(rest), s, origin + run[0] * w, origin + (run[1] + 1) * w, w,
                            null);
                }
            }
        } else {
            readHeld(singles, inMemory, s, Long.MIN_VALUE, s.b, Long.MAX_VALUE, highlighted);
            if (!rest.isEmpty() && lod != null && cacheIsCheaper(rest, s)) {
                long reach = rest.stream().mapToLong(lod::maxDuration).max().orElse(0);
                readCache(singles, rest, tracksWhere(rest), s, s.a - reach, s.b, Long.MAX_VALUE, highlight);
            } else if (!rest.isEmpty()) {
                collectTexts(singles, fromStore(tracksWhere(rest), s, highlight));
            }
        }
        long queried = System.nanoTime();
        long queriedCpu = PROFILE ? CPU.getCurrentThreadCpuTime() : 0;
        for (Long id : trackIds) {
            TrackBuckets tb = buckets.get(id);
            List<Keyed> keyed = singles.getOrDefault(id, new ArrayList<>());
            if (tb != null) {
                addLongSlices(keyed, tb, s);
            }
            List<Keyed> extra = mergeEqualKeys(keyed);
            int expected = extra.size() + (tb == null ? 0 : Math.min(tb.buckets(), 2 * pixels));
            List<WindowItem> items = new ArrayList<>(expected);
            if (tb != null) {
                emitBuckets(tb, range, s, extra, items);
            } else {
                for (Keyed k : extra) {
                    items.add(k.item());
                }
            }
            byTrack.put(id, WindowAggregator.fit(items, t0, s.span, pixels));
        }
        if (PROFILE) {
            System.err.printf("window %s, %d of %d tracks in memory: rows %.1f ms (thread CPU %.1f), merge and fit %.1f ms (thread CPU %.1f)%n",
                    level != null ? level.table() : lod != null ? "single slices" : "store", inMemory.size(),
                    trackIds.size(),
                    (queried - started) / 1e6, (queriedCpu - startedCpu) / 1e6, (System.nanoTime() - queried) / 1e6,
                    (CPU.getCurrentThreadCpuTime() - queriedCpu) / 1e6);
        }
        return byTrack;
    }

    /**
     * The buckets [from, to] of a level that a window touches, and which of them it cuts: a bucket is cut when,
     * for any requested track and lane, some of its slices lie inside the window and some not (or partly). Cut
     * buckets are read as single slices for all tracks; the others are taken whole or left out.
     */
    private static final class BucketRange {
        final long from;
        final long to;
        private final boolean[] cut;

        BucketRange(long from, long to) {
            this.from = from;
            this.to = to;
            this.cut = new boolean[(int) (to - from + 1)];
        }

        void markCut(TrackBuckets tb, Shape s) {
            for (int i = 0; i < tb.buckets(); i++) {
                int j = tb.bucket()[i];
                if (j >= from && j <= to && placement(tb, i, s) == 0) {
                    cut[(int) (j - from)] = true;
                }
            }
        }

        boolean isCut(long j) {
            return cut[(int) (j - from)];
        }

        /** Runs of consecutive cut buckets as [first, last]. */
        List<long[]> cutRuns() {
            List<long[]> runs = new ArrayList<>();
            for (int k = 0; k < cut.length; k++) {
                if (!cut[k]) {
                    continue;
                }
                long j = from + k;
                if (!runs.isEmpty() && runs.get(runs.size() - 1)[1] == j - 1) {
                    runs.get(runs.size() - 1)[1] = j;
                } else {
                    runs.add(new long[] {j, j});
                }
            }
            return runs;
        }

        /** 1 when all of row i's slices lie inside the window, -1 when none overlaps it, 0 otherwise. */
        static int placement(TrackBuckets tb, int i, Shape s) {
            if (tb.first()[i] >= s.b || tb.lastEnd()[i] < s.a) {
                return -1;
            }
            // Every slice starts at or after a, starts before b and ends by b: in the window, unclipped.
            return tb.first()[i] >= s.a && tb.lastStart()[i] < s.b && tb.lastEnd()[i] <= s.b ? 1 : 0;
        }
    }

    /** The window in the forms the queries need: absolute bounds a, b, relative start, span and pixels. */
    private record Shape(long a, long b, long t0, long span, int pixels, boolean wide) {
        Shape(long a, long b, long t0, long span, int pixels) {
            // span * pixels past a long: windows over months (traces merged from runs recorded months apart)
            this(a, b, t0, span, pixels, Math.multiplyHigh(span, pixels) != 0 || span * pixels < 0);
        }

        /** Slices at least this long are a pixel wide or more and stay single items. */
        long minWide() {
            return Math.ceilDiv(span, pixels);
        }

        long key(long id, long ts, long dur) {
            return dur >= minWide() ? -1 - id : pixelOf(Math.max(ts, a));
        }

        /** The pixel column of absolute time {@code t} in [a, b]: floor((t - a) * pixels / span), exact. */
        long pixelOf(long t) {
            long x = t - a;
            return wide ? BigInteger.valueOf(x).multiply(BigInteger.valueOf(pixels))
                    .divide(BigInteger.valueOf(span)).longValueExact() : x * pixels / span;
        }

        /** The first absolute time whose pixel is {@code k}: a + ceil(k * span / pixels), exact. */
        long startOf(long k) {
            if (!wide) {
                return a + Math.ceilDiv(k * span, pixels);
            }
            BigInteger[] qr = BigInteger.valueOf(k).multiply(BigInteger.valueOf(span))
                    .divideAndRemainder(BigInteger.valueOf(pixels));
            return a + qr[0].longValueExact() + (qr[1].signum() > 0 ? 1 : 0);
        }

        /** SQL for the pixel column of {@code ts} clipped to the window (HUGEINT only where a long overflows). */
        String pixelSql() {
            String x = wide ? "(greatest(ts, %1$d) - %1$d)::HUGEINT" : "(greatest(ts, %1$d) - %1$d)";
            return ("CAST(" + x + " * %2$d // %3$d AS BIGINT)").formatted(a, pixels, span);
        }

        long clipped(long ts, long dur) {
            return Math.max(0, Math.min(ts + dur, b) - Math.max(ts, a));
        }
    }

    /**
     * What a store row costs against a row of the time-ordered copy: it carries name and category as text, grouped
     * by arg_max, where the copy has an integer code (about twice the time per row at 100M slices, span/16 over
     * 48 tracks).
     */
    private static final double STORE_ROW_COST = 2;

    /**
     * Whether reading single slices from the cache's time-ordered copy costs less than reading the tracks from the
     * store: the copy is read by whole time slabs of all tracks, the store by whole tracks (its rows weighed by
     * {@link #STORE_ROW_COST}).
     */
    private boolean cacheIsCheaper(List<Long> trackIds, Shape s) {
        long reach = trackIds.stream().mapToLong(lod::maxDuration).max().orElse(0);
        long slabsRead = Math.floorDiv(s.b - origin, lod.slab()) - Math.floorDiv(Math.max(origin, s.a - reach) - origin,
                lod.slab()) + 1;
        double viaCache = (double) slices * Math.max(1, slabsRead) / lod.slabs();
        double viaStore = trackIds.stream().mapToLong(id -> slicesPerTrack.getOrDefault(id, 0L)).sum();
        return viaCache <= viaStore * STORE_ROW_COST;
    }

    /**
     * Adds the slices of the cache's time-ordered copy that start in [from, to), are shorter than
     * {@code shorterThan} and overlap the window. Few slices (a short window) come back one by one and are grouped
     * by {@link #mergeEqualKeys}, which is cheaper than DuckDB's grouping at that size; more come back grouped per
     * (track, depth, key) as in {@link #fromStore}.
     */
    private void readCache(Map<Long, List<Keyed>> out, List<Long> trackIds, String tracksWhere, Shape s, long from,
                           long to, long shorterThan, String highlight) {
        from = Math.max(from, origin);
        to = Math.min(to, s.b);
        if (from >= to) {
            return;
        }
        long s0 = Math.floorDiv(from - origin, lod.slab());
        long s1 = Math.floorDiv(to - 1 - origin, lod.slab());
        java.util.Set<Long> highlighted = new java.util.HashSet<>();
        if (highlight != null) {
            String[][] names = lod.names();
            for (int c = 1; c < names.length; c++) {
                if (highlight.equals(names[c][0])) {
                    highlighted.add((long) c);
                }
            }
        }
        // Numbers are written into the text so that DuckDB prunes row groups by them (zone maps on s and track_id).
        String where = "s BETWEEN " + s0 + " AND " + s1 + " AND " + tracksWhere + " AND ts >= " + from
                + " AND ts < " + to + (shorterThan == Long.MAX_VALUE ? "" : " AND dur < " + shorterThan);
        long tracked = trackIds.stream().mapToLong(id -> slicesPerTrack.getOrDefault(id, 0L)).sum();
        double expected = (double) tracked * (s0 == s1 ? 1 : s1 - s0 + 1) / lod.slabs();
        if (expected < lod.settings().groupHereBelow()) {
            collectSlices(out, lod.slices(s0, s1, trackIds, from, to, shorterThan, s.a, s.b), s, highlighted);
            return;
        }
        String matches = highlighted.isEmpty() ? "0" : "count(*) FILTER (WHERE code IN ("
                + highlighted.stream().map(String::valueOf).collect(Collectors.joining(",")) + "))";
        collectCodes(out, lod.query(groupSql("lod_slices", where, s, "arg_max(code, dur)", matches)));
    }

    /** Which name codes carry the highlighted name (null without highlight). */
    private boolean[] highlightedCodes(String highlight) {
        if (highlight == null) {
            return null;
        }
        String[][] names = lod.names();
        boolean[] out = new boolean[names.length];
        for (int c = 1; c < names.length; c++) {
            out[c] = highlight.equals(names[c][0]);
        }
        return out;
    }

    /**
     * As {@link #readCache} for tracks held in memory: their slices that start in [from, to), are shorter than
     * {@code shorterThan} and overlap the window, as keyed items. A lane's slices are in time order, so those
     * narrower than a pixel that share a pixel are consecutive and are merged here, in the order and with the
     * rule {@link #mergeEqualKeys} would apply (a slice's name wins when it is longer than the group so far).
     */
    private void readHeld(Map<Long, List<Keyed>> out, Map<Long, ResidentSlices.Track> tracks, Shape s, long from,
                          long to, long shorterThan, boolean[] highlighted) {
        if (tracks.isEmpty()) {
            return;
        }
        String[][] names = lod.names();
        to = Math.min(to, s.b);
        long minWide = s.minWide();
        for (Map.Entry<Long, ResidentSlices.Track> e : tracks.entrySet()) {
            ResidentSlices.Track t = e.getValue();
            List<Keyed> list = out.computeIfAbsent(e.getKey(), k -> new ArrayList<>());
            long[] ts = t.ts();
            int[] dur = t.dur();
            long[] id = t.id();
            int[] code = t.code();
            for (int k = 0; k < t.depths().length; k++) {
                int depth = t.depths()[k];
                int end = t.from()[k + 1];
                // A slice starting before a minus the lane's longest duration ends before the window.
                int i = t.firstAtOrAfter(k, Math.max(from, s.a - t.maxDur()[k]));
                long gKey = Long.MIN_VALUE;
                // Slices starting before this time fall in the group's pixel (no division per slice).
                long gUntil = Long.MIN_VALUE;
                long gFirst = 0;
                long gLast = 0;
                long gCount = 0;
                long gBusy = 0;
                long gMatches = 0;
                int gBest = -1;
                for (; i < end; i++) {
                    long start = ts[i];
                    if (start >= to) {
                        break;
                    }
                    long d = dur[i];
                    if (d >= shorterThan || start + d < s.a) {
                        continue;
                    }
                    long clipped = s.clipped(start, d);
                    long match = highlighted != null && highlighted[code[i]] ? 1 : 0;
                    if (d >= minWide) {
                        String[] nc = names[code[i]];
                        list.add(new Keyed(depth, -1 - id[i], new WindowItem(depth, start - origin,
                                start + d - origin, 1, clipped, id[i], nc[0], nc[1], match)));
                        continue;
                    }
                    if (start >= gUntil) {
                        if (gBest >= 0) {
                            list.add(group(depth, gKey, gFirst, gLast, gCount, gBusy, id[gBest], code[gBest],
                                    gMatches, names));
                        }
                        gKey = s.pixelOf(Math.max(start, s.a));
                        gUntil = s.startOf(gKey + 1);
                        gFirst = start;
                        gLast = start + d;
                        gCount = 1;
                        gBusy = clipped;
                        gMatches = match;
                        gBest = i;
                    } else {
                        gLast = Math.max(gLast, start + d);
                        gCount++;
                        if (clipped > gBusy) {
                            gBest = i;
                        }
                        gBusy += clipped;
                        gMatches += match;
                    }
                }
                if (gBest >= 0) {
                    list.add(group(depth, gKey, gFirst, gLast, gCount, gBusy, id[gBest], code[gBest], gMatches,
                            names));
                }
            }
        }
    }

    private Keyed group(int depth, long key, long first, long last, long count, long busy, long id, int code,
                        long matches, String[][] names) {
        String[] nc = names[code];
        return new Keyed(depth, key, new WindowItem(depth, first - origin, last - origin, count, busy, id, nc[0],
                nc[1], matches));
    }

    /** Single slices (columns track_id, depth, id, ts, dur, code), one keyed item each. */
    private void collectSlices(Map<Long, List<Keyed>> out, Columns rows, Shape s, java.util.Set<Long> highlighted) {
        String[][] names = lod.names();
        long[] track = rows.longs(0);
        long[] depth = rows.longs(1);
        long[] id = rows.longs(2);
        long[] ts = rows.longs(3);
        long[] dur = rows.longs(4);
        long[] code = rows.longs(5);
        List<Keyed> list = null;
        long listTrack = Long.MIN_VALUE;
        for (int i = 0; i < rows.rows(); i++) {
            if (list == null || track[i] != listTrack) {
                listTrack = track[i];
                list = out.computeIfAbsent(listTrack, k -> new ArrayList<>());
            }
            String[] nc = names[(int) code[i]];
            list.add(new Keyed((int) depth[i], s.key(id[i], ts[i], dur[i]), new WindowItem((int) depth[i],
                    ts[i] - origin, ts[i] + dur[i] - origin, 1, s.clipped(ts[i], dur[i]), id[i], nc[0], nc[1],
                    highlighted.contains(code[i]) ? 1 : 0)));
        }
    }

    /** Single slices from the store, grouped per (track, depth, key): columns track_id, depth, k, first, last end,
     * count, busy, id, name, category, matches. */
    private Columns fromStore(String tracksWhere, Shape s, String highlight) {
        String matches = highlight == null ? "0" : "count(*) FILTER (WHERE name = ?)";
        String sql = groupSql(drawnSlices, tracksWhere, s, "arg_max(name, dur), arg_max(category, dur)", matches);
        return highlight == null ? Columns.read(store, sql) : Columns.read(store, sql, highlight);
    }

    private static String groupSql(String table, String where, Shape s, String names, String matches) {
        return """
                SELECT track_id, depth, k, min(ts), max(ts + dur), count(*), sum(%3$s)::BIGINT, arg_max(id, dur),
                       %4$s, %5$s
                FROM (
                  SELECT track_id, depth, id, ts, dur, %6$s,
                         CASE WHEN dur >= %7$d THEN -1 - id ELSE %9$s END AS k
                  FROM %1$s
                  WHERE %2$s AND ts < %10$d AND ts + dur >= %8$d)
                GROUP BY track_id, depth, k""".formatted(table, where,
                "greatest(0, least(ts + dur, %d) - greatest(ts, %d))".formatted(s.b, s.a), names, matches,
                table.equals("lod_slices") ? "code" : "name, category", s.minWide(), s.a, s.pixelSql(), s.b);
    }

    private void collectCodes(Map<Long, List<Keyed>> out, Columns rows) {
        String[][] names = lod.names();
        long[] code = rows.longs(8);
        collect(out, rows, i -> names[(int) code[i]][0], i -> names[(int) code[i]][1], 9);
    }

    private void collectTexts(Map<Long, List<Keyed>> out, Columns rows) {
        String[] name = rows.texts(8);
        String[] category = rows.texts(9);
        collect(out, rows, i -> name[i], i -> category[i], 10);
    }

    /**
     * Columns 0-7 are track, depth, key, first, last, count, busy, id; names come from the zoom cache's codes or as
     * text.
     */
    private void collect(Map<Long, List<Keyed>> out, Columns rows, java.util.function.IntFunction<String> nameOf,
            java.util.function.IntFunction<String> categoryOf, int matchesColumn) {
        long[] track = rows.longs(0);
        long[] depth = rows.longs(1);
        long[] key = rows.longs(2);
        long[] first = rows.longs(3);
        long[] last = rows.longs(4);
        long[] count = rows.longs(5);
        long[] busy = rows.longs(6);
        long[] id = rows.longs(7);
        long[] matches = rows.longs(matchesColumn);
        for (int i = 0; i < rows.rows(); i++) {
            out.computeIfAbsent(track[i], k -> new ArrayList<>()).add(new Keyed((int) depth[i], key[i],
                    new WindowItem((int) depth[i], first[i] - origin, last[i] - origin, count[i], busy[i], id[i],
                            nameOf.apply(i), categoryOf.apply(i), matches[i])));
        }
    }

    /** The level's slices too long for a bucket that overlap the window, keyed like single slices. */
    private void addLongSlices(List<Keyed> out, TrackBuckets tb, Shape s) {
        String[][] names = lod.names();
        for (int i = 0; i < tb.longTs().length; i++) {
            long ts = tb.longTs()[i];
            long dur = tb.longDur()[i];
            if (ts < s.b && ts + dur >= s.a) {
                String[] nc = names[tb.longCode()[i]];
                out.add(new Keyed(tb.longDepth()[i], s.key(tb.longId()[i], ts, dur), new WindowItem(tb.longDepth()[i],
                        ts - origin, ts + dur - origin, 1, s.clipped(ts, dur), tb.longId()[i], nc[0], nc[1], 0)));
            }
        }
    }

    /**
     * Appends the track's buckets that lie wholly inside the window, merged per (depth, pixel of their first
     * start), together with the extra items (sorted by depth and key), merging those of equal keys.
     */
    private void emitBuckets(TrackBuckets tb, BucketRange range, Shape s, List<Keyed> extra, List<WindowItem> out) {
        String[][] names = lod.names();
        int n = tb.buckets();
        int e = 0;
        int i = 0;
        int lastDepth = -1;
        long lastPixel = Long.MIN_VALUE;
        while (i < n) {
            int j0 = tb.bucket()[i];
            if (j0 < range.from || j0 > range.to || range.isCut(j0) || BucketRange.placement(tb, i, s) < 0) {
                i++;
                continue;
            }
            int depth = tb.depth()[i];
            long pixel = s.pixelOf(tb.first()[i]);
            long first = tb.first()[i];
            long last = tb.lastEnd()[i];
            long count = tb.count()[i];
            long busy = tb.busy()[i];
            int best = i;
            int j = i + 1;
            for (; j < n && tb.depth()[j] == depth; j++) {
                int bj = tb.bucket()[j];
                if (bj > range.to || range.isCut(bj) || BucketRange.placement(tb, j, s) < 0
                        || s.pixelOf(tb.first()[j]) != pixel) {
                    break;
                }
                first = Math.min(first, tb.first()[j]);
                last = Math.max(last, tb.lastEnd()[j]);
                count += tb.count()[j];
                // As WindowItem.mergeWith: the name of the larger part so far wins.
                if (tb.busy()[j] > busy) {
                    best = j;
                }
                busy += tb.busy()[j];
            }
            for (; e < extra.size() && compare(extra.get(e), depth, pixel) < 0; e++) {
                out.add(extra.get(e).item());
            }
            String[] nc = names[tb.code()[best]];
            WindowItem item = new WindowItem(depth, first - origin, last - origin, count, busy, tb.id()[best], nc[0],
                    nc[1], 0);
            if (e < extra.size() && compare(extra.get(e), depth, pixel) == 0) {
                item = item.mergeWith(extra.get(e++).item());
            }
            if (depth == lastDepth && pixel == lastPixel) {
                // Same pixel as the previous group, which a cut or empty bucket interrupted.
                out.set(out.size() - 1, out.get(out.size() - 1).mergeWith(item));
            } else {
                out.add(item);
            }
            lastDepth = depth;
            lastPixel = pixel;
            i = j;
        }
        for (; e < extra.size(); e++) {
            out.add(extra.get(e).item());
        }
    }

    private static int compare(Keyed k, int depth, long key) {
        return k.depth() != depth ? Integer.compare(k.depth(), depth) : Long.compare(k.key(), key);
    }

    /** Sorts by (depth, key) and merges entries with equal keys. */
    private static List<Keyed> mergeEqualKeys(List<Keyed> in) {
        in.sort(ORDER);
        List<Keyed> out = new ArrayList<>(in.size());
        for (Keyed k : in) {
            Keyed last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && last.depth() == k.depth() && last.key() == k.key()) {
                out.set(out.size() - 1, new Keyed(k.depth(), k.key(), last.item().mergeWith(k.item())));
            } else {
                out.add(k);
            }
        }
        return out;
    }

    /**
     * The SQL condition selecting these tracks. The range lets DuckDB skip row groups by their track_id zone maps;
     * the IN list alone would not.
     */
    static String tracksWhere(List<Long> trackIds) {
        long lo = trackIds.stream().mapToLong(Long::longValue).min().orElseThrow();
        long hi = trackIds.stream().mapToLong(Long::longValue).max().orElseThrow();
        return "track_id BETWEEN " + lo + " AND " + hi + " AND track_id IN ("
                + trackIds.stream().map(String::valueOf).collect(Collectors.joining(",")) + ")";
    }
}
