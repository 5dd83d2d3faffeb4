package org.hetscope.analysis.mining.windows;

import java.util.Arrays;

/**
 * Sample quantiles by linear interpolation between order statistics (Hyndman-Fan type 7, the R and NumPy default):
 * h = q (n - 1), Q = x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]). The thesis' Q3 = 9.65 cannot be an
 * order statistic of integer latencies, which is why this method is used (spec section 5).
 */
public final class Quantiles {
    private Quantiles() {}

    public static double type7(long[] values, double q) {
        if (values.length == 0) {
            throw new IllegalArgumentException("quantile of no values");
        }
        long[] x = values.clone();
        Arrays.sort(x);
        double h = q * (x.length - 1);
        int lo = (int) Math.floor(h);
        if (lo >= x.length - 1) {
            return x[x.length - 1];
        }
        return x[lo] + (h - lo) * (x[lo + 1] - x[lo]);
    }

    /** The third quartile. */
    public static double q3(long[] values) {
        return type7(values, 0.75);
    }
}
