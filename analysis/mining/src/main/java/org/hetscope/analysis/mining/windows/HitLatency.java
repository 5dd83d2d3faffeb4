package org.hetscope.analysis.mining.windows;

import java.util.Arrays;
import java.util.OptionalLong;

/**
 * The cache-hit latency of an access trace, read off its own latency distribution, for method II's "latencies of
 * all non-trivial accesses (cache hits excluded)" (spec section 5 step 1) when the user does not give it.
 *
 * <p>Latencies of a memory hierarchy come in levels that differ by factors (hits of a few cycles, misses of tens,
 * contended accesses of more), so they are split on {@code x = ln(1 + latency)}. The split is Kittler and
 * Illingworth's minimum-error threshold: model the two sides as normal distributions and take the split between
 * distinct values that minimises {@code J = p0 ln s0 + p1 ln s1 - p0 ln p0 - p1 ln p1} (p: share of accesses, s:
 * standard deviation of x on each side). Unlike Otsu's between-class variance it does not favour splitting the
 * wide class when one class is much smaller and tighter than the other, which is the case of hits among misses.
 * A side's variance counts as at least that of a level spread evenly over a factor of two ({@code (ln 2)^2 / 12}),
 * so a side of a single latency value is not infinitely likely. The hit latency is the largest latency of the
 * lower side. Hits are most accesses of a real run; when the lower side is not a majority the trace shows no hit
 * level and nothing is derived. Sorting makes it O(n log n).
 */
public final class HitLatency {
    /** Smallest variance of x counted for one side. */
    static final double MIN_VARIANCE = Math.log(2) * Math.log(2) / 12;

    private HitLatency() {}

    /** The derived hit latency, or empty when the latencies show no majority level of hits. */
    public static OptionalLong derive(long[] latencies) {
        long[] x = latencies.clone();
        Arrays.sort(x);
        int n = x.length;
        double total = 0;
        double totalSq = 0;
        for (long v : x) {
            double l = Math.log1p(Math.max(0, v));
            total += l;
            totalSq += l * l;
        }
        double best = Double.POSITIVE_INFINITY;
        long hit = 0;
        long hitBelow = 0;
        double s0 = 0;
        double q0 = 0;
        for (int i = 0; i < n - 1; i++) {
            double l = Math.log1p(Math.max(0, x[i]));
            s0 += l;
            q0 += l * l;
            if (x[i + 1] == x[i]) {
                continue; // split only between distinct values
            }
            long w0 = i + 1;
            long w1 = n - w0;
            double m0 = s0 / w0;
            double m1 = (total - s0) / w1;
            double v0 = Math.max(MIN_VARIANCE, q0 / w0 - m0 * m0);
            double v1 = Math.max(MIN_VARIANCE, (totalSq - q0) / w1 - m1 * m1);
            double p0 = (double) w0 / n;
            double p1 = (double) w1 / n;
            double j = p0 * Math.log(v0) / 2 + p1 * Math.log(v1) / 2 - p0 * Math.log(p0) - p1 * Math.log(p1);
            if (j < best) {
                best = j;
                hit = x[i];
                hitBelow = w0;
            }
        }
        return best < Double.POSITIVE_INFINITY && 2 * hitBelow > n ? OptionalLong.of(hit) : OptionalLong.empty();
    }
}
