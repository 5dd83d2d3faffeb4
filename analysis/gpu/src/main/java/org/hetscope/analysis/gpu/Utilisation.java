package org.hetscope.analysis.gpu;

import java.util.HashMap;
import java.util.Map;
import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * Utilisation per device and per unit (stream, queue or worker) over a window: busy and idle time, the split
 * between compute (kernels, task executions) and memory operations, their overlap, idle gaps and concurrency.
 * Read from the standard library ({@code hs_utilisation}, {@code hs_concurrency}; docs/stdlib.md); the window
 * defaults to {@code hs_utilisation_window}, the span of device activity.
 */
public final class Utilisation {
    /** The figures of every utilisation row, in the order tables show them. */
    static final String FIGURES = "window_ns, busy_ns, busy_pct, compute_ns, copy_ns, overlap_ns, idle_ns, idle_pct, "
            + "idle_gaps, longest_idle_ns, mean_concurrency, max_concurrency";

    private final Store store;

    public Utilisation(Store store) {
        this.store = store;
    }

    /** Each device's label as the utilisation tables show it ("NVIDIA A100-SXM4-80GB #0"), by device id. */
    public static Map<Long, String> deviceLabels(Store store) {
        Map<Long, String> labels = new HashMap<>();
        for (Object[] r : store.query(null, "SELECT device_id, device FROM hs_device").rows()) {
            labels.put((Long) r[0], (String) r[1]);
        }
        return labels;
    }

    /** The default window [start, end): from the first to the last device activity (else the trace's bounds). */
    public long[] defaultWindow() {
        Table t = store.query(null, "SELECT start_ns, end_ns FROM hs_utilisation_window");
        Object a = t.rows().get(0)[0];
        Object b = t.rows().get(0)[1];
        return a == null ? new long[] {0, 0} : new long[] {(Long) a, (Long) b};
    }

    /** One row per device, or with {@code perUnit} one per stream, queue or worker, over [w0, w1). */
    public Table table(long w0, long w1, boolean perUnit) {
        return perUnit
                ? store.query("utilisation per stream and worker", "SELECT device, level AS kind, unit, " + FIGURES
                        + " FROM hs_utilisation(" + w0 + ", " + w1 + ") WHERE level <> 'device'")
                : store.query("utilisation per device", "SELECT device, " + FIGURES
                        + " FROM hs_utilisation(" + w0 + ", " + w1 + ") WHERE level = 'device'");
    }

    /** Devices and units in one table (column {@code level}: device, stream, queue, worker), over [w0, w1). */
    public Table all(long w0, long w1) {
        return store.query("utilisation", "SELECT level, device, unit, " + FIGURES
                + " FROM hs_utilisation(" + w0 + ", " + w1 + ")");
    }

    /** Time during which exactly k kernels or tasks run, per device and unit, over [w0, w1). */
    public Table concurrency(long w0, long w1) {
        return store.query("concurrency", "SELECT level, device, unit, concurrency, dur_ns, dur_pct"
                + " FROM hs_concurrency(" + w0 + ", " + w1 + ")");
    }
}
