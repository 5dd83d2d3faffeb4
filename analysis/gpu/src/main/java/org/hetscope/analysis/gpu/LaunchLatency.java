package org.hetscope.analysis.gpu;

import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * Launch latency along API-to-GPU flows: GPU activity start minus the start of the API call that launched it,
 * per launching API function and activity category, with the flow rule so that guessed links stay visible.
 */
public final class LaunchLatency {
    private final Store store;

    public LaunchLatency(Store store) {
        this.store = store;
    }

    public Table table() {
        return store.query("launch latency", """
                SELECT a.name AS api_function, g.category AS activity, f.rule AS rule, count(*) AS count,
                       min(g.ts - a.ts) AS min_ns, avg(g.ts - a.ts) AS mean_ns,
                       quantile_cont(g.ts - a.ts, 0.5) AS p50_ns, quantile_cont(g.ts - a.ts, 0.95) AS p95_ns,
                       max(g.ts - a.ts) AS max_ns
                FROM flow f JOIN slice a ON a.id = f.from_slice_id JOIN slice g ON g.id = f.to_slice_id
                WHERE f.kind = 'launch'
                GROUP BY ALL ORDER BY count DESC, api_function, activity""");
    }

    /** One row per flow: the API call, the activity, and the latency; for drill-down and tests. */
    public Table perFlow() {
        return store.query("launch latency per flow", """
                SELECT f.correlation_id, a.id AS api_slice_id, a.name AS api_function, g.id AS activity_slice_id,
                       g.name AS activity, g.ts - a.ts AS latency_ns
                FROM flow f JOIN slice a ON a.id = f.from_slice_id JOIN slice g ON g.id = f.to_slice_id
                WHERE f.kind = 'launch' ORDER BY a.ts, g.ts""");
    }
}
