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

    /**
     * Upper bucket edges of {@link #histogram}, in ns: 1, 2, 5 times each power of ten from 1 µs to 500 s, so that a
     * latency spread over decades keeps readable buckets.
     */
    public static long[] bucketEdges() {
        long[] edges = new long[3 * 9];
        long decade = 1_000;
        for (int i = 0; i < edges.length; i += 3) {
            edges[i] = decade;
            edges[i + 1] = 2 * decade;
            edges[i + 2] = 5 * decade;
            decade *= 10;
        }
        return edges;
    }

    /**
     * Launch latencies of all flows counted in buckets [lo_ns, hi_ns): below 0 (the activity started before its
     * call: clocks disagree), [0, 1 µs), then the {@link #bucketEdges} up to 500 s and above. Only buckets from the
     * first to the last that holds a flow are listed (empty ones between them included).
     */
    public Table histogram() {
        long[] edges = bucketEdges();
        StringBuilder values = new StringBuilder("(NULL::BIGINT, 0::BIGINT), (0, " + edges[0] + ")");
        for (int i = 0; i + 1 < edges.length; i++) {
            values.append(", (").append(edges[i]).append(", ").append(edges[i + 1]).append(')');
        }
        values.append(", (").append(edges[edges.length - 1]).append(", NULL)");
        return store.query("launch latency histogram", """
                WITH b(lo_ns, hi_ns) AS (VALUES %s),
                counted AS (
                  SELECT b.lo_ns, b.hi_ns, count(l.latency_ns) AS flows
                  FROM b LEFT JOIN hs_launch_latency l
                    ON (b.lo_ns IS NULL OR l.latency_ns >= b.lo_ns) AND (b.hi_ns IS NULL OR l.latency_ns < b.hi_ns)
                  GROUP BY b.lo_ns, b.hi_ns),
                used AS (SELECT min(coalesce(lo_ns, -1)) AS first, max(coalesce(lo_ns, -1)) AS last
                         FROM counted WHERE flows > 0)
                SELECT lo_ns, hi_ns, flows FROM counted, used
                WHERE coalesce(lo_ns, -1) BETWEEN used.first AND used.last
                ORDER BY coalesce(lo_ns, -1)""".formatted(values));
    }

    /** One row per flow: the API call, the activity, and the latency; for drill-down and tests. */
    public Table perFlow() {
        return store.query("launch latency per flow", """
                SELECT correlation_id, api_slice_id, api_function, activity_slice_id, activity, latency_ns
                FROM hs_launch_latency ORDER BY api_ts, activity_ts, activity_slice_id""");
    }
}
