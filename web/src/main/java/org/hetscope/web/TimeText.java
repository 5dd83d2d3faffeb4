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

    /**
     * The header people read over a column whose cells show units, as the CLI's tables name it (docs/cli.md):
     * {@code total_ns} is "total" (the cells say ms, µs, ...), {@code busy_pct} is "busy %"; a name that would then
     * read like another of {@code columns} ({@code top_thread_ns} beside {@code top_thread}) stays whole.
     */
    public static String header(String column, java.util.List<String> columns) {
        String label = label(column);
        if (label.equals(column)) {
            return column;
        }
        for (String other : columns) {
            if (!other.equals(column) && (other.equals(label) || label(other).equals(label))) {
                return column;
            }
        }
        return label;
    }

    private static String label(String c) {
        return c.endsWith("_ns") ? c.substring(0, c.length() - 3)
                : c.endsWith("_pct") ? c.substring(0, c.length() - 4) + " %" : c;
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
