package org.hetscope.capture.kernels.instrument;

import java.util.List;

/**
 * An instrumented kernel: its source, with {@code __global ulong *hs_counters} as argument 0 (user arguments
 * move up by one), and the meaning of each counter slot. In {@link Mode#SLAB} the buffer holds
 * {@code counters.size()} values per work-item (linear global id major) instead of one total per counter.
 */
public record CounterPlan(String kernel, String source, List<CounterSite> counters, Mode mode, KernelScope scope) {
    /** How work-items publish their private counts at exit. */
    public enum Mode {
        /** One 64-bit atomic add per non-zero counter (needs cl_khr_int64_base_atomics). */
        ATOMIC,
        /** Each work-item writes its own slice; totals, minimum and maximum are computed on the host. */
        SLAB
    }
}
