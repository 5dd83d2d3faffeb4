package org.hetscope.web;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One track's rows of a zoom level, as primitive columns: its buckets sorted by depth and bucket index, and its
 * slices too long for a bucket, sorted by depth and start. Names are codes of {@link LevelOfDetail#names()}.
 */
record TrackBuckets(int[] depth, int[] bucket, long[] count, long[] busy, long[] first, long[] lastStart,
                    long[] lastEnd, long[] id, int[] code, int[] longDepth, long[] longId, long[] longTs,
                    long[] longDur, int[] longCode) {

    static final TrackBuckets EMPTY = new TrackBuckets(new int[0], new int[0], new long[0], new long[0], new long[0],
            new long[0], new long[0], new long[0], new int[0], new int[0], new long[0], new long[0], new long[0],
            new int[0]);

    int buckets() {
        return bucket.length;
    }

    /** Rows held, buckets and long slices together (what a memory budget counts). */
    long rows() {
        return bucket.length + longId.length;
    }

    /**
     * Splits query results sorted by track into one entry per requested track (tracks without rows get
     * {@link #EMPTY}).
     *
     * @param buckets columns track_id, depth, b, n, busy, first_ts, last_ts, last_end, id, code
     * @param longs columns track_id, depth, id, ts, dur, code
     */
    static Map<Long, TrackBuckets> split(Columns buckets, Columns longs, List<Long> trackIds) {
        Map<Long, TrackBuckets> out = new HashMap<>();
        for (Long id : trackIds) {
            out.put(id, EMPTY);
        }
        long[] bt = buckets.longs(0);
        long[] lt = longs.longs(0);
        int i = 0;
        int j = 0;
        while (i < buckets.rows() || j < longs.rows()) {
            long track = Math.min(i < buckets.rows() ? bt[i] : Long.MAX_VALUE,
                    j < longs.rows() ? lt[j] : Long.MAX_VALUE);
            int i2 = i;
            while (i2 < buckets.rows() && bt[i2] == track) {
                i2++;
            }
            int j2 = j;
            while (j2 < longs.rows() && lt[j2] == track) {
                j2++;
            }
            out.put(track, of(buckets, i, i2, longs, j, j2));
            i = i2;
            j = j2;
        }
        return out;
    }

    private static TrackBuckets of(Columns b, int from, int to, Columns l, int lFrom, int lTo) {
        return new TrackBuckets(ints(b.longs(1), from, to), ints(b.longs(2), from, to), copy(b.longs(3), from, to),
                copy(b.longs(4), from, to), copy(b.longs(5), from, to), copy(b.longs(6), from, to),
                copy(b.longs(7), from, to), copy(b.longs(8), from, to), ints(b.longs(9), from, to),
                ints(l.longs(1), lFrom, lTo),
                copy(l.longs(2), lFrom, lTo), copy(l.longs(3), lFrom, lTo), copy(l.longs(4), lFrom, lTo),
                ints(l.longs(5), lFrom, lTo));
    }

    private static long[] copy(long[] v, int from, int to) {
        return java.util.Arrays.copyOfRange(v, from, to);
    }

    private static int[] ints(long[] v, int from, int to) {
        int[] out = new int[to - from];
        for (int k = from; k < to; k++) {
            out[k - from] = Math.toIntExact(v[k]);
        }
        return out;
    }
}
