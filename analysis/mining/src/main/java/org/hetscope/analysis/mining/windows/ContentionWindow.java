package org.hetscope.analysis.mining.windows;

/**
 * A window of width omega centred on a high-latency seed event: events {@code [first, last)} of the time-sorted
 * stream, all with {@code from <= t <= to}.
 */
public record ContentionWindow(int seed, long from, long to, int first, int last) {
    public int events() {
        return last - first;
    }
}
