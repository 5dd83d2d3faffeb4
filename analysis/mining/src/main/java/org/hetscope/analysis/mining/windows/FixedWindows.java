package org.hetscope.analysis.mining.windows;

/**
 * Fixed windows of length delta from an origin (spec section 2): window i holds origin + i delta <= t <
 * origin + (i+1) delta, and the last window also holds t = tMax, so N_w = ceil((tMax - origin) / delta) (at least 1).
 * The thesis counts from 0; hetscope's commands start at the first event unless told otherwise.
 */
public record FixedWindows(long origin, long delta, long tMax) {
    public FixedWindows {
        if (delta <= 0) {
            throw new IllegalArgumentException("window length must be positive");
        }
        if (tMax < origin) {
            throw new IllegalArgumentException("trace ends before the window origin");
        }
        if (Math.ceilDiv(tMax - origin, delta) > MAX_WINDOWS) {
            throw new IllegalArgumentException("a window of " + delta + " gives more than " + MAX_WINDOWS
                    + " windows over " + (tMax - origin) + " time units: choose a longer window");
        }
    }

    /** More windows than this would not fit in memory as transactions; a longer window is asked for instead. */
    public static final long MAX_WINDOWS = 50_000_000L;

    public int count() {
        long span = tMax - origin;
        return (int) Math.max(1, Math.ceilDiv(span, delta));
    }

    /** The window of time {@code t}, or -1 when t is outside [origin, tMax]. */
    public int index(long t) {
        if (t < origin || t > tMax) {
            return -1;
        }
        return (int) Math.min((t - origin) / delta, count() - 1);
    }

    public long start(int i) {
        return origin + i * delta;
    }

    public long end(int i) {
        return Math.min(origin + (i + 1) * delta, tMax);
    }
}
