package org.hetscope.formats.ctf.mapping;

import java.util.HashMap;
import java.util.Map;
import org.hetscope.formats.ctf.CtfEvent;
import org.hetscope.model.Category;
import org.hetscope.model.Entity;
import org.hetscope.model.Slice;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;

/**
 * Linux scheduler events ({@code sched_switch}, {@code sched_wakeup}, {@code sched_waking},
 * {@code sched_wakeup_new}, as LTTng's kernel tracer or perf converted to CTF write them) become what a scheduling
 * view shows:
 * <ul>
 *   <li>one {@code cpu} track per CPU, with a slice for each stretch a thread ran on it (named by the thread's
 *   command, args tid and prio; the idle task, tid 0, leaves a gap);</li>
 *   <li>one thread track per thread, with its states in sequence: {@code running} (args cpu), {@code runnable}
 *   (woken or preempted, waiting for a CPU: the scheduling latency) and {@code blocked} (switched out asleep, args
 *   prev_state, until its wakeup; see {@link #preempted} for how the two are told apart).</li>
 * </ul>
 * A state starts at the first event that shows it: what ran on a CPU before its first switch, or a thread's state
 * before its first event, is unknown and not drawn (counted in {@code skipped}). Fields are read by LTTng's names
 * ({@code prev_tid}, {@code next_tid}, {@code tid}, CPU from the packet's {@code cpu_id}) or perf's ({@code
 * prev_pid}, {@code next_pid}, {@code pid}, {@code perf_cpu}).
 */
final class SchedMapper implements EventMapper {
    /** Kernel threads are not tied to a process in these events: their tracks sit under one process record. */
    private static final String THREADS = "name:threads (scheduler)";
    private static final String RUNNING = "running";
    private static final String RUNNABLE = "runnable";
    private static final String BLOCKED = "blocked";

    private final TrackRegistry tracks;
    private final Map<String, Lane> cpus = new HashMap<>();
    private final Map<String, ThreadState> threads = new HashMap<>();
    private long unknownCpuStarts;
    private long lostSwitches;
    private String firstLost;

    /** What runs on one CPU since when. */
    private static final class Lane {
        final long track;
        long tid = -1;
        long since;
        String comm;
        long prio;

        Lane(long track) {
            this.track = track;
        }
    }

    /** One thread's current state since when. */
    private static final class ThreadState {
        final long track;
        String state;
        long since;
        long cpu = -1;
        long prevState;

        ThreadState(long track) {
            this.track = track;
        }
    }

    SchedMapper(TrackRegistry tracks) {
        this.tracks = tracks;
    }

    @Override
    public boolean map(CtfEvent e) {
        String name = e.name();
        if (name.startsWith("sched:")) {
            name = name.substring(6);
        }
        if (!name.startsWith("sched_")) {
            return false;
        }
        switch (name) {
            case "sched_switch" -> {
                if (!e.has("next_comm")) {
                    return false;
                }
                switchCpu(e);
            }
            case "sched_wakeup", "sched_waking", "sched_wakeup_new" -> {
                long tid = e.getLong("tid", e.getLong("pid", -1));
                if (tid <= 0) {
                    return tid == 0; // the idle task is always runnable; anything without a tid is not ours
                }
                ThreadState t = thread(e, tid, e.getString("comm"));
                if (t.state == null || t.state.equals(BLOCKED)) {
                    move(t, RUNNABLE, e.timestampNs());
                }
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    private void switchCpu(CtfEvent e) {
        long ts = e.timestampNs();
        long cpu = e.getLong("perf_cpu", e.getLong("cpu_id", -1));
        long prev = e.getLong("prev_tid", e.getLong("prev_pid", -1));
        long next = e.getLong("next_tid", e.getLong("next_pid", -1));
        Lane lane = lane(e, cpu);
        if (lane.tid < 0) {
            if (prev > 0) {
                unknownCpuStarts++; // prev ran since before this CPU's first switch
            }
        } else {
            if (lane.tid != prev && lostSwitches++ == 0) {
                firstLost = e.streamFile() + " at " + ts + " ns";
            }
            if (lane.tid > 0) {
                tracks.sink.slice(new Slice(tracks.sink.newId(Entity.SLICE), lane.track, lane.since, ts - lane.since,
                        lane.comm, Category.STATE, "sched", 0, null,
                        "{\"tid\":" + lane.tid + ",\"prio\":" + lane.prio + "}"));
            }
        }
        lane.tid = next;
        lane.since = ts;
        lane.comm = e.getString("next_comm");
        lane.prio = e.getLong("next_prio", 0);
        if (prev > 0) {
            ThreadState p = thread(e, prev, e.getString("prev_comm"));
            long state = e.getLong("prev_state", 0);
            p.prevState = state;
            move(p, preempted(state) ? RUNNABLE : BLOCKED, ts);
        }
        if (next > 0) {
            ThreadState n = thread(e, next, lane.comm);
            move(n, RUNNING, ts);
            n.cpu = cpu;
        }
    }

    /**
     * Whether a switched-out thread was preempted (still runnable) rather than going to sleep: {@code prev_state}
     * is 0 (TASK_RUNNING), or the kernel's lone preemption mark: TASK_REPORT_MAX (256) since Linux 4.14,
     * TASK_STATE_MAX (1024, 2048 or 4096) before. Anything else is a sleeping state (TASK_INTERRUPTIBLE 1,
     * TASK_UNINTERRUPTIBLE 2, TASK_KILLABLE 130, TASK_PARKED 512, ...).
     */
    static boolean preempted(long prevState) {
        return prevState == 0 || Long.bitCount(prevState) == 1 && prevState >= 256 && prevState != 512;
    }

    /** Ends the thread's current state at {@code ts} (drawing it when its start is known) and starts {@code state}. */
    private void move(ThreadState t, String state, long ts) {
        if (t.state != null) {
            emit(t, ts, false);
        }
        t.state = state;
        t.since = ts;
    }

    private void emit(ThreadState t, long end, boolean unfinished) {
        String args = switch (t.state) {
            case RUNNING -> "{\"cpu\":" + t.cpu;
            case BLOCKED -> "{\"prev_state\":" + t.prevState;
            default -> "{";
        };
        args = (args + (unfinished ? (args.length() > 1 ? "," : "") + "\"unfinished\":true" : "") + "}");
        tracks.sink.slice(new Slice(tracks.sink.newId(Entity.SLICE), t.track, t.since, Math.max(0, end - t.since),
                t.state, Category.STATE, "sched", 0, null, args.equals("{}") ? null : args));
    }

    private Lane lane(CtfEvent e, long cpu) {
        String key = e.traceDir() + "/" + cpu;
        Lane lane = cpus.get(key);
        if (lane == null) {
            long id = tracks.sink.newId(Entity.TRACK);
            tracks.sink.track(new Track(id, null, TrackKind.CPU, cpu < 0 ? "CPU ?" : "CPU " + cpu, null, null, null,
                    null, (int) Math.max(0, cpu), null));
            lane = new Lane(id);
            cpus.put(key, lane);
        }
        return lane;
    }

    private ThreadState thread(CtfEvent e, long tid, String comm) {
        String key = e.traceDir() + "/" + tid;
        ThreadState t = threads.get(key);
        if (t == null) {
            t = new ThreadState(tracks.threadTrack(THREADS, tid, comm));
            threads.put(key, t);
        }
        return t;
    }

    @Override
    public void finish(long endNs) {
        for (Lane lane : cpus.values()) {
            if (lane.tid > 0) {
                tracks.sink.slice(new Slice(tracks.sink.newId(Entity.SLICE), lane.track, lane.since,
                        Math.max(0, endNs - lane.since), lane.comm, Category.STATE, "sched", 0, null,
                        "{\"tid\":" + lane.tid + ",\"prio\":" + lane.prio + ",\"unfinished\":true}"));
            }
        }
        for (ThreadState t : threads.values()) {
            if (t.state != null) {
                emit(t, endNs, true);
            }
        }
        if (unknownCpuStarts > 0) {
            tracks.sink.skipped("CPU time before a CPU's first sched_switch (thread unknown until then)",
                    "start of trace", unknownCpuStarts);
        }
        if (lostSwitches > 0) {
            tracks.sink.skipped("sched_switch whose previous thread is not the one last switched in (events lost?)",
                    firstLost, lostSwitches);
        }
    }
}
