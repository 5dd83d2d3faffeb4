package org.hetscope.analysis.memory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Lengths of unions of half-open intervals {@code [start, end)}, optionally clipped to a window. */
public final class Intervals {
    private Intervals() {}

    /** |(union of intervals) ∩ [from, to)|; overlapping intervals count once. */
    public static long unionWithin(List<long[]> intervals, long from, long to) {
        List<long[]> clipped = new ArrayList<>();
        for (long[] iv : intervals) {
            long s = Math.max(iv[0], from);
            long e = Math.min(iv[1], to);
            if (e > s) {
                clipped.add(new long[] {s, e});
            }
        }
        clipped.sort(Comparator.comparingLong(a -> a[0]));
        long total = 0;
        long curS = Long.MIN_VALUE;
        long curE = Long.MIN_VALUE;
        for (long[] iv : clipped) {
            if (iv[0] > curE) {
                if (curE > curS) {
                    total += curE - curS;
                }
                curS = iv[0];
                curE = iv[1];
            } else if (iv[1] > curE) {
                curE = iv[1];
            }
        }
        if (curE > curS) {
            total += curE - curS;
        }
        return total;
    }

    /** |[s, e) ∩ [from, to)|. */
    public static long overlap(long s, long e, long from, long to) {
        return Math.max(0, Math.min(e, to) - Math.max(s, from));
    }
}
