package org.hetscope.analysis.gpu.diff;

import java.util.Arrays;

/**
 * The Mann-Whitney U test (Wilcoxon rank-sum) of two samples of integer durations: does one tend to take longer
 * than the other? Ranks come from one sort of each sample and a merge, O(n log n). Two-sided p-value: from the
 * exact distribution of U when there are no ties and the samples are small (n1 + n2 <= {@value #EXACT_MAX_N}),
 * else from the normal approximation with the tie correction of the variance and a continuity correction of 1/2.
 */
public final class MannWhitney {
    /** Largest n1 + n2 for which the exact distribution is used: its counts, C(n1 + n2, n1), fit a long. */
    static final int EXACT_MAX_N = 60;

    private MannWhitney() {
    }

    /**
     * @param u U of the first sample: the number of pairs (x from the first, y from the second) with x > y, plus
     *          half the pairs with x = y; n1 * n2 / 2 when neither tends to be larger
     * @param z the standard score of U (continuity-corrected; 0 when the exact distribution was used or the
     *          variance is 0)
     * @param pValue two-sided p-value, in [0, 1]
     * @param exact whether the p-value comes from the exact distribution
     */
    public record Result(long n1, long n2, double u, double z, double pValue, boolean exact) {
    }

    /** Tests {@code x} against {@code y}; the arrays are not changed. Both must be non-empty. */
    public static Result test(long[] x, long[] y) {
        if (x.length == 0 || y.length == 0) {
            throw new IllegalArgumentException("Mann-Whitney U needs two non-empty samples");
        }
        long[] a = x.clone();
        long[] b = y.clone();
        Arrays.sort(a);
        Arrays.sort(b);
        long n1 = a.length;
        long n2 = b.length;
        long n = n1 + n2;
        // walk the merged order one block of equal values at a time; twice the rank sum of the first sample stays
        // an integer (mid-ranks of tied blocks are halves)
        long twiceRankSum = 0;
        double tieTerm = 0; // sum over tied blocks of t^3 - t
        boolean ties = false;
        int i = 0;
        int j = 0;
        long below = 0; // values ranked before the current block
        while (i < a.length || j < b.length) {
            long v = j >= b.length || i < a.length && a[i] <= b[j] ? a[i] : b[j];
            int ca = 0;
            while (i < a.length && a[i] == v) {
                i++;
                ca++;
            }
            int cb = 0;
            while (j < b.length && b[j] == v) {
                j++;
                cb++;
            }
            long t = ca + cb;
            // the block holds ranks below + 1 .. below + t, each value's mid-rank below + (t + 1) / 2
            twiceRankSum += ca * (2 * below + t + 1);
            if (t > 1) {
                ties = true;
                tieTerm += (double) t * t * t - t;
            }
            below += t;
        }
        long twiceU = twiceRankSum - n1 * (n1 + 1);
        double u = twiceU / 2.0;
        if (!ties && n <= EXACT_MAX_N) {
            return new Result(n1, n2, u, 0, exactP(twiceU / 2, (int) n1, (int) n2), true);
        }
        double mean = n1 * (double) n2 / 2;
        double variance = n1 * (double) n2 / 12 * ((n + 1) - tieTerm / ((double) n * (n - 1)));
        if (!(variance > 0)) {
            // every value equal: nothing tells the samples apart
            return new Result(n1, n2, u, 0, 1, false);
        }
        double z = Math.max(0, Math.abs(u - mean) - 0.5) / Math.sqrt(variance);
        double p = Math.min(1, erfc(z / Math.sqrt(2)));
        return new Result(n1, n2, u, z, p, false);
    }

    /**
     * Two-sided exact p-value of U = u without ties: 2 * min(P(U <= u), P(U >= u)), capped at 1. The number of
     * orderings with each U is the coefficient of the Gaussian binomial [n1 + n2 choose n1]_q, built as
     * the product over k = 1..n1 of (1 - q^(n2 + k)) / (1 - q^k); after each step the polynomial is again a
     * Gaussian binomial, with non-negative integer coefficients.
     */
    static double exactP(long u, int n1, int n2) {
        int degree = n1 * n2;
        long[] c = new long[degree + 1];
        c[0] = 1;
        int deg = 0;
        for (int k = 1; k <= n1; k++) {
            int shift = n2 + k;
            int next = deg + n2;
            // times (1 - q^shift)
            for (int e = Math.min(next + k, degree); e >= shift; e--) {
                c[e] -= c[e - shift];
            }
            // divided by (1 - q^k): a running sum with stride k
            for (int e = k; e <= next; e++) {
                c[e] += c[e - k];
            }
            // what the product left above the quotient's degree is no coefficient: clear it for the next step
            for (int e = next + 1; e <= Math.min(next + k, degree); e++) {
                c[e] = 0;
            }
            deg = next;
        }
        double total = 0;
        double atMost = 0;
        for (int e = 0; e <= degree; e++) {
            total += c[e];
            if (e <= u) {
                atMost += c[e];
            }
        }
        double atLeast = total - atMost + (u >= 0 && u <= degree ? c[(int) u] : 0);
        return Math.min(1, 2 * Math.min(atMost, atLeast) / total);
    }

    /**
     * The complementary error function, erfc(x) = 1 - erf(x), for x >= 0: the Maclaurin series of erf below 2.5,
     * the continued fraction of erfc above (where the series would lose the small tail to rounding).
     */
    static double erfc(double x) {
        if (x < 0) {
            return 2 - erfc(-x);
        }
        if (x < 2.5) {
            // erf(x) = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1))
            double term = x;
            double sum = x;
            for (int n = 1; n < 200; n++) {
                term *= -x * x / n;
                double add = term / (2 * n + 1);
                sum += add;
                if (Math.abs(add) < 1e-17 * Math.abs(sum)) {
                    break;
                }
            }
            return 1 - 2 / Math.sqrt(Math.PI) * sum;
        }
        if (x > 40) {
            return 0;
        }
        // erfc(x) = exp(-x^2) / sqrt(pi) / (x + (1/2) / (x + (2/2) / (x + (3/2) / (x + ...)))), evaluated from
        // the tail inwards
        double f = x;
        for (int k = 120; k >= 1; k--) {
            f = x + (k / 2.0) / f;
        }
        return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
    }
}
