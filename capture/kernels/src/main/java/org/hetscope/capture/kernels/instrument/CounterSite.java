package org.hetscope.capture.kernels.instrument;

import org.hetscope.capture.kernels.lang.SourcePos;

/**
 * One slot of the counter buffer. {@code memory} is set for memory and FLOP counters (reported at the kernel
 * signature); control counters have {@code construct} (while, for, do, if, else, case, function) and count visits.
 */
public record CounterSite(int index, CounterKind memory, String construct, SourcePos pos) {
    public boolean control() {
        return memory == null;
    }

    /** {@code global_memory loads}, {@code floating-point operations} or {@code visits}. */
    public String label() {
        return memory == null ? "visits" : memory.label();
    }

    public String kind() {
        return memory == null ? "visits" : memory == CounterKind.FLOP ? "flop" : memory.what.replaceAll("s$", "");
    }

    public String space() {
        return memory == null || memory.space == null ? null : memory.space.label();
    }
}
