package org.hetscope.analysis.profiling;

import java.util.Arrays;

/** The few statistics the overhead study and the advisors need, on plain double arrays. */
public final class Statistics {
    private Statistics() {
    }

    public static double mean(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return s / x.length;
    }

    /** Population standard deviation (divides by n). */
    public static double populationSd(double[] x) {
        double m = mean(x);
        double s = 0;
        for (double v : x) {
            s += (v - m) * (v - m);
        }
        return Math.sqrt(s / x.length);
    }

    /** Percentile with linear interpolation between order statistics (R type 7), {@code p} in [0, 1]. */
    public static double percentile(double[] x, double p) {
        double[] s = x.clone();
        Arrays.sort(s);
        double h = (s.length - 1) * p;
        int lo = (int) Math.floor(h);
        int hi = Math.min(lo + 1, s.length - 1);
        return s[lo] + (h - lo) * (s[hi] - s[lo]);
    }

    public static double median(double[] x) {
        return percentile(x, 0.5);
    }

    /** Pearson's correlation coefficient. */
    public static double pearson(double[] x, double[] y) {
        if (x.length != y.length || x.length < 2) {
            throw new IllegalArgumentException("pearson needs two series of the same length >= 2");
        }
        double mx = mean(x);
        double my = mean(y);
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < x.length; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
            syy += (y[i] - my) * (y[i] - my);
        }
        return sxy / Math.sqrt(sxx * syy);
    }

    /** Overhead of a scenario against the control in percent: {@code (t / control - 1) * 100}. */
    public static double overheadPercent(double t, double control) {
        return (t / control - 1) * 100;
    }

    /**
     * The thesis's outlier rule (spec §4): values above mean + 3 sd become the 85th percentile, values below
     * mean - 3 sd the 15th percentile (population sd, R type 7 percentiles).
     */
    public static double[] replaceOutliers(double[] x) {
        double m = mean(x);
        double sd = populationSd(x);
        double p85 = percentile(x, 0.85);
        double p15 = percentile(x, 0.15);
        double[] out = x.clone();
        for (int i = 0; i < out.length; i++) {
            if (out[i] > m + 3 * sd) {
                out[i] = p85;
            } else if (out[i] < m - 3 * sd) {
                out[i] = p15;
            }
        }
        return out;
    }
}
