package org.hetscope.analysis.mining.scalability;

/**
 * k-means with k = 2 on (x, y) points, Euclidean, made deterministic (spec section 7.2): the initial centres are the
 * points with the smallest and the largest x + y (ties: the lower key, i.e. address); Lloyd iterations until no
 * point changes cluster (at most 100); a distance tie goes to cluster 0; an empty cluster keeps its centre. Cluster 1
 * is hot when (x1 - x0) + (y1 - y0) > 0, cluster 0 when it is < 0, none when equal or with fewer than two distinct
 * points.
 */
public final class TwoMeans {
    /** Result: cluster of each point, the two centres, and the hot cluster (0, 1) or -1. */
    public record Clustering(int[] cluster, double[] cx, double[] cy, int hot, int iterations) {
        public double centreDistance() {
            return Math.hypot(cx[1] - cx[0], cy[1] - cy[0]);
        }

        public int size(int c) {
            int n = 0;
            for (int k : cluster) {
                n += k == c ? 1 : 0;
            }
            return n;
        }
    }

    public static final int MAX_ITERATIONS = 100;

    private TwoMeans() {}

    public static Clustering cluster(double[] x, double[] y, long[] key) {
        int n = x.length;
        int lo = -1;
        int hi = -1;
        boolean distinct = false;
        for (int i = 0; i < n; i++) {
            double s = x[i] + y[i];
            if (lo < 0 || s < x[lo] + y[lo] || (s == x[lo] + y[lo] && Long.compareUnsigned(key[i], key[lo]) < 0)) {
                lo = i;
            }
            if (hi < 0 || s > x[hi] + y[hi] || (s == x[hi] + y[hi] && Long.compareUnsigned(key[i], key[hi]) < 0)) {
                hi = i;
            }
            if (i > 0 && (x[i] != x[0] || y[i] != y[0])) {
                distinct = true;
            }
        }
        int[] cluster = new int[n];
        if (!distinct) {
            double cx0 = n == 0 ? 0 : x[0];
            double cy0 = n == 0 ? 0 : y[0];
            return new Clustering(cluster, new double[] {cx0, cx0}, new double[] {cy0, cy0}, -1, 0);
        }
        if (x[lo] == x[hi] && y[lo] == y[hi]) {
            // Distinct points exist but share the extreme sums with equal coordinates: take any other point.
            for (int i = 0; i < n; i++) {
                if (x[i] != x[lo] || y[i] != y[lo]) {
                    hi = i;
                    break;
                }
            }
        }
        double[] cx = {x[lo], x[hi]};
        double[] cy = {y[lo], y[hi]};
        java.util.Arrays.fill(cluster, -1);
        int iterations = 0;
        boolean changed = true;
        while (changed && iterations < MAX_ITERATIONS) {
            iterations++;
            changed = false;
            for (int i = 0; i < n; i++) {
                double d0 = sq(x[i] - cx[0]) + sq(y[i] - cy[0]);
                double d1 = sq(x[i] - cx[1]) + sq(y[i] - cy[1]);
                int c = d1 < d0 ? 1 : 0;
                if (cluster[i] != c) {
                    cluster[i] = c;
                    changed = true;
                }
            }
            double[] sx = new double[2];
            double[] sy = new double[2];
            int[] count = new int[2];
            for (int i = 0; i < n; i++) {
                sx[cluster[i]] += x[i];
                sy[cluster[i]] += y[i];
                count[cluster[i]]++;
            }
            for (int c = 0; c < 2; c++) {
                if (count[c] > 0) {
                    cx[c] = sx[c] / count[c];
                    cy[c] = sy[c] / count[c];
                }
            }
        }
        double lead = (cx[1] - cx[0]) + (cy[1] - cy[0]);
        int hot = lead > 0 ? 1 : lead < 0 ? 0 : -1;
        return new Clustering(cluster, cx, cy, hot, iterations);
    }

    private static double sq(double v) {
        return v * v;
    }
}
