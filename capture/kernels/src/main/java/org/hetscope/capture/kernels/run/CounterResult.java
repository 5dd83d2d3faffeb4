package org.hetscope.capture.kernels.run;

import org.hetscope.capture.kernels.instrument.CounterPlan;

/**
 * Counters of one launch. {@code plan} is null when the kernel could not be instrumented and ran
 * uninstrumented ({@code warning} says why). In slab mode {@code perItem} holds each work-item's values
 * ({@code items} rows of {@code totals.length}), and min/max are over work-items with the first work-item
 * (linear global id) reaching them.
 */
public record CounterResult(CounterPlan plan, NdRange range, long[] totals, long[] perItem, long[] min, long[] max,
                            long[] minItem, long[] maxItem, OpenClSession.Timing timing, String warning) {
    public boolean instrumented() {
        return plan != null;
    }

    public long total(int index) {
        return totals[index];
    }
}
