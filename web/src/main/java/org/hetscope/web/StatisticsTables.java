package org.hetscope.web;

import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * The statistics the timeline, the report and the plots show: per kernel name, per API call name, per memory
 * transfer kind, and the utilisation of each device and stream (union of busy intervals over the trace span).
 */
public final class StatisticsTables {
    private StatisticsTables() {
    }

    /** Per-name duration statistics of the slices of one category, longest total first. */
    public static Table byName(Store store, String title, String category) {
        return store.query(title, """
                SELECT name, count(*) AS count, sum(dur) AS total_ns, avg(dur) AS mean_ns, min(dur) AS min_ns,
                       median(dur) AS median_ns, max(dur) AS max_ns,
                       100.0 * sum(dur) / sum(sum(dur)) OVER () AS percent
                FROM slice WHERE category = ? GROUP BY name ORDER BY total_ns DESC, name""", category);
    }

    public static Table kernels(Store store) {
        return byName(store, "Kernels", "kernel");
    }

    public static Table apiCalls(Store store) {
        return byName(store, "API calls", "api");
    }

    /** Per transfer kind (HtoD, DtoH, ...): count, bytes, time and achieved bandwidth. */
    public static Table memcpy(Store store) {
        return store.query("Memory transfers", """
                SELECT kind, count(*) AS count, sum(bytes) AS bytes, sum(dur) AS total_ns, avg(dur) AS mean_ns,
                       CASE WHEN sum(dur) > 0 THEN sum(bytes) / sum(dur) END AS gb_per_s
                FROM transfer GROUP BY kind ORDER BY total_ns DESC, kind""");
    }

    /**
     * Busy time of each device track and each stream/queue: the union of its kernel, copy and fill intervals,
     * divided by the trace span. Overlapping intervals (concurrent streams) count once on the device.
     */
    public static Table utilisation(Store store) {
        return store.query("Utilisation", """
                WITH span AS (SELECT min(ts) t0, max(ts + dur) t1 FROM slice),
                work AS (
                  SELECT t.id AS track_id, coalesce(t.device_id, -1) AS device_id, s.ts, s.ts + s.dur AS e
                  FROM slice s JOIN track t ON t.id = s.track_id
                  WHERE s.category IN ('kernel', 'memcpy', 'memset')),
                keyed AS (
                  SELECT 'device' AS level, device_id AS key, ts, e FROM work
                  UNION ALL SELECT 'stream', track_id, ts, e FROM work),
                ordered AS (
                  SELECT level, key, ts, e,
                         max(e) OVER (PARTITION BY level, key ORDER BY ts, e
                                      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reach
                  FROM keyed),
                busy AS (
                  SELECT level, key, count(*) AS activities,
                         sum(greatest(0, e - greatest(ts, coalesce(reach, ts)))) AS busy_ns
                  FROM ordered GROUP BY level, key)
                SELECT b.level,
                       CASE WHEN b.level = 'device'
                            THEN coalesce((SELECT coalesce(d.name, d.kind || ' ' || d.ordinal) FROM device d
                                           WHERE d.id = b.key), 'no device')
                            ELSE (SELECT coalesce(p.name || ' / ', '') || t.name FROM track t
                                  LEFT JOIN track p ON p.id = t.parent_id WHERE t.id = b.key) END AS name,
                       b.activities, b.busy_ns, (SELECT t1 - t0 FROM span) AS span_ns,
                       100.0 * b.busy_ns / nullif((SELECT t1 - t0 FROM span), 0) AS percent
                FROM busy b ORDER BY b.level, name""");
    }
}
