package org.hetscope.capture.kernels.run;

import java.util.List;
import org.hetscope.capture.kernels.instrument.TracePlan;

/**
 * Traces of one launch: per producer (work-item, linear global id) its raw records and, where it could be
 * rebuilt, its block path. {@code valid} is false when the two-phase check found producers whose recording
 * pass differed from the counting pass ({@code nondeterministic}) or a canary was overwritten.
 *
 * @param kernelNanos device time of the tracing kernel(s): counting + recording pass for two-phase
 * @param recordNanos device time of the recording (or only) pass
 * @param hostNanos host time between the passes (scan, allocation, restore); 0 for single-pass strategies
 * @param bytes device memory used for the trace (records plus count/offset tables or headers)
 * @param recordStart device time (profiling clock, ns) at which the recording (or only) pass started
 * @param canariesIntact two-phase with canaries: no guard word after a slice was overwritten (true otherwise)
 * @param failures producers whose path could not be rebuilt, with the reason
 */
public record TraceResult(TracePlan plan, TraceOptions options, NdRange range, int[][] records, int[][] paths,
                          long totalRecords, long lost, boolean valid, List<Long> nondeterministic,
                          List<String> failures, long kernelNanos, long recordNanos, long hostNanos, long bytes,
                          long countNanos, boolean canariesIntact, long recordStart) {
    public int producers() {
        return records.length;
    }
}
