package org.hetscope.analysis.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.formats.ctf.mapping.CtfTraceFormat;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Flow;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.hetscope.store.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduling tables (SQL over the store) of the LTTng kernel fixture against the same figures summed here in
 * Java over the records the reader produced, collected in memory.
 */
class SchedulingTest {
    static final Path FIXTURE = Path.of(System.getProperty("hetscope.root", "."))
            .resolve("../shared/fixtures/ctf/bug446190");

    @TempDir
    static Path dir;
    static Store store;
    static CollectingSink model = new CollectingSink();
    static Map<Long, Track> tracks = new HashMap<>();

    @BeforeAll
    static void importFixture() throws Exception {
        Path file = dir.resolve("kernel.duckdb");
        StoreWriter writer = StoreWriter.create(file);
        new CtfTraceFormat().read(FIXTURE, writer, Progress.NONE);
        writer.commit();
        store = Store.open(file);
        new CtfTraceFormat().read(FIXTURE, model, Progress.NONE);
        for (Track t : model.tracks) {
            tracks.put(t.id(), t);
        }
    }

    @AfterAll
    static void close() {
        store.close();
    }

    static Map<String, Integer> columns(Table t) {
        Map<String, Integer> c = new HashMap<>();
        for (int i = 0; i < t.columns().size(); i++) {
            c.put(t.columns().get(i), i);
        }
        return c;
    }

    @Test
    void cpuBusyTimeIsTheSumOfItsLaneSlices() {
        Map<String, long[]> expected = new HashMap<>(); // cpu name -> {stretches, busy ns}
        long t0 = Long.MAX_VALUE;
        long t1 = Long.MIN_VALUE;
        for (Slice s : model.slices) {
            if (!"sched".equals(s.sourceCategory())) {
                continue;
            }
            t0 = Math.min(t0, s.ts());
            t1 = Math.max(t1, s.ts() + s.dur());
            Track t = tracks.get(s.trackId());
            if (t.kind() == TrackKind.CPU) {
                long[] e = expected.computeIfAbsent(t.name(), k -> new long[2]);
                e[0]++;
                e[1] += s.dur();
            }
        }
        Scheduling sched = new Scheduling(store);
        assertTrue(sched.present());
        Table cpus = sched.cpus();
        Map<String, Integer> c = columns(cpus);
        assertEquals(4, cpus.size());
        for (Object[] r : cpus.rows()) {
            long[] e = expected.get((String) r[c.get("cpu")]);
            assertEquals(e[0], (Long) r[c.get("stretches")], (String) r[c.get("cpu")]);
            assertEquals(e[1], (Long) r[c.get("busy_ns")], (String) r[c.get("cpu")]);
            // the exact share, as every other *_pct of --csv/--json (before: rounded to 2 decimals in SQL)
            assertEquals(100.0 * e[1] / (t1 - t0), (Double) r[c.get("busy_pct")], 1e-12);
        }
    }

    @Test
    void threadTimesAndLongestWaitsMatchTheStates() {
        Map<Long, Long> tidOfTrack = new HashMap<>();
        for (var th : model.threads) {
            for (Track t : model.tracks) {
                if (t.kind() == TrackKind.THREAD && t.threadId() != null && t.threadId() == th.id()) {
                    tidOfTrack.put(t.id(), th.tid());
                }
            }
        }
        Map<Long, long[]> expected = new HashMap<>(); // tid -> running ns, switch-ins, runnable ns, max wait, blocked
        List<Slice> waits = new ArrayList<>();
        for (Slice s : model.slices) {
            Long tid = tidOfTrack.get(s.trackId());
            if (tid == null || !"sched".equals(s.sourceCategory())) {
                continue;
            }
            long[] e = expected.computeIfAbsent(tid, k -> new long[5]);
            switch (s.name()) {
                case "running" -> {
                    e[0] += s.dur();
                    e[1]++;
                }
                case "runnable" -> {
                    e[2] += s.dur();
                    e[3] = Math.max(e[3], s.dur());
                    if (s.argsJson() == null) {
                        waits.add(s);
                    }
                }
                default -> e[4] += s.dur();
            }
        }
        Scheduling sched = new Scheduling(store);
        Table threads = sched.threads(10_000);
        Map<String, Integer> c = columns(threads);
        assertEquals(expected.size(), threads.size());
        long previous = Long.MAX_VALUE;
        for (Object[] r : threads.rows()) {
            long[] e = expected.get((Long) r[c.get("tid")]);
            assertEquals(e[0], (Long) r[c.get("running_ns")]);
            assertEquals(e[1], (Long) r[c.get("switch_ins")]);
            assertEquals(e[2], (Long) r[c.get("runnable_ns")]);
            assertEquals(e[4], (Long) r[c.get("blocked_ns")]);
            if (e[3] > 0) {
                assertEquals(e[3], (Long) r[c.get("max_wait_ns")]);
            }
            assertTrue(e[0] <= previous, "most running first");
            previous = e[0];
        }

        waits.sort(Comparator.comparingLong(Slice::dur).reversed().thenComparingLong(Slice::ts));
        Table worst = sched.latencies(5);
        Map<String, Integer> w = columns(worst);
        assertEquals(5, worst.size());
        Map<Long, Flow> wakeupInto = new HashMap<>();
        for (Flow f : model.flows) {
            if (f.kind().equals("wakeup")) {
                wakeupInto.put(f.toSliceId(), f);
            }
        }
        Map<Long, Slice> byId = new HashMap<>();
        for (Slice s : model.slices) {
            byId.put(s.id(), s);
        }
        for (int i = 0; i < 5; i++) {
            Object[] r = worst.rows().get(i);
            Slice s = waits.get(i);
            assertEquals(s.dur(), (Long) r[w.get("wait_ns")]);
            assertEquals(s.ts(), (Long) r[w.get("ts")]);
            assertEquals(tidOfTrack.get(s.trackId()), (Long) r[w.get("tid")]);
            Flow f = wakeupInto.get(s.id());
            if (f == null) {
                assertNull(r[w.get("woken_by_tid")]);
            } else {
                assertEquals(tidOfTrack.get(byId.get(f.fromSliceId()).trackId()), (Long) r[w.get("woken_by_tid")]);
            }
        }
        assertFalse(waits.isEmpty());
    }

    @Test
    void processTimesAreTheSumsOverTheirThreads() {
        Map<Long, Long> pidOfProcess = new HashMap<>();
        for (var p : model.processes) {
            pidOfProcess.put(p.id(), p.pid());
        }
        Map<Long, long[]> expected = new HashMap<>(); // pid -> running, runnable, blocked
        for (Slice s : model.slices) {
            Track t = tracks.get(s.trackId());
            if (!"sched".equals(s.sourceCategory()) || t.kind() != TrackKind.THREAD) {
                continue;
            }
            long[] e = expected.computeIfAbsent(pidOfProcess.get(t.processId()), k -> new long[3]);
            e[s.name().equals("running") ? 0 : s.name().equals("runnable") ? 1 : 2] += s.dur();
        }
        Table processes = new Scheduling(store).processes(10_000);
        Map<String, Integer> c = columns(processes);
        assertEquals(expected.size(), processes.size());
        for (Object[] r : processes.rows()) {
            long[] e = expected.get((Long) r[c.get("pid")]);
            assertEquals(e[0], (Long) r[c.get("running_ns")]);
            assertEquals(e[1], (Long) r[c.get("runnable_ns")]);
            assertEquals(e[2], (Long) r[c.get("blocked_ns")]);
        }
        assertTrue(processes.size() > 5, "processes: " + processes.size());
    }

    @Test
    void systemCallTotalsAreTheSumsOfTheirSlices() {
        Map<String, long[]> expected = new HashMap<>(); // name -> calls, total, max, unfinished
        for (Slice s : model.slices) {
            if ("syscall".equals(s.sourceCategory())) {
                long[] e = expected.computeIfAbsent(s.name(), k -> new long[4]);
                e[0]++;
                e[1] += s.dur();
                e[2] = Math.max(e[2], s.dur());
                e[3] += s.argsJson().contains("\"unfinished\":true") ? 1 : 0;
            }
        }
        Table calls = new Scheduling(store).systemCalls(10_000);
        Map<String, Integer> c = columns(calls);
        assertEquals(expected.size(), calls.size());
        long previous = Long.MAX_VALUE;
        for (Object[] r : calls.rows()) {
            long[] e = expected.get((String) r[c.get("call")]);
            assertEquals(e[0], (Long) r[c.get("calls")]);
            assertEquals(e[1], (Long) r[c.get("total_ns")]);
            assertEquals(e[2], (Long) r[c.get("max_ns")]);
            assertEquals(e[3], (Long) r[c.get("unfinished")]);
            assertTrue(e[1] <= previous, "most total time first");
            previous = e[1];
        }
        assertTrue(calls.size() > 20, "distinct calls: " + calls.size());
    }

    @Test
    void aStoreWithoutSchedulerStatesSaysSo() throws Exception {
        Path file = dir.resolve("ust.duckdb");
        StoreWriter writer = StoreWriter.create(file);
        new CtfTraceFormat().read(FIXTURE.resolveSibling("cyg-profile"), writer, Progress.NONE);
        writer.commit();
        try (Store s = Store.open(file)) {
            assertFalse(new Scheduling(s).present());
        }
    }
}
