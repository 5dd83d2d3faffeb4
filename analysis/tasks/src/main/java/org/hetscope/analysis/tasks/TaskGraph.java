package org.hetscope.analysis.tasks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.store.Store;

/** The executed tasks of a store and the dependency edges between them. */
public final class TaskGraph {
    /** An executed task. */
    public record Node(long id, long jobId, String name, Long workerTrackId, String worker, long start, long end) {
        public long dur() {
            return end - start;
        }
    }

    public final Map<Long, Node> tasks = new LinkedHashMap<>();
    /** Task id to the ids of the tasks that depend on it. */
    public final Map<Long, List<Long>> successors = new HashMap<>();
    public int edges;
    private long makespan;

    public static TaskGraph load(Store store) {
        TaskGraph g = new TaskGraph();
        for (Object[] r : store.query("SELECT t.id, t.job_id, t.name, t.worker_track_id, k.name, t.start_ts, "
                + "t.end_ts FROM task t LEFT JOIN track k ON k.id = t.worker_track_id ORDER BY t.start_ts, t.id")
                .rows()) {
            g.tasks.put((Long) r[0], new Node((Long) r[0], (Long) r[1], (String) r[2], (Long) r[3], (String) r[4],
                    (Long) r[5], (Long) r[6]));
        }
        for (Object[] r : store.query("SELECT from_task_id, to_task_id FROM task_dependency").rows()) {
            if (g.tasks.containsKey((Long) r[0]) && g.tasks.containsKey((Long) r[1])) {
                g.successors.computeIfAbsent((Long) r[0], k -> new ArrayList<>()).add((Long) r[1]);
                g.edges++;
            }
        }
        Long run = store.scalarLong("SELECT dur_ns FROM hs_activity_bounds");
        g.makespan = run == null ? 0 : run;
        return g;
    }

    /**
     * The run the critical path is weighed against: the library's {@code hs_activity_bounds} (first start to last
     * end of device activity; for a StarPU run the first task start to the last task end), read by {@link #load};
     * 0 for a graph built in memory or a store without device activity.
     */
    public long makespan() {
        return makespan;
    }
}
