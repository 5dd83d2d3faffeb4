package org.hetscope.analysis.sched;

import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * What the scheduler did, over the {@code cpu} lanes and thread states that a kernel trace's {@code sched_switch}
 * and wakeup events become (docs/schema.md, "Linux scheduler, system calls and interrupts"): how busy each CPU was
 * and with whom, how long each thread ran, waited for a CPU and slept, the longest waits with the thread that woke
 * the waiting one, and the system calls.
 */
public final class Scheduling {
    private final Store store;

    public Scheduling(Store store) {
        this.store = store;
    }

    /** Whether the store holds scheduler states at all (a kernel trace with sched_switch events). */
    public boolean present() {
        Long n = store.scalarLong("SELECT count(*) FROM track WHERE kind = 'cpu'");
        return n != null && n > 0;
    }

    /**
     * Per CPU: stretches of threads run, distinct threads, busy ns and percent of the scheduler's time span, and the
     * thread that ran there longest.
     */
    public Table cpus() {
        return store.query("CPUs", """
                WITH span AS (SELECT min(ts) AS t0, max(ts + dur) AS t1 FROM slice WHERE source_category = 'sched'),
                runs AS (SELECT s.track_id, s.name AS thread, CAST(json_extract_string(s.args, '$.tid') AS BIGINT) AS tid,
                                s.dur
                         FROM slice s JOIN track t ON t.id = s.track_id WHERE t.kind = 'cpu'),
                per_thread AS (SELECT track_id, thread, tid, count(*) AS n, sum(dur) AS ns FROM runs GROUP BY ALL),
                per_cpu AS (SELECT track_id, sum(n) AS stretches, count(*) AS threads, sum(ns) AS busy_ns,
                                   arg_max(thread || ' (' || tid || ')', ns) AS top_thread, max(ns) AS top_thread_ns
                            FROM per_thread GROUP BY track_id)
                SELECT t.name AS cpu, coalesce(p.stretches, 0) AS stretches, coalesce(p.threads, 0) AS threads,
                       coalesce(p.busy_ns, 0) AS busy_ns,
                       100.0 * coalesce(p.busy_ns, 0) / nullif(span.t1 - span.t0, 0) AS busy_pct,
                       p.top_thread, p.top_thread_ns
                FROM track t LEFT JOIN per_cpu p ON p.track_id = t.id, span
                WHERE t.kind = 'cpu' ORDER BY t.sort_index, t.name""");
    }

    /**
     * Per thread, most running first: ns running and the number of times it was switched in; ns runnable (waiting
     * for a CPU after a wakeup or a preemption) with the longest and the 95th percentile wait (an observed one); ns blocked; and the
     * wakeup flows that reached it.
     */
    public Table threads(int limit) {
        return store.query("threads", """
                WITH states AS (SELECT s.track_id, s.name, s.dur FROM slice s JOIN track t ON t.id = s.track_id
                                WHERE s.source_category = 'sched' AND t.kind = 'thread'),
                wakeups AS (SELECT r.track_id, count(*) AS n FROM flow f JOIN slice r ON r.id = f.to_slice_id
                            WHERE f.kind = 'wakeup' GROUP BY r.track_id)
                SELECT th.name AS thread, th.tid,
                       coalesce(sum(s.dur) FILTER (WHERE s.name = 'running'), 0) AS running_ns,
                       count(*) FILTER (WHERE s.name = 'running') AS switch_ins,
                       coalesce(sum(s.dur) FILTER (WHERE s.name = 'runnable'), 0) AS runnable_ns,
                       max(s.dur) FILTER (WHERE s.name = 'runnable') AS max_wait_ns,
                       quantile_disc(s.dur, 0.95) FILTER (WHERE s.name = 'runnable') AS p95_wait_ns,
                       coalesce(sum(s.dur) FILTER (WHERE s.name = 'blocked'), 0) AS blocked_ns,
                       coalesce(any_value(w.n), 0) AS wakeups
                FROM states s JOIN track t ON t.id = s.track_id LEFT JOIN thread th ON th.id = t.thread_id
                     LEFT JOIN wakeups w ON w.track_id = t.id
                GROUP BY t.id, th.name, th.tid
                ORDER BY running_ns DESC, th.tid LIMIT ?""", limit);
    }

    /**
     * Per process (the thread group the trace named; threads of unknown process together under
     * {@code threads (scheduler)}), most running first: threads, ns running, runnable and blocked, summed over its
     * threads.
     */
    public Table processes(int limit) {
        return store.query("processes", """
                SELECT p.name AS process, p.pid, count(DISTINCT t.id) AS threads,
                       coalesce(sum(s.dur) FILTER (WHERE s.name = 'running'), 0) AS running_ns,
                       coalesce(sum(s.dur) FILTER (WHERE s.name = 'runnable'), 0) AS runnable_ns,
                       coalesce(sum(s.dur) FILTER (WHERE s.name = 'blocked'), 0) AS blocked_ns
                FROM slice s JOIN track t ON t.id = s.track_id JOIN process p ON p.id = t.process_id
                WHERE s.source_category = 'sched' AND t.kind = 'thread'
                GROUP BY p.id, p.name, p.pid
                ORDER BY running_ns DESC, p.pid LIMIT ?""", limit);
    }

    /**
     * System calls by name, most total time first: calls, threads that made them, total, longest and 95th
     * percentile (an observed one) duration, and how many are unfinished (still open at the end of the trace, or
     * whose exit was lost).
     */
    public Table systemCalls(int limit) {
        return store.query("system calls", """
                SELECT s.name AS call, count(*) AS calls, count(DISTINCT t.parent_id) AS threads,
                       sum(s.dur) AS total_ns, max(s.dur) AS max_ns, quantile_disc(s.dur, 0.95) AS p95_ns,
                       count(*) FILTER (WHERE json_extract(s.args, '$.unfinished') IS NOT NULL) AS unfinished
                FROM slice s JOIN track t ON t.id = s.track_id
                WHERE s.source_category = 'syscall'
                GROUP BY s.name ORDER BY total_ns DESC, call LIMIT ?""", limit);
    }

    /**
     * The longest waits for a CPU (finished ones): thread, start, ns waited, the CPU it then ran on, and the thread
     * whose wakeup started the wait (null after a preemption or a wakeup from interrupt context).
     */
    public Table latencies(int limit) {
        return store.query("longest waits for a CPU", """
                SELECT th.name AS thread, th.tid, r.ts, r.dur AS wait_ns,
                       CAST(json_extract_string(n.args, '$.cpu') AS BIGINT) AS then_on_cpu,
                       wth.name AS woken_by, wth.tid AS woken_by_tid, f.rule AS flow_rule
                FROM slice r JOIN track t ON t.id = r.track_id
                     LEFT JOIN thread th ON th.id = t.thread_id
                     LEFT JOIN slice n ON n.track_id = r.track_id AND n.ts = r.ts + r.dur AND n.name = 'running'
                                      AND n.source_category = 'sched'
                     LEFT JOIN flow f ON f.to_slice_id = r.id AND f.kind = 'wakeup'
                     LEFT JOIN slice w ON w.id = f.from_slice_id
                     LEFT JOIN track wt ON wt.id = w.track_id
                     LEFT JOIN thread wth ON wth.id = wt.thread_id
                WHERE r.source_category = 'sched' AND r.name = 'runnable' AND t.kind = 'thread'
                      AND (r.args IS NULL OR json_extract(r.args, '$.unfinished') IS NULL)
                ORDER BY r.dur DESC, r.ts, th.tid LIMIT ?""", limit);
    }
}
