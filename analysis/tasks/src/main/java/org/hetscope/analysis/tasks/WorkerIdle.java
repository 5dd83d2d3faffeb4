package org.hetscope.analysis.tasks;

import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * Per worker: how many tasks it ran, the time it was busy and its idle share of the run. These are the standard
 * library's utilisation figures of each worker ({@code hs_device_utilisation}, docs/stdlib.md): busy is the union
 * of its task executions, the run is the library's default window (first to last device activity, for a StarPU
 * run the first task start to the last task end), so {@code tasks}, {@code memory detect} and {@code gpu} agree.
 */
public final class WorkerIdle {
    private WorkerIdle() {}

    public static Table of(Store store) {
        Table rows = store.query(null, """
                SELECT u.unit, coalesce(a.tasks, 0), u.busy_ns, u.idle_ns, u.idle_pct, u.window_ns
                FROM hs_device_utilisation u
                LEFT JOIN (SELECT unit_track_id, count(*) FILTER (WHERE class = 'compute') AS tasks
                           FROM hs_device_activity GROUP BY unit_track_id) a ON a.unit_track_id = u.unit_track_id
                WHERE u.level = 'worker'
                ORDER BY u.unit, u.unit_track_id""");
        long span = rows.rows().isEmpty() ? 0 : (Long) rows.rows().get(0)[5];
        Table.Builder t = Table.builder("Idle time per worker over the run of " + span + " ns", "worker", "tasks",
                "busy_ns", "idle_ns", "idle_percent");
        for (Object[] r : rows.rows()) {
            t.row(r[0], r[1], r[2], r[3], r[4]);
        }
        return t.build();
    }
}
