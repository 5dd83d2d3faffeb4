package org.hetscope.cli;

import java.util.Locale;

/**
 * Numbers for people (docs/cli.md, "Numbers in tables"): durations in the largest unit that keeps them at least 1
 * (ns, µs, ms, s) with four significant digits, byte counts in binary units, percentages with one decimal. The
 * machine outputs (--csv, --json) never go through here.
 */
public final class Units {
    private Units() {}

    /**
     * A duration of {@code ns} nanoseconds: {@code 24.59 s}, {@code 436.8 µs}, {@code 12 ns}; with {@code micro}
     * false, {@code us} replaces {@code µs} (for outputs that cannot encode it).
     */
    public static String duration(double ns, boolean micro) {
        if (!Double.isFinite(ns)) {
            return Double.toString(ns);
        }
        String sign = ns < 0 ? "-" : "";
        double a = Math.abs(ns);
        if (a < 1000) {
            // below a microsecond the trace's resolution is the nanosecond: whole numbers unless a mean made a fraction
            return sign + (a == Math.rint(a) ? Long.toString((long) a) : significant(a)) + " ns";
        }
        String[] units = {micro ? "\u00b5s" : "us", "ms", "s"};
        double v = a / 1000;
        int u = 0;
        while (u < units.length - 1 && round4(v) >= 1000) {
            v /= 1000;
            u++;
        }
        return sign + significant(v) + " " + units[u];
    }

    /**
     * A time from the trace start, exact to the nanosecond, in the largest unit it reaches, its fraction cut after the
     * last non-zero group of three digits: {@code 81.105686 ms}, {@code 24.587247 s}, {@code 3 s}. Two events 35 µs
     * apart must not read as the same time, as they would with four significant digits.
     */
    public static String time(long ns, boolean micro) {
        String sign = ns < 0 ? "-" : "";
        long a = Math.abs(ns);
        if (a < 1000) {
            return sign + a + " ns";
        }
        String[] units = {micro ? "\u00b5s" : "us", "ms", "s"};
        int u = a < 1_000_000 ? 0 : a < 1_000_000_000 ? 1 : 2;
        long scale = u == 0 ? 1000 : u == 1 ? 1_000_000 : 1_000_000_000;
        String fraction = String.format(Locale.ROOT, "%0" + (3 * (u + 1)) + "d", a % scale);
        while (fraction.endsWith("000")) {
            fraction = fraction.substring(0, fraction.length() - 3);
        }
        return sign + (a / scale) + (fraction.isEmpty() ? "" : "." + fraction) + " " + units[u];
    }

    /** Bytes in B, KiB, MiB, GiB, TiB with four significant digits (whole bytes below 1 KiB). */
    public static String bytes(double b) {
        if (!Double.isFinite(b)) {
            return Double.toString(b);
        }
        String sign = b < 0 ? "-" : "";
        double a = Math.abs(b);
        if (a < 1024) {
            return sign + (a == Math.rint(a) ? Long.toString((long) a) : significant(a)) + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double v = a / 1024;
        int u = 0;
        while (u < units.length - 1 && round4(v) >= 1024) {
            v /= 1024;
            u++;
        }
        return sign + significant(v) + " " + units[u];
    }

    /** A percentage with one decimal: {@code 62.0 %}. */
    public static String percent(double p) {
        return Double.isFinite(p) ? String.format(Locale.ROOT, "%.1f %%", p) : Double.toString(p);
    }

    /** Four significant digits, more when the integer part is longer (12345 stays 12345). */
    static String significant(double v) {
        double r = round4(v);
        int decimals = r >= 1000 ? 0 : r >= 100 ? 1 : r >= 10 ? 2 : 3;
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /** {@code v} rounded to four significant digits, to pick the unit after rounding (999.96 µs is 1.000 ms). */
    private static double round4(double v) {
        if (v == 0) {
            return 0;
        }
        int digits = (int) Math.floor(Math.log10(v)) + 1;
        double scale = Math.pow(10, 4 - digits);
        return Math.round(v * scale) / scale;
    }
}
