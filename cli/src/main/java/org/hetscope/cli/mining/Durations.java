package org.hetscope.cli.mining;

import org.hetscope.cli.TraceTime;

/**
 * Parses window lengths: a bare integer (trace units: ns for stores, cycles for access traces) or a number with a
 * unit as every command reads durations ({@link TraceTime#parseDuration}: ns, us or µs, ms, s).
 */
final class Durations {
    private Durations() {}

    static long parse(String text) {
        long v = TraceTime.parseDuration(text);
        if (v <= 0) {
            throw new IllegalArgumentException("a window length must be positive: " + text);
        }
        return v;
    }
}
