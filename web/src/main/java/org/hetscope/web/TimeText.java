package org.hetscope.web;

/** Exact time text for reports and plots, matching the page: integer nanoseconds written in a fitting unit. */
public final class TimeText {
    private static final long[] SCALES = {1_000_000_000L, 1_000_000L, 1_000L, 1L};
    private static final String[] UNITS = {"s", "ms", "µs", "ns"};

    private TimeText() {
    }

    /** e.g. 1500 -> "1.5 µs", 2000000 -> "2 ms"; no rounding. */
    public static String duration(long ns) {
        String sign = ns < 0 ? "-" : "";
        long v = Math.abs(ns);
        for (int i = 0; i < SCALES.length; i++) {
            long s = SCALES[i];
            if (v >= s || s == 1) {
                long whole = v / s;
                long frac = v % s;
                if (frac == 0) {
                    return sign + whole + " " + UNITS[i];
                }
                String digits = String.format("%0" + (Long.toString(s).length() - 1) + "d", frac)
                        .replaceAll("0+$", "");
                return sign + whole + "." + digits + " " + UNITS[i];
            }
        }
        return ns + " ns";
    }

    /** The smallest 1-2-5 step that gives at most {@code ticks} ticks over {@code span}. */
    public static long tickStep(long span, int ticks) {
        double raw = Math.max(1, (double) span / Math.max(1, ticks));
        long p = 1;
        while (p <= Long.MAX_VALUE / 10 && p * 10 <= raw) {
            p *= 10;
        }
        for (long m : new long[] {1, 2, 5, 10}) {
            if (p * m >= raw) {
                return p * m;
            }
        }
        return p * 10;
    }
}
