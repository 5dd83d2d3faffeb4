package org.hetscope.analysis.gpu;

import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * Launch latency along API-to-GPU flows, read from the standard library ({@code hs_launch_latency},
 * {@code hs_launch_latency_stats}; docs/stdlib.md): GPU activity start minus the start of the API call that
 * launched it, per launching API function, activity category and flow rule, so that guessed links stay visible.
 */
public final class LaunchLatency {
    private final Store store;

    public LaunchLatency(Store store) {
        this.store = store;
    }

    public Table table() {
        return store.query("launch latency", """
                SELECT api_function, activity_category AS activity, rule, count, min_ns, max_ns, mean_ns,
                       stddev_ns, p50_ns, p95_ns
                FROM hs_launch_latency_stats ORDER BY count DESC, api_function, activity, rule""");
    }

    /** One row per flow: the API call, the activity, and the latency; for drill-down and tests. */
    public Table perFlow() {
        return store.query("launch latency per flow", """
                SELECT correlation_id, api_slice_id, api_function, activity_slice_id, activity, latency_ns
                FROM hs_launch_latency ORDER BY api_ts, activity_ts, activity_slice_id""");
    }
}
