package org.hetscope.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.model.Category;
import org.hetscope.model.CounterSample;
import org.hetscope.model.Entity;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceProcess;
import org.hetscope.model.TraceThread;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The time-range macros of the standard library (docs/stdlib.md, "Time ranges") on a worked example computed by
 * hand. Times are offsets from B: a thread with "outer" [0,100) holding "inner" [20,50), then the states blocked
 * [100,200) and running [200,300); a counter sampled 5 at 0, 10 at 100 and 1 at 300.
 */
class SelectionLibraryTest {
    static final long B = 1_000_000_000L;

    @TempDir
    static Path dir;
    static Path file;
    static long threadTrack;

    @BeforeAll
    static void write() throws Exception {
        file = dir.resolve("sel.duckdb");
        try (StoreWriter w = StoreWriter.create(file)) {
            long pid = w.newId(Entity.PROCESS);
            w.process(new TraceProcess(pid, 10, "app"));
            long tid = w.newId(Entity.THREAD);
            w.thread(new TraceThread(tid, 11, pid, "main"));
            Track proc = new Track(w.newId(Entity.TRACK), null, TrackKind.PROCESS, "app", pid, null, null, null, 0, null);
            w.track(proc);
            Track th = new Track(w.newId(Entity.TRACK), proc.id(), TrackKind.THREAD, "main", pid, tid, null, null, 1,
                    null);
            w.track(th);
            threadTrack = th.id();
            Track ctr = new Track(w.newId(Entity.TRACK), null, TrackKind.COUNTER, "queue", null, null, null, null, 2,
                    "items");
            w.track(ctr);
            slice(w, th.id(), 0, 100, "outer", Category.CPU_OP);
            slice(w, th.id(), 20, 30, "inner", Category.CPU_OP);
            slice(w, th.id(), 100, 100, "blocked", Category.STATE);
            slice(w, th.id(), 200, 100, "running", Category.STATE);
            w.counter(new CounterSample(ctr.id(), B, 5));
            w.counter(new CounterSample(ctr.id(), B + 100, 10));
            w.counter(new CounterSample(ctr.id(), B + 300, 1));
            w.commit();
        }
    }

    private static void slice(StoreWriter w, long track, long ts, long dur, String name, Category c) {
        w.slice(new Slice(w.newId(Entity.SLICE), track, B + ts, dur, name, c, c.label(), -1, null, null));
    }

    @Test
    void cpuTimeLeavesOutOffCpuStatesAndClipsToTheRange() throws Exception {
        try (Store s = Store.open(file)) {
            // [50, 250): outer's last 50 ns + running's first 50 ns; blocked is not CPU time
            Table t = s.query(null, "SELECT tid, thread, slices, cpu_ns FROM hs_thread_time(?, ?)", B + 50, B + 250);
            assertEquals(1, t.size());
            assertEquals(List.of(11L, "main", 2L, 100L), List.of(t.rows().get(0)), "outer and running count");
            Table p = s.query(null, "SELECT pid, threads, cpu_ns FROM hs_process_time(?, ?)", B + 50, B + 250);
            assertEquals(List.of(10L, 1L, 100L), List.of(p.rows().get(0)));
        }
    }

    @Test
    void counterRangeHoldsTheValueBeforeIt() throws Exception {
        try (Store s = Store.open(file)) {
            Table t = s.query(null, "SELECT samples, min, max, mean, value_at_start, time_mean "
                    + "FROM hs_counter_range(?, ?)", B + 50, B + 250);
            Object[] r = t.rows().get(0);
            assertEquals(1L, r[0]);
            assertEquals(10.0, ((Number) r[1]).doubleValue());
            assertEquals(10.0, ((Number) r[2]).doubleValue());
            assertEquals(10.0, ((Number) r[3]).doubleValue());
            assertEquals(5.0, ((Number) r[4]).doubleValue());
            // 5 held over [50,100) and 10 over [100,250): (5*50 + 10*150) / 200
            assertEquals(8.75, ((Number) r[5]).doubleValue(), 1e-12);
            // before any sample: the mean runs from the first sample
            Table early = s.query(null, "SELECT samples, value_at_start, time_mean FROM hs_counter_range(?, ?)",
                    B - 100, B + 200);
            assertEquals(2L, early.rows().get(0)[0]);
            assertNull(early.rows().get(0)[1]);
            assertEquals((5 * 100 + 10 * 100) / 200.0, ((Number) early.rows().get(0)[2]).doubleValue(), 1e-12);
        }
    }

    @Test
    void callTreeTotalsAndSelfTimesPerPath() throws Exception {
        try (Store s = Store.open(file)) {
            Map<String, long[]> got = new HashMap<>();
            for (Object[] r : s.query(null, "SELECT path, depth, slices, total_ns, self_ns FROM hs_call_tree(?, ?, "
                    + "[" + threadTrack + "]::BIGINT[])", B + 30, B + 1000).rows()) {
                got.put((String) r[0], new long[] {(Long) r[1], (Long) r[2], (Long) r[3], (Long) r[4]});
            }
            assertEquals(4, got.size());
            // outer clipped to [30,100) = 70, inner to [30,50) = 20
            assertEquals(List.of(0L, 1L, 70L, 50L), List.of(box(got.get("outer"))));
            assertEquals(List.of(1L, 1L, 20L, 20L), List.of(box(got.get("outer;inner"))));
            assertEquals(List.of(0L, 1L, 100L, 100L), List.of(box(got.get("blocked"))));
            assertEquals(List.of(0L, 1L, 100L, 100L), List.of(box(got.get("running"))));
        }
    }

    private static Long[] box(long[] a) {
        Long[] out = new Long[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i];
        }
        return out;
    }
}
