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
    public static final String TITLE = "Idle time per worker over the run";

    private WorkerIdle() {}

    public static Table of(Store store) {
        Table rows = store.query(null, """
                SELECT u.unit, coalesce(a.tasks, 0), u.busy_ns, u.idle_ns, u.idle_pct, u.window_ns
                FROM hs_device_utilisation u
                LEFT JOIN (SELECT unit_track_id, count(*) FILTER (WHERE class = 'compute') AS tasks
                           FROM hs_device_activity GROUP BY unit_track_id) a ON a.unit_track_id = u.unit_track_id
                WHERE u.level = 'worker'
                ORDER BY u.unit, u.unit_track_id""");
        // A fixed title: it is the table's key in --json; the run's length is a column (it was in the title).
        Table.Builder t = Table.builder(TITLE, "worker", "tasks", "busy_ns", "idle_ns", "idle_percent", "run_ns");
        for (Object[] r : rows.rows()) {
            t.row(r[0], r[1], r[2], r[3], r[4], r[5]);
        }
        return t.build();
    }
}
