package org.hetscope.formats.ctf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hetscope.formats.ctf.mapping.CtfTraceFormat;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Slice;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.hetscope.model.Progress;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Scheduler lanes and thread states against babeltrace2's text of the same trace, read by separate code here: an
 * LTTng kernel trace ({@code bug446190}: {@code cpu_id} in the packet context, {@code prev_tid}/{@code next_tid})
 * and perf converted to CTF ({@code perf-taskset2}: {@code perf_cpu}, {@code prev_pid}/{@code next_pid}).
 */
class KernelMappingTest {
    private static final Pattern FIELD = Pattern.compile("(\\w+) = (\"[^\"]*\"|-?\\w+)");

    /** One scheduler event as babeltrace2 printed it. */
    record Raw(long ns, String name, Map<String, String> f) {
        long num(String... names) {
            for (String n : names) {
                if (f.containsKey(n)) {
                    return Long.decode(f.get(n));
                }
            }
            return -1;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bug446190", "perf-taskset2"})
    void cpuLanesAndThreadStatesFollowTheSwitchesBabeltraceShows(String fixture) throws Exception {
        Path dir = Fixtures.ctf(fixture);
        Assumptions.assumeTrue(Babeltrace.available(), "babeltrace2 not installed");
        List<Babeltrace.Line> lines = Babeltrace.read(dir);
        assertNotNull(lines);
        long end = Long.MIN_VALUE;
        List<Raw> raw = new ArrayList<>();
        for (Babeltrace.Line l : lines) {
            end = Math.max(end, l.ns());
            String text = l.text();
            int first = text.indexOf(':');
            boolean provider = text.startsWith("sched:") || text.startsWith("irq:"); // perf's names
            String name = text.substring(0, provider ? text.indexOf(':', first + 1) : first);
            if (!name.matches("(sched:)?sched_(switch|wakeup|waking|wakeup_new)")
                    && !name.matches("(irq:)?(irq_handler|softirq)_(entry|exit)")
                    && !name.matches("sys_\\w+|exit_syscall|syscall_(entry|exit)_\\w+")
                    && !name.equals("lttng_statedump_process_state")
                    && !name.matches("(sched:)?sched_process_fork")) {
                continue;
            }
            Map<String, String> f = new HashMap<>();
            Matcher m = FIELD.matcher(text);
            while (m.find()) {
                f.put(m.group(1), m.group(2).replace("\"", ""));
            }
            raw.add(new Raw(l.ns(), name.replace("sched:", "").replace("irq:", ""), f));
        }
        // Reference CPU lanes: consecutive switches on one CPU; the thread switched in runs until the next one.
        Map<Long, List<Raw>> byCpu = new TreeMap<>();
        for (Raw r : raw) {
            if (r.name().equals("sched_switch")) {
                byCpu.computeIfAbsent(r.num("perf_cpu", "cpu_id"), k -> new ArrayList<>()).add(r);
            }
        }
        Set<String> expectedLanes = new HashSet<>();
        Map<Long, Long> runningByTid = new HashMap<>();
        Map<Long, Integer> switchIns = new HashMap<>();
        for (var en : byCpu.entrySet()) {
            List<Raw> s = en.getValue();
            for (int i = 0; i < s.size(); i++) {
                long next = s.get(i).num("next_tid", "next_pid");
                if (next == 0) {
                    continue;
                }
                long from = s.get(i).ns();
                long to = i + 1 < s.size() ? s.get(i + 1).ns() : end;
                expectedLanes.add("CPU " + en.getKey() + " " + from + " " + (to - from) + " " + s.get(i).f().get(
                        "next_comm") + " " + next);
                runningByTid.merge(next, to - from, Long::sum);
                switchIns.merge(next, 1, Integer::sum);
            }
        }
        assertTrue(expectedLanes.size() > 100, fixture + ": switches to compare: " + expectedLanes.size());

        CollectingSink sink = new CollectingSink();
        new CtfTraceFormat().read(dir, sink, Progress.NONE);
        Map<Long, Track> tracks = new HashMap<>();
        for (Track t : sink.tracks) {
            tracks.put(t.id(), t);
        }
        Set<String> lanes = new HashSet<>();
        Map<Long, List<Slice>> states = new TreeMap<>();
        Map<Long, Long> tidOfTrack = new HashMap<>();
        for (var th : sink.threads) {
            for (Track t : sink.tracks) {
                if (t.threadId() != null && t.threadId() == th.id() && t.kind() == TrackKind.THREAD) {
                    tidOfTrack.put(t.id(), th.tid());
                }
            }
        }
        for (Slice s : sink.slices) {
            if (!"sched".equals(s.sourceCategory())) {
                continue;
            }
            Track t = tracks.get(s.trackId());
            if (t.kind() == TrackKind.CPU) {
                long tid = Long.parseLong(s.argsJson().replaceAll(".*\"tid\":(-?\\d+).*", "$1"));
                lanes.add(t.name() + " " + s.ts() + " " + s.dur() + " " + s.name() + " " + tid);
            } else {
                states.computeIfAbsent(tidOfTrack.get(t.id()), k -> new ArrayList<>()).add(s);
            }
        }
        assertEquals(expectedLanes, lanes, fixture + ": CPU lanes");

        // Thread states: contiguous, running exactly when the lanes say, runnable ending at a switch-in, blocked
        // starting at a sleeping switch-out and ending at a wakeup.
        Map<Long, Set<Long>> ins = new HashMap<>();
        Map<Long, Set<Long>> sleeps = new HashMap<>();
        Map<Long, Set<Long>> wakeups = new HashMap<>();
        for (Raw r : raw) {
            if (!r.name().matches("sched_(switch|wakeup|waking|wakeup_new)")) {
                continue;
            }
            if (r.name().equals("sched_switch")) {
                ins.computeIfAbsent(r.num("next_tid", "next_pid"), k -> new HashSet<>()).add(r.ns());
                long st = r.num("prev_state");
                // asleep unless preempted: 0, or the kernel's lone preemption bit (256 since 4.14, 1024+ before)
                if (!(st == 0 || Long.bitCount(st) == 1 && st >= 256 && st != 512)) {
                    sleeps.computeIfAbsent(r.num("prev_tid", "prev_pid"), k -> new HashSet<>()).add(r.ns());
                }
            } else {
                wakeups.computeIfAbsent(r.num("tid", "pid"), k -> new HashSet<>()).add(r.ns());
            }
        }
        int blocked = 0;
        int runnable = 0;
        for (var en : states.entrySet()) {
            long tid = en.getKey();
            List<Slice> s = en.getValue();
            s.sort(java.util.Comparator.comparingLong(Slice::ts));
            long running = 0;
            int runs = 0;
            for (int i = 0; i < s.size(); i++) {
                Slice x = s.get(i);
                if (i > 0) {
                    assertEquals(s.get(i - 1).ts() + s.get(i - 1).dur(), x.ts(), fixture + " tid " + tid + " gap");
                }
                boolean last = i == s.size() - 1;
                switch (x.name()) {
                    case "running" -> {
                        running += x.dur();
                        runs++;
                    }
                    case "runnable" -> {
                        runnable++;
                        assertTrue(last || ins.getOrDefault(tid, Set.of()).contains(x.ts() + x.dur()),
                                fixture + " tid " + tid + ": runnable ends at a switch-in " + x);
                    }
                    case "blocked" -> {
                        blocked++;
                        assertTrue(sleeps.getOrDefault(tid, Set.of()).contains(x.ts()),
                                fixture + " tid " + tid + ": blocked starts at a sleeping switch-out " + x);
                        assertTrue(last || wakeups.getOrDefault(tid, Set.of()).contains(x.ts() + x.dur()),
                                fixture + " tid " + tid + ": blocked ends at a wakeup " + x);
                    }
                    default -> throw new AssertionError("unexpected state " + x.name());
                }
                assertEquals(last ? end : x.ts() + x.dur(), x.ts() + x.dur(), fixture + " tid " + tid + " end");
            }
            assertEquals(runningByTid.getOrDefault(tid, 0L), running, fixture + " tid " + tid + " running ns");
            assertEquals(switchIns.getOrDefault(tid, 0), runs, fixture + " tid " + tid + " switch-ins");
        }
        assertEquals(runningByTid.keySet(), states.keySet().stream().filter(runningByTid::containsKey)
                .collect(java.util.stream.Collectors.toSet()), fixture + ": every thread that ran has a track");
        assertTrue(blocked > 10 && runnable > 10, fixture + ": blocked " + blocked + ", runnable " + runnable);
        assertTrue(sink.instants.stream().noneMatch(i -> i.name().contains("sched_switch")),
                fixture + ": switches are not also kept as instants");

        // Wakeup flows, replayed from the raw events: a thread known to be blocked is woken while a thread runs on
        // the CPU that recorded the wakeup, outside any interrupt handler when the trace records them.
        boolean irqs = raw.stream().anyMatch(r -> r.name().contains("irq"));
        Map<Long, Long> onCpu = new HashMap<>();
        Map<Long, Integer> depth = new HashMap<>();
        Map<Long, String> state = new HashMap<>();
        Set<String> expectedFlows = new HashSet<>();
        for (Raw r : raw) {
            long cpu = r.num("perf_cpu", "cpu_id");
            if (r.name().startsWith("sys") || r.name().startsWith("exit_syscall")) {
                continue;
            }
            switch (r.name()) {
                case "irq_handler_entry", "softirq_entry" -> depth.merge(cpu, 1, Integer::sum);
                case "irq_handler_exit", "softirq_exit" -> depth.merge(cpu, -1, (a, b) -> Math.max(0, a + b));
                case "sched_switch" -> {
                    long prev = r.num("prev_tid", "prev_pid");
                    long st = r.num("prev_state");
                    state.put(prev, st == 0 || Long.bitCount(st) == 1 && st >= 256 && st != 512 ? "runnable"
                            : "blocked");
                    onCpu.put(cpu, r.num("next_tid", "next_pid"));
                    state.put(r.num("next_tid", "next_pid"), "running");
                }
                case "sched_wakeup", "sched_waking", "sched_wakeup_new" -> {
                    long tid = r.num("tid", "pid");
                    if (tid > 0 && "blocked".equals(state.get(tid))) {
                        long waker = onCpu.getOrDefault(cpu, 0L);
                        if (waker > 0 && "running".equals(state.get(waker))
                                && (!irqs || depth.getOrDefault(cpu, 0) == 0)) {
                            expectedFlows.add(waker + " -> " + tid + " at " + r.ns());
                        }
                    }
                    if (tid > 0 && (state.get(tid) == null || "blocked".equals(state.get(tid)))) {
                        state.put(tid, "runnable");
                    }
                }
            }
        }
        Map<Long, Slice> sliceById = new HashMap<>();
        for (Slice x : sink.slices) {
            sliceById.put(x.id(), x);
        }
        Set<String> flows = new HashSet<>();
        for (var fl : sink.flows) {
            if (!fl.kind().equals("wakeup")) {
                continue;
            }
            assertEquals(irqs ? org.hetscope.model.FlowRule.SOURCE : org.hetscope.model.FlowRule.TIME, fl.rule());
            Slice from = sliceById.get(fl.fromSliceId());
            Slice to = sliceById.get(fl.toSliceId());
            assertEquals("running", from.name());
            assertEquals("runnable", to.name());
            assertTrue(from.ts() <= to.ts() && to.ts() <= from.ts() + from.dur(), "waker runs at the wakeup " + fl);
            flows.add(tidOfTrack.get(from.trackId()) + " -> " + tidOfTrack.get(to.trackId()) + " at " + to.ts());
        }
        assertEquals(expectedFlows, flows, fixture + ": wakeup flows");
        assertTrue(flows.size() > 10, fixture + ": wakeup flows " + flows.size());

        // System calls: entered by the thread running on the entry's CPU, ended by the next exit recorded while
        // that thread runs (on whichever CPU); interrupt handlers: a stack per CPU.
        Map<Long, Long> current = new HashMap<>();
        Map<Long, String[]> open = new HashMap<>(); // tid -> {name, start}
        Map<Long, java.util.ArrayDeque<String[]>> handlerStacks = new HashMap<>();
        Set<String> expectedCalls = new HashSet<>();
        Set<String> expectedHandlers = new HashSet<>();
        String[] softirqs = {"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER",
            "RCU"};
        for (Raw r : raw) {
            long cpu = r.num("perf_cpu", "cpu_id");
            String n = r.name();
            if (n.equals("sched_switch")) {
                current.put(cpu, r.num("next_tid", "next_pid"));
            } else if (n.startsWith("sys_") || n.startsWith("syscall_entry_")) {
                long tid = current.getOrDefault(cpu, 0L);
                if (tid > 0) {
                    String[] prev = open.put(tid, new String[] {n.replaceFirst("^(sys_|syscall_entry_)", ""),
                        Long.toString(r.ns())});
                    if (prev != null) {
                        expectedCalls.add(tid + " " + prev[0] + " " + prev[1] + " " + (r.ns() - Long.parseLong(prev[1])));
                    }
                }
            } else if (n.equals("exit_syscall") || n.startsWith("syscall_exit_")) {
                long tid = current.getOrDefault(cpu, 0L);
                String[] o = tid > 0 ? open.remove(tid) : null;
                if (o != null) {
                    expectedCalls.add(tid + " " + o[0] + " " + o[1] + " " + (r.ns() - Long.parseLong(o[1])));
                }
            } else if (n.endsWith("_entry")) {
                String label = n.startsWith("irq") ? "irq " + r.f().get("irq") + " " + r.f().get("name")
                        : "softirq " + softirqs[Integer.parseInt(r.f().get("vec"))];
                handlerStacks.computeIfAbsent(cpu, k -> new java.util.ArrayDeque<>())
                        .push(new String[] {label, Long.toString(r.ns())});
            } else if (n.endsWith("_exit") && n.contains("irq")) {
                var stack = handlerStacks.get(cpu);
                if (stack != null && !stack.isEmpty()) {
                    String[] h = stack.pop();
                    expectedHandlers.add("CPU " + cpu + " " + h[0] + " " + h[1] + " "
                            + (r.ns() - Long.parseLong(h[1])) + " " + stack.size());
                }
            }
        }
        for (var en : open.entrySet()) {
            String[] o = en.getValue();
            expectedCalls.add(en.getKey() + " " + o[0] + " " + o[1] + " " + (end - Long.parseLong(o[1])));
        }
        for (var en : handlerStacks.entrySet()) {
            var stack = en.getValue();
            while (!stack.isEmpty()) {
                String[] h = stack.pop();
                expectedHandlers.add("CPU " + en.getKey() + " " + h[0] + " " + h[1] + " "
                        + (end - Long.parseLong(h[1])) + " " + stack.size());
            }
        }
        Set<String> calls = new HashSet<>();
        Set<String> handlersSeen = new HashSet<>();
        for (Slice x : sink.slices) {
            Track t = tracks.get(x.trackId());
            if ("syscall".equals(x.sourceCategory())) {
                assertEquals("syscalls", t.name());
                calls.add(tidOfTrack.get(t.parentId()) + " " + x.name() + " " + x.ts() + " " + x.dur());
            } else if ("interrupt".equals(x.sourceCategory())) {
                handlersSeen.add(tracks.get(t.parentId()).name() + " " + x.name() + " " + x.ts() + " " + x.dur()
                        + " " + x.depth());
            }
        }
        assertEquals(expectedCalls, calls, fixture + ": system calls");
        assertEquals(expectedHandlers, handlersSeen, fixture + ": interrupt handlers");
        // Each thread under its process: the statedump's or the fork's thread group (LTTng), or perf's perf_pid.
        Map<Long, Long> expectedPid = new HashMap<>();
        for (Raw r : raw) {
            if (r.name().equals("lttng_statedump_process_state")) {
                expectedPid.put(r.num("tid"), r.num("pid"));
            } else if (r.name().equals("sched_process_fork") && r.f().containsKey("child_tid")) {
                expectedPid.put(r.num("child_tid"), r.num("child_pid"));
            } else if (r.f().containsKey("perf_tid") && r.name().startsWith("sched_")) {
                expectedPid.putIfAbsent(r.num("perf_tid"), r.num("perf_pid"));
            }
        }
        Map<Long, Long> pidOfProcess = new HashMap<>();
        for (var p : sink.processes) {
            pidOfProcess.put(p.id(), p.pid());
        }
        int grouped = 0;
        for (var th : sink.threads) {
            if (states.containsKey(th.tid())) {
                Long expected = expectedPid.get(th.tid());
                assertEquals(expected == null ? -1L : expected, pidOfProcess.get(th.processId()),
                        fixture + ": process of thread " + th.tid());
                grouped += expected == null ? 0 : 1;
            }
        }
        assertTrue(grouped > 3, fixture + ": threads under their process: " + grouped);
        if (fixture.equals("bug446190")) {
            assertTrue(calls.size() > 1000 && handlersSeen.size() > 2000,
                    "calls " + calls.size() + ", handlers " + handlersSeen.size());
            assertTrue(handlersSeen.stream().anyMatch(h -> h.endsWith(" 1")), "a handler nested in another");
        }
    }
}
