package org.hetscope.analysis.tasks;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.store.Table;

/**
 * The critical path of the task graph: the chain of dependent tasks with the largest total duration, which bounds
 * the run from below whatever the scheduler does. Compared with the makespan it tells how much of the run the
 * scheduler and the data movements added.
 */
public final class CriticalPath {
    /** The path (task ids in order) and its length in ns. */
    public record Result(List<Long> path, long length) {}

    private CriticalPath() {}

    public static Result of(TaskGraph g) {
        Map<Long, Integer> indegree = new HashMap<>();
        g.tasks.keySet().forEach(t -> indegree.put(t, 0));
        g.successors.values().forEach(ss -> ss.forEach(s -> indegree.merge(s, 1, Integer::sum)));
        ArrayDeque<Long> ready = new ArrayDeque<>();
        indegree.forEach((t, d) -> {
            if (d == 0) {
                ready.add(t);
            }
        });
        Map<Long, Long> best = new HashMap<>();
        Map<Long, Long> from = new HashMap<>();
        int visited = 0;
        while (!ready.isEmpty()) {
            long t = ready.poll();
            visited++;
            long here = best.getOrDefault(t, 0L) + g.tasks.get(t).dur();
            best.put(t, here - g.tasks.get(t).dur());
            for (long s : g.successors.getOrDefault(t, List.of())) {
                if (!best.containsKey(s) || here > best.get(s)) {
                    best.put(s, here);
                    from.put(s, t);
                }
                if (indegree.merge(s, -1, Integer::sum) == 0) {
                    ready.add(s);
                }
            }
        }
        if (visited != g.tasks.size()) {
            throw new IllegalStateException("the task graph has a cycle: " + (g.tasks.size() - visited)
                    + " tasks never become ready");
        }
        Long end = null;
        long length = -1;
        for (var e : best.entrySet()) {
            long total = e.getValue() + g.tasks.get(e.getKey()).dur();
            if (total > length || (total == length && e.getKey() < end)) {
                length = total;
                end = e.getKey();
            }
        }
        List<Long> path = new ArrayList<>();
        for (Long t = end; t != null; t = from.get(t)) {
            path.add(t);
        }
        Collections.reverse(path);
        return new Result(path, Math.max(length, 0));
    }

    /** The tasks of the critical path, in order, with their durations and the running total. */
    public static Table table(TaskGraph g) {
        Result r = of(g);
        Table.Builder t = Table.builder("Critical path", "step", "job_id", "name", "worker", "start_ts", "end_ts",
                "dur_ns", "cumulative_ns");
        long sum = 0;
        int i = 0;
        for (long id : r.path()) {
            TaskGraph.Node n = g.tasks.get(id);
            sum += n.dur();
            t.row((long) ++i, n.jobId(), n.name(), n.worker(), n.start(), n.end(), n.dur(), sum);
        }
        return t.build();
    }

    /** Path length against the makespan. */
    public static Table summary(TaskGraph g) {
        Result r = of(g);
        long makespan = g.makespan();
        return Table.builder("Critical path vs makespan", "tasks", "edges", "path_tasks", "path_ns",
                        "makespan_ns", "path_percent_of_makespan")
                .row((long) g.tasks.size(), (long) g.edges, (long) r.path().size(), r.length(), makespan,
                        makespan == 0 ? null : 100.0 * r.length() / makespan)
                .build();
    }
}
