package org.hetscope.formats.ctf.mapping;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hetscope.formats.ctf.CtfEvent;
import org.hetscope.model.SkipReason;
import org.hetscope.model.SkipTally;
import org.hetscope.model.SliceStack;
import org.hetscope.model.Category;
import org.hetscope.model.Entity;
import org.hetscope.model.Flow;
import org.hetscope.model.FlowRule;
import org.hetscope.model.Slice;
import org.hetscope.model.TrackTree;
import org.hetscope.model.TrackKind;

/**
 * Linux kernel events: the scheduler, system calls and interrupts.
 *
 * <p>Scheduler events ({@code sched_switch}, {@code sched_wakeup}, {@code sched_waking},
 * {@code sched_wakeup_new}, as LTTng's kernel tracer or perf converted to CTF write them) become what a scheduling
 * view shows:
 * <ul>
 *   <li>one {@code cpu} track per CPU, with a slice for each stretch a thread ran on it (named by the thread's
 *   command, args tid and prio; the idle task, tid 0, leaves a gap);</li>
 *   <li>one thread track per thread, with its states in sequence: {@code running} (args cpu), {@code runnable}
 *   (woken or preempted, waiting for a CPU: the scheduling latency) and {@code blocked} (switched out asleep, args
 *   prev_state, until its wakeup; see {@link #preempted} for how the two are told apart).</li>
 * </ul>
 * A wakeup of a blocked thread also gives a {@code wakeup} flow from the waker's {@code running} slice to the woken
 * thread's {@code runnable} one. The waker is the thread running on the CPU that recorded the wakeup, unless that
 * CPU was handling an interrupt: where the trace records {@code irq_handler_*} or {@code softirq_*} events the flow
 * is a fact (rule {@code source}) and wakeups from interrupt context get none; where it records neither, which
 * context woke the thread is unknown and the flow is a guess (rule {@code time}).
 *
 * <p>System calls (LTTng's {@code syscall_entry_<name>}/{@code syscall_exit_<name>}, their {@code compat_}
 * forms, and the {@code sys_<name>}/{@code exit_syscall} of LTTng before 2.6) become slices on a {@code syscalls}
 * track under the calling thread (category {@code api}, source {@code syscall}, args: the entry's fields and the
 * exit's {@code ret}); the calling thread is the one running on the CPU that recorded the entry, and the exit is
 * matched to the thread running where it is recorded. Interrupt handlers ({@code irq_handler_entry/exit},
 * {@code softirq_entry/exit}) become slices on an {@code interrupts} track under each CPU's lane, nested by
 * the handlers' own nesting ({@code irq <n> <name>}, {@code softirq <VECTOR>}). Both pair through a
 * {@link SliceStack}: an exit with no entry is counted, a call or handler the trace ends in (or a call whose exit
 * was lost: its thread enters another) is closed there with args {@code unfinished} and counted.
 *
 * <p>Thread tracks go under their process (thread group) when the trace says which it is: LTTng's statedump
 * ({@code lttng_statedump_process_state}), {@code sched_process_fork} ({@code child_tid}, {@code child_pid}), or
 * perf's {@code perf_tid}/{@code perf_pid} of the current task; other threads go under one process record,
 * {@code threads (scheduler)}. Thread slices are held back until that is known (see {@link #holding}).
 *
 * <p>A state starts at the first event that shows it: what ran on a CPU before its first switch, or a thread's state
 * before its first event, is unknown and not drawn (counted in {@code skipped}). Fields are read by LTTng's names
 * ({@code prev_tid}, {@code next_tid}, {@code tid}, CPU from the packet's {@code cpu_id}) or perf's ({@code
 * prev_pid}, {@code next_pid}, {@code pid}, {@code perf_cpu}).
 */
final class KernelMapper implements EventMapper {
    /** Threads whose process is unknown (no statedump, fork or perf field named it) sit under one process record. */
    private static final String THREADS = "name:threads (scheduler)";
    private static final String RUNNING = "running";
    private static final String RUNNABLE = "runnable";
    private static final String BLOCKED = "blocked";

    /** Thread slices held back at most, waiting to learn which process each thread belongs to (~30 MB). */
    private static final int MAX_HELD = 1 << 18;

    private static final String[] SOFTIRQS = {"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
        "SCHED", "HRTIMER", "RCU"};

    private final TrackRegistry tracks;
    /** Trace folders whose metadata declares interrupt events, so that interrupt context is known. */
    private final Set<Path> irqTraced;
    private final Map<Path, Kernel> kernels = new LinkedHashMap<>();
    /** The kernel of the last event: events come in long runs from one trace. */
    private Kernel last;
    private final ArgsJson argsJson = new ArgsJson();
    /**
     * Thread slices are held back at first, so that their tracks go under the right process: until LTTng's
     * statedump, which names every thread's process, has ended; without one (perf learns a thread's process only
     * when it runs), until {@link #MAX_HELD} slices or the end of the trace.
     */
    private boolean holding = true;
    private final List<Held> held = new ArrayList<>();
    private long syscallsOnUnknownThread;
    /** Broken system call and interrupt handler pairs, counted by the kernels' slice stacks. */
    private final SkipTally pairSkips = new SkipTally();
    private long wakeupsInInterrupts;
    private long unknownCpuStarts;
    private long lostSwitches;
    private String firstLost;

    /** What one trace's kernel is doing: its CPUs, threads, handlers and calls in progress, and processes. */
    private static final class Kernel {
        final Path dir;
        final boolean irqTraced;
        final Map<Long, Lane> cpus = new HashMap<>();
        final Map<Long, ThreadState> threads = new HashMap<>();
        /** Interrupt handlers running per CPU: they nest (a hard interrupt within a soft one). */
        final SliceStack<Long, Handler> handlers;
        /** The system call in progress per thread: one at a time, so a thread's lane goes when its call ends. */
        final SliceStack<Long, Call> syscalls;
        /** Process (thread group) of each thread, from the statedump, forks, or perf's fields. */
        final Map<Long, Long> pidOf = new HashMap<>();
        /** Command of each process's main thread, from the statedump. */
        final Map<Long, String> processName = new HashMap<>();

        Kernel(Path dir, boolean irqTraced, SkipTally pairSkips) {
            this.dir = dir;
            this.irqTraced = irqTraced;
            handlers = new SliceStack<>(pairSkips, "interrupt handler entry", "interrupt handler exit");
            syscalls = new SliceStack<>(pairSkips, "system call entry", "system call exit");
        }
    }

    /** What runs on one CPU since when. */
    private static final class Lane {
        final long track;
        /** The lane's child track of interrupt handlers, once one ran; -1 before. */
        long interrupts = -1;
        long tid = -1;
        long since;
        String comm;
        long prio;

        Lane(long track) {
            this.track = track;
        }
    }

    /** An interrupt handler in progress on a CPU. */
    private record Handler(String label, long since, long track) {}

    /** A system call in progress in a thread, with its entry's fields. */
    private record Call(String name, long since, String args, ThreadState owner) {}

    /** A thread's slice written once its process is known (see {@link #holding}). */
    private record Held(ThreadState thread, boolean syscall, long id, long ts, long dur, String name,
                        Category category, String source, String args) {}

    /** One thread's current state since when. */
    private static final class ThreadState {
        final Kernel kernel;
        final long tid;
        final String comm;
        /** The thread's track and its system call track, made on first use (-1 before). */
        long track = -1;
        long syscallTrack = -1;
        String processKey;
        String state;
        /** The id the current state's slice will have (flows point at it before it is written). */
        long sliceId;
        long since;
        long cpu = -1;
        long prevState;

        ThreadState(Kernel kernel, long tid, String comm) {
            this.kernel = kernel;
            this.tid = tid;
            this.comm = comm;
        }
    }

    KernelMapper(TrackRegistry tracks, Set<Path> irqTraced) {
        this.tracks = tracks;
        this.irqTraced = irqTraced;
    }

    @Override
    public boolean map(CtfEvent e) {
        String name = e.name();
        int colon = name.indexOf(':');
        if (colon >= 0) {
            String provider = name.substring(0, colon);
            if (!provider.equals("sched") && !provider.equals("irq")) {
                return false; // perf's "sched:" and "irq:"; LTTng's kernel events have no provider prefix
            }
            name = name.substring(colon + 1);
        }
        if (name.equals("irq_handler_entry") || name.equals("irq_handler_exit") || name.equals("softirq_entry")
                || name.equals("softirq_exit")) {
            interrupt(e, name);
            return true;
        }
        if (colon < 0 && syscall(e, name)) {
            return true;
        }
        if (colon < 0 && name.startsWith("lttng_statedump_")) {
            statedump(e, name);
            return false; // kept as instants: they describe the system
        }
        if (!name.startsWith("sched_")) {
            return false;
        }
        Kernel k = kernel(e);
        if (e.has("perf_tid")) {
            // perf names the current task's thread group in every event
            k.pidOf.putIfAbsent(e.getLong("perf_tid"), e.getLong("perf_pid", -1));
        }
        switch (name) {
            case "sched_switch" -> {
                if (!e.has("next_comm")) {
                    return false;
                }
                switchCpu(k, e);
            }
            case "sched_wakeup", "sched_waking", "sched_wakeup_new" -> {
                long tid = e.getLong("tid", e.getLong("pid", -1));
                if (tid <= 0) {
                    return tid == 0; // the idle task is always runnable; anything without a tid is not ours
                }
                ThreadState t = thread(k, tid, e.getString("comm"));
                boolean wasBlocked = BLOCKED.equals(t.state);
                if (t.state == null || wasBlocked) {
                    move(t, RUNNABLE, e.timestampNs());
                }
                if (wasBlocked) {
                    wakeupFlow(k, e, t);
                }
            }
            case "sched_process_fork" -> {
                if (e.has("child_tid")) { // LTTng: child_pid is the thread group (perf's child_pid is the tid)
                    k.pidOf.put(e.getLong("child_tid"), e.getLong("child_pid", -1));
                }
                return false;
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    private Kernel kernel(CtfEvent e) {
        Path dir = e.traceDir();
        if (last == null || last.dir != dir) {
            last = kernels.computeIfAbsent(dir, d -> new Kernel(d, irqTraced.contains(d), pairSkips));
        }
        return last;
    }

    private void statedump(CtfEvent e, String name) {
        if (name.equals("lttng_statedump_process_state")) {
            long tid = e.getLong("tid", -1);
            long pid = e.getLong("pid", -1);
            if (tid > 0 && pid > 0) {
                Kernel k = kernel(e);
                k.pidOf.put(tid, pid);
                if (tid == pid) {
                    k.processName.put(pid, e.getString("name"));
                }
            }
        } else if (name.equals("lttng_statedump_end")) {
            release();
        }
    }

    /** Writes a thread's slice, or holds it until the statedump has ended. */
    private void write(ThreadState t, boolean syscall, long id, long ts, long dur, String name, Category category,
                       String source, String args) {
        if (holding) {
            held.add(new Held(t, syscall, id, ts, dur, name, category, source, args));
            if (held.size() >= MAX_HELD) {
                release();
            }
            return;
        }
        long track = syscall ? syscallTrack(t) : trackOf(t);
        tracks.sink.slice(new Slice(id, track, ts, dur, name, category, source, 0, null, args));
    }

    /** Writes what was held back; later slices are written as they come. */
    private void release() {
        holding = false;
        for (Held h : held) {
            write(h.thread(), h.syscall(), h.id(), h.ts(), h.dur(), h.name(), h.category(), h.source(), h.args());
        }
        held.clear();
    }

    /** The thread's track, under its process when that is known (else under one process for all threads). */
    private long trackOf(ThreadState t) {
        if (t.track < 0) {
            Long pid = t.kernel.pidOf.get(t.tid);
            String pkey = THREADS;
            if (pid != null && pid > 0) {
                pkey = Long.toString(pid);
                String pname = t.kernel.processName.get(pid);
                tracks.process(pkey, pname != null ? pname : pid == t.tid ? t.comm : null);
            }
            t.track = tracks.threadTrack(pkey, t.tid, t.comm);
            t.processKey = pkey;
        }
        return t.track;
    }

    private long syscallTrack(ThreadState t) {
        if (t.syscallTrack < 0) {
            trackOf(t);
            t.syscallTrack = tracks.apiTrack(t.processKey, t.tid, "syscalls");
        }
        return t.syscallTrack;
    }

    private void switchCpu(Kernel k, CtfEvent e) {
        long ts = e.timestampNs();
        long cpu = cpu(e);
        long prev = e.getLong("prev_tid", e.getLong("prev_pid", -1));
        long next = e.getLong("next_tid", e.getLong("next_pid", -1));
        Lane lane = lane(k, cpu);
        if (lane.tid < 0) {
            if (prev > 0) {
                unknownCpuStarts++; // prev ran since before this CPU's first switch
            }
        } else {
            if (lane.tid != prev && lostSwitches++ == 0) {
                firstLost = where(e, ts);
            }
            if (lane.tid > 0) {
                emit(lane, ts, false);
            }
        }
        lane.tid = next;
        lane.since = ts;
        lane.comm = e.getString("next_comm");
        lane.prio = e.getLong("next_prio", 0);
        if (prev > 0) {
            ThreadState p = thread(k, prev, e.getString("prev_comm"));
            long state = e.getLong("prev_state", 0);
            p.prevState = state;
            move(p, preempted(state) ? RUNNABLE : BLOCKED, ts);
        }
        if (next > 0) {
            ThreadState n = thread(k, next, lane.comm);
            move(n, RUNNING, ts);
            n.cpu = cpu;
        }
    }

    /** An interrupt handler starts or ends on its CPU; handlers nest (a hard interrupt within a soft one). */
    private void interrupt(CtfEvent e, String name) {
        Kernel k = kernel(e);
        long cpu = cpu(e);
        long ts = e.timestampNs();
        if (name.endsWith("_entry")) {
            String label;
            if (name.startsWith("irq")) {
                String irqName = e.getString("name");
                label = "irq " + e.getLong("irq", -1) + (irqName != null ? " " + irqName : "");
            } else {
                long vec = e.getLong("vec", -1);
                label = "softirq " + (vec >= 0 && vec < SOFTIRQS.length ? SOFTIRQS[(int) vec] : Long.toString(vec));
            }
            k.handlers.begin(cpu, new Handler(label, ts, interruptTrack(k, cpu)));
        } else {
            Handler h = k.handlers.end(cpu);
            if (h == null) {
                k.handlers.unmatchedEnd(where(e, ts));
            } else {
                emit(h, ts, k.handlers.depth(cpu), null);
            }
        }
    }

    /** A handler's slice up to {@code end}, at the depth of the handlers it interrupted. */
    private void emit(Handler h, long end, int depth, String args) {
        tracks.sink.slice(new Slice(tracks.sink.newId(Entity.SLICE), h.track(), h.since(), Math.max(0, end - h.since()),
                h.label(), Category.OTHER, "interrupt", depth, null, args));
    }

    private long interruptTrack(Kernel k, long cpu) {
        Lane lane = lane(k, cpu);
        if (lane.interrupts < 0) {
            // generic, not cpu: a query for kind 'cpu' gets the lanes alone
            lane.interrupts = tracks.tree.node(lane.track).child(TrackKind.GENERIC, "interrupts",
                    n -> n.name("interrupts")).id();
        }
        return lane.interrupts;
    }

    /**
     * A system call entry or exit, by LTTng's names since 2.6 ({@code syscall_entry_read}) and before
     * ({@code sys_read}, {@code exit_syscall}); false when {@code name} is neither.
     */
    private boolean syscall(CtfEvent e, String name) {
        String call = null;
        boolean entry;
        if (name.startsWith("syscall_entry_") || name.startsWith("compat_syscall_entry_")) {
            call = name.substring(name.indexOf("syscall_entry_") + "syscall_entry_".length());
            entry = true;
        } else if (name.startsWith("syscall_exit_") || name.startsWith("compat_syscall_exit_")
                || name.equals("exit_syscall")) {
            entry = false;
        } else if (name.startsWith("sys_")) {
            call = name.substring(4);
            entry = true;
        } else {
            return false;
        }
        long ts = e.timestampNs();
        Kernel k = kernel(e);
        Lane lane = k.cpus.get(cpu(e));
        if (lane == null || lane.tid <= 0) {
            syscallsOnUnknownThread++; // before the CPU's first switch: whose call this is is unknown
            return true;
        }
        if (entry) {
            Call previous = k.syscalls.endAndForget(lane.tid);
            if (previous != null) { // its exit was lost: it ends where the thread's next call starts
                k.syscalls.unended(where(e, ts), 1);
                closeSyscall(previous, ts, null);
            }
            k.syscalls.begin(lane.tid, new Call(call, ts, argsJson.of(e), thread(k, lane.tid, lane.comm)));
        } else {
            Call open = k.syscalls.endAndForget(lane.tid);
            if (open == null) {
                k.syscalls.unmatchedEnd(where(e, ts));
            } else {
                closeSyscall(open, ts, e.getLong("ret", Long.MIN_VALUE));
            }
        }
        return true;
    }

    /** Writes a system call's slice; {@code ret} null when its exit was not seen. */
    private void closeSyscall(Call call, long end, Long ret) {
        String args = call.args();
        String tail = ret == null ? "\"unfinished\":true" : ret == Long.MIN_VALUE ? null : "\"ret\":" + ret;
        if (tail != null) {
            args = args.length() > 2 ? args.substring(0, args.length() - 1) + "," + tail + "}" : "{" + tail + "}";
        }
        write(call.owner(), true, tracks.sink.newId(Entity.SLICE), call.since(), Math.max(0, end - call.since()),
                call.name(), Category.API, "syscall", args);
    }

    private static String where(CtfEvent e, long ts) {
        return e.streamFile() + " at " + ts + " ns";
    }

    /** The flow from the thread running where the wakeup was recorded to the thread it woke. */
    private void wakeupFlow(Kernel k, CtfEvent e, ThreadState woken) {
        long cpu = cpu(e);
        Lane lane = k.cpus.get(cpu);
        if (lane == null || lane.tid <= 0) {
            return; // the idle task or an unknown thread: no running slice to start from
        }
        FlowRule rule = FlowRule.TIME;
        if (k.irqTraced) {
            if (k.handlers.depth(cpu) > 0) {
                wakeupsInInterrupts++;
                return;
            }
            rule = FlowRule.SOURCE;
        }
        ThreadState waker = k.threads.get(lane.tid);
        if (waker != null && RUNNING.equals(waker.state)) {
            tracks.sink.flow(new Flow(tracks.sink.newId(Entity.FLOW), waker.sliceId, woken.sliceId, "wakeup", null,
                    rule));
        }
    }

    private static long cpu(CtfEvent e) {
        return e.getLong("perf_cpu", e.getLong("cpu_id", -1));
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
        t.sliceId = tracks.sink.newId(Entity.SLICE);
    }

    private void emit(ThreadState t, long end, boolean unfinished) {
        String args = switch (t.state) {
            case RUNNING -> "{\"cpu\":" + t.cpu;
            case BLOCKED -> "{\"prev_state\":" + t.prevState;
            default -> "{";
        };
        args = (args + (unfinished ? (args.length() > 1 ? "," : "") + "\"unfinished\":true" : "") + "}");
        write(t, false, t.sliceId, t.since, Math.max(0, end - t.since), t.state, Category.STATE, "sched",
                args.equals("{}") ? null : args);
    }

    /** The stretch the lane's thread ran, up to {@code end}. */
    private void emit(Lane lane, long end, boolean unfinished) {
        tracks.sink.slice(new Slice(tracks.sink.newId(Entity.SLICE), lane.track, lane.since,
                Math.max(0, end - lane.since), lane.comm, Category.STATE, "sched", 0, null,
                "{\"tid\":" + lane.tid + ",\"prio\":" + lane.prio + (unfinished ? ",\"unfinished\":true}" : "}")));
    }

    private Lane lane(Kernel k, long cpu) {
        Lane lane = k.cpus.get(cpu);
        if (lane == null) {
            // the CPUs of a trace under one parent, ordered by number (sort_index orders siblings)
            TrackTree.Node cpus = tracks.tree.root(TrackKind.GENERIC, k.dir, n -> n.name("CPUs"));
            lane = new Lane(cpus.child(TrackKind.CPU, cpu, n -> n.name(cpu < 0 ? "CPU ?" : "CPU " + cpu)
                    .sortIndex((int) Math.max(0, cpu))).id());
            k.cpus.put(cpu, lane);
        }
        return lane;
    }

    private ThreadState thread(Kernel k, long tid, String comm) {
        ThreadState t = k.threads.get(tid);
        if (t == null) {
            t = new ThreadState(k, tid, comm);
            k.threads.put(tid, t);
        }
        return t;
    }

    @Override
    public void finish(long endNs) {
        for (Kernel k : kernels.values()) {
            for (Lane lane : k.cpus.values()) {
                if (lane.tid > 0) {
                    emit(lane, endNs, true);
                }
            }
            for (ThreadState t : k.threads.values()) {
                if (t.state != null) {
                    emit(t, endNs, true);
                }
            }
            k.syscalls.closeAll((tid, call, depth) -> closeSyscall(call, endNs, null), "end of trace");
            k.handlers.closeAll((cpu, h, depth) -> emit(h, endNs, depth, "{\"unfinished\":true}"), "end of trace");
        }
        release();
        if (unknownCpuStarts > 0) {
            tracks.sink.skipped(SkipReason.UNKNOWN_THREAD, "CPU time",
                    "start of trace", unknownCpuStarts);
        }
        if (syscallsOnUnknownThread > 0) {
            tracks.sink.skipped(SkipReason.UNKNOWN_THREAD, "system call events",
                    "start of trace", syscallsOnUnknownThread);
        }
        pairSkips.flushTo(tracks.sink);
        if (wakeupsInInterrupts > 0) {
            tracks.sink.skipped(SkipReason.UNMATCHED_FLOW, "wakeup from interrupt context (no thread woke it)",
                    "sched_wakeup", wakeupsInInterrupts);
        }
        if (lostSwitches > 0) {
            tracks.sink.skipped(SkipReason.INCONSISTENT_STATE, "sched_switch whose previous thread is not the one last "
                    + "switched in",
                    firstLost, lostSwitches);
        }
    }
}
