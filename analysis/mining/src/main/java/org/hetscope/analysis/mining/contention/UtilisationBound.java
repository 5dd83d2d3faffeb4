package org.hetscope.analysis.mining.contention;

/**
 * Liu-Layland utilisation bounds (spec section 4): n (2^(1/n) - 1) for n CPUs, tending to ln 2 = 0.693147.
 * A window is contended when its utilisation exceeds the bound.
 */
public final class UtilisationBound {
    public static final double LN2 = Math.log(2);

    private UtilisationBound() {}

    public static double liuLayland(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("the bound needs at least one CPU");
        }
        return n * (Math.pow(2, 1.0 / n) - 1);
    }
}
