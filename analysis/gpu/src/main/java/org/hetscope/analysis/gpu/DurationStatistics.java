package org.hetscope.analysis.gpu;

import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * Duration statistics per kernel name, per API function and per memory-operation kind: count, total, min, max,
 * mean, population standard deviation, median and 95th percentile (linear interpolation between order
 * statistics, R type 7), and each row's share of the group's total time. Durations are integer nanoseconds.
 */
public final class DurationStatistics {
    private static final String AGGREGATES = """
            count(*) AS count, sum(dur) AS total_ns, min(dur) AS min_ns, max(dur) AS max_ns,
            avg(dur) AS mean_ns, stddev_pop(dur) AS stddev_ns,
            quantile_cont(dur, 0.5) AS p50_ns, quantile_cont(dur, 0.95) AS p95_ns,
            sum(dur) * 100.0 / sum(sum(dur)) OVER () AS share_pct""";

    private final Store store;

    public DurationStatistics(Store store) {
        this.store = store;
    }

    /** One row per kernel name, longest total first. */
    public Table kernels() {
        return store.query("kernels", "SELECT name AS kernel, " + AGGREGATES
                + " FROM slice WHERE category = 'kernel' GROUP BY name ORDER BY total_ns DESC, kernel");
    }

    /** One row per API function, with the API family (the track it was recorded on). */
    public Table apiCalls() {
        return store.query("api", "SELECT t.name AS api, s.name AS function, "
                + AGGREGATES.replace("dur", "s.dur")
                + " FROM slice s JOIN track t ON t.id = s.track_id WHERE s.category = 'api'"
                + " GROUP BY t.name, s.name ORDER BY total_ns DESC, api, function");
    }

    /** One row per memory-operation kind (HtoD, DtoH, ..., memset), with bytes moved and bandwidth. */
    public Table memoryOperations() {
        return store.query("memory", "SELECT x.kind AS kind, " + AGGREGATES.replace("dur", "s.dur")
                + ", sum(x.bytes) AS bytes, sum(x.bytes) / nullif(sum(s.dur), 0) AS gb_per_s"
                + " FROM transfer x JOIN slice s ON s.id = x.slice_id GROUP BY x.kind ORDER BY total_ns DESC, kind");
    }
}
