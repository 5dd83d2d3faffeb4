package org.hetscope.analysis.gpu;

import java.util.List;
import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * What a store holds, for {@code hetscope info}: sources, time span (the standard library's
 * {@code hs_trace_bounds}, so a trace of instants only has one too), devices, tracks by kind, event counts by kind
 * and category, and what readers kept only generically or skipped.
 */
public final class TraceOverview {
    private final Store store;

    public TraceOverview(Store store) {
        this.store = store;
    }

    public List<Table> tables() {
        Table sources = sources();
        return sources == null ? List.of(summary(), devices(), tracks(), events(), skipped())
                : List.of(summary(), sources, devices(), tracks(), events(), skipped());
    }

    /**
     * The traces read into the store, each with the adjustment that put its clock on the store's timeline, how it
     * was found, and what its reader skipped; null for stores written before the {@code source} table existed.
     */
    public Table sources() {
        Long has = store.scalarLong("SELECT count(*) FROM information_schema.tables WHERE table_name = 'source'");
        if (has == null || has == 0) {
            return null;
        }
        return store.query("sources", """
                SELECT s.id AS source, s.path, s.format, s.clock_adjust_ns, s.clock_drift * 1e6 AS clock_drift_ppm,
                       s.clock_method, s.clock_residual_ns, s.clock_matches,
                       (SELECT coalesce(sum(k.count), 0) FROM source_skipped k WHERE k.source_id = s.id) AS skipped,
                       s.clock_domain, s.clock_detail
                FROM source s ORDER BY s.id""");
    }

    public Table summary() {
        return store.query("trace", """
                SELECT 'sources' AS item, string_agg(value, ', ') AS value FROM trace_info WHERE key LIKE 'source.%.path'
                UNION ALL SELECT 'formats', string_agg(DISTINCT value, ', ') FROM trace_info WHERE key LIKE 'source.%.format'
                UNION ALL SELECT 'first_ns', CAST(start_ns AS VARCHAR) FROM hs_trace_bounds
                UNION ALL SELECT 'last_ns', CAST(end_ns AS VARCHAR) FROM hs_trace_bounds
                UNION ALL SELECT 'span_ns', CAST(dur_ns AS VARCHAR) FROM hs_trace_bounds
                UNION ALL SELECT 'serialized_by_profiler', coalesce(max(value), 'false') FROM trace_info
                          WHERE key = 'serialized_by_profiler'
                UNION ALL SELECT 'skipped_total', CAST(coalesce(sum(count), 0) AS VARCHAR) FROM skipped""");
    }

    public Table devices() {
        return store.query("devices", """
                SELECT ordinal, kind, vendor, name, compute_units, memory_bytes, warp_size,
                       peak_flops AS peak_flops_per_s, peak_bandwidth AS peak_bandwidth_bytes_per_s, clock_mhz
                FROM device ORDER BY ordinal, id""");
    }

    public Table tracks() {
        return store.query("tracks", "SELECT kind, count(*) AS tracks FROM track GROUP BY kind ORDER BY tracks DESC");
    }

    public Table events() {
        return store.query("events", """
                SELECT 'slice' AS record, category, count(*) AS count FROM slice GROUP BY category
                UNION ALL SELECT 'instant', category, count(*) FROM instant GROUP BY category
                UNION ALL SELECT 'counter sample', NULL, count(*) FROM counter HAVING count(*) > 0
                UNION ALL SELECT 'flow', kind || ' (' || rule || ')', count(*) FROM flow GROUP BY kind, rule
                UNION ALL SELECT 'transfer', kind, count(*) FROM transfer GROUP BY kind
                UNION ALL SELECT 'kernel counter', NULL, count(*) FROM kernel_counter HAVING count(*) > 0
                UNION ALL SELECT 'task', NULL, count(*) FROM task HAVING count(*) > 0
                UNION ALL SELECT 'residency', NULL, count(*) FROM residency HAVING count(*) > 0
                ORDER BY record, count DESC""");
    }

    public Table skipped() {
        return store.query("kept generically or skipped",
                "SELECT reason, severity, detail, count, location FROM " + org.hetscope.store.Schema.skipped(store)
                        + " ORDER BY count DESC, reason, detail");
    }
}
