package org.hetscope.analysis.tasks;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.store.Table;

/**
 * Per worker: how many tasks it ran, the time it was busy (union of its task intervals) and its idle share of the
 * run, the run being [first task start, last task end] over all workers.
 */
public final class WorkerIdle {
    private WorkerIdle() {}

    public static Table of(TaskGraph g) {
        Map<String, List<long[]>> byWorker = new LinkedHashMap<>();
        for (TaskGraph.Node n : g.tasks.values()) {
            byWorker.computeIfAbsent(n.worker() == null ? "?" : n.worker(), k -> new ArrayList<>())
                    .add(new long[] {n.start(), n.end()});
        }
        long span = g.makespan();
        Table.Builder t = Table.builder("Idle time per worker over the run of " + span + " ns", "worker", "tasks",
                "busy_ns", "idle_ns", "idle_percent");
        for (var e : new java.util.TreeMap<>(byWorker).entrySet()) {
            long busy = union(e.getValue());
            t.row(e.getKey(), (long) e.getValue().size(), busy, span - busy,
                    span == 0 ? null : 100.0 * (span - busy) / span);
        }
        return t.build();
    }

    static long union(List<long[]> ivs) {
        ivs.sort(Comparator.comparingLong(a -> a[0]));
        long total = 0;
        long s = Long.MIN_VALUE;
        long e = Long.MIN_VALUE;
        for (long[] iv : ivs) {
            if (iv[0] > e) {
                total += Math.max(0, e - s);
                s = iv[0];
                e = iv[1];
            } else {
                e = Math.max(e, iv[1]);
            }
        }
        return total + Math.max(0, e - s);
    }
}
