package org.hetscope.analysis.memory;

import java.util.List;
import org.hetscope.store.Table;

/**
 * Why a task started when it did: the end of its last dependency (tasks.rec DependsOn, ghost or not), the end of
 * the previous task on the same worker, and the arrival of its last input on its node. The wait from submission
 * to start splits into dependency wait ({@code lastDepEnd − submit}), worker busy (the worker still ran another
 * task after the dependencies were done) and data wait ({@code idleBefore = start − max(lastDepEnd, prevEnd)}).
 */
public final class TaskWait {
    /** The computed times; null where the trace does not say. */
    public record Result(long jobId, String name, String worker, Long submitTs, long startTs, Long lastDepEnd,
                         Long lastDepJob, Long prevEnd, Long prevJob, Long lastInputArrival, Long lastInputBlock) {

        public Long waitAfterDeps() {
            return lastDepEnd == null ? null : startTs - lastDepEnd;
        }

        public Long idleBefore() {
            long ready = Math.max(lastDepEnd == null ? Long.MIN_VALUE : lastDepEnd,
                    prevEnd == null ? Long.MIN_VALUE : prevEnd);
            return ready == Long.MIN_VALUE ? null : startTs - ready;
        }

        public Long dependencyWait() {
            return lastDepEnd == null || submitTs == null ? null : Math.max(0, lastDepEnd - submitTs);
        }

        public Long workerBusy() {
            if (prevEnd == null) {
                return 0L;
            }
            long from = lastDepEnd == null ? (submitTs == null ? prevEnd : submitTs) : lastDepEnd;
            return Math.max(0, Math.min(prevEnd, startTs) - from);
        }

        public Long inputBeforeStart() {
            return lastInputArrival == null ? null : startTs - lastInputArrival;
        }
    }

    private TaskWait() {}

    public static Result of(MemoryTrace m, long jobId) {
        MemoryTrace.TaskRun t = m.tasksByJob.get(jobId);
        if (t == null) {
            throw new IllegalArgumentException("no executed task with JobId " + jobId);
        }
        Long lastDep = null;
        Long lastDepJob = null;
        for (long d : m.dependsOn.getOrDefault(jobId, List.of())) {
            MemoryTrace.TaskRun dep = m.tasksByJob.get(d);
            if (dep != null && (lastDep == null || dep.endTs() > lastDep)) {
                lastDep = dep.endTs();
                lastDepJob = d;
            }
        }
        Long prevEnd = null;
        Long prevJob = null;
        for (MemoryTrace.TaskRun o : m.tasks) {
            if (o != t && o.workerTrackId() != null && o.workerTrackId().equals(t.workerTrackId())
                    && o.endTs() <= t.startTs() && (prevEnd == null || o.endTs() > prevEnd)) {
                prevEnd = o.endTs();
                prevJob = o.jobId();
            }
        }
        Long arrival = null;
        Long arrivalBlock = null;
        java.util.Set<Long> blocks = new java.util.HashSet<>();
        t.accesses().forEach(a -> blocks.add((Long) a[0]));
        for (MemoryTrace.Move mv : m.moves) {
            if (mv.blockId() != null && blocks.contains(mv.blockId()) && mv.dstNodeId() != null
                    && mv.dstNodeId().equals(t.nodeId()) && mv.end() <= t.startTs()
                    && (arrival == null || mv.end() > arrival)) {
                arrival = mv.end();
                arrivalBlock = mv.blockId();
            }
        }
        return new Result(jobId, t.name(), t.worker(), t.submitTs(), t.startTs(), lastDep, lastDepJob, prevEnd,
                prevJob, arrival, arrivalBlock);
    }

    public static Table table(MemoryTrace m, long jobId) {
        Result r = of(m, jobId);
        return Table.builder("Wait of task " + jobId, "job_id", "name", "worker", "submit_ts", "start_ts",
                        "last_dep_end_ts", "last_dep_job", "prev_end_on_worker_ts", "prev_job", "last_input_arrival_ts",
                        "last_input_block", "wait_after_deps_ns", "idle_before_ns", "dependency_wait_ns",
                        "worker_busy_ns", "input_before_start_ns")
                .row(r.jobId(), r.name(), r.worker(), r.submitTs(), r.startTs(), r.lastDepEnd(), r.lastDepJob(),
                        r.prevEnd(), r.prevJob(), r.lastInputArrival(), m.blockLabel(r.lastInputBlock()),
                        r.waitAfterDeps(), r.idleBefore(), r.dependencyWait(), r.workerBusy(), r.inputBeforeStart())
                .build();
    }
}
