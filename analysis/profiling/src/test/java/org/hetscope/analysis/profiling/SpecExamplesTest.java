package org.hetscope.analysis.profiling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.hetscope.model.FlowRule;
import org.junit.jupiter.api.Test;

/** The worked examples of the spec (§2.1, §2.2, §2.4, §2.7 and the derived-counter rule). */
class SpecExamplesTest {

    @Test
    void subLanesOfTheSpecExample() {
        List<SubLanes.Interval> in = List.of(new SubLanes.Interval(1, 0, 10), new SubLanes.Interval(2, 5, 15),
                new SubLanes.Interval(3, 10, 12), new SubLanes.Interval(4, 16, 20));
        assertArrayEquals(new int[] {0, 1, 0, 0}, SubLanes.assign(in));
    }

    @Test
    void subLanesNeverOverlapAndUseTheMaximumDepth() {
        Random rnd = new Random(3);
        for (int round = 0; round < 50; round++) {
            List<SubLanes.Interval> in = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                long s = rnd.nextInt(1000);
                in.add(new SubLanes.Interval(i, s, s + 1 + rnd.nextInt(80)));
            }
            int[] lane = SubLanes.assign(in);
            int lanes = 0;
            for (int i = 0; i < in.size(); i++) {
                lanes = Math.max(lanes, lane[i] + 1);
                for (int j = i + 1; j < in.size(); j++) {
                    if (lane[i] == lane[j]) {
                        assertTrue(in.get(i).end() <= in.get(j).start() || in.get(j).end() <= in.get(i).start());
                    }
                }
            }
            // brute force: the largest number of intervals covering one instant
            int depth = 0;
            for (long t = 0; t < 1100; t++) {
                int d = 0;
                for (SubLanes.Interval iv : in) {
                    if (iv.start() <= t && t < iv.end()) {
                        d++;
                    }
                }
                depth = Math.max(depth, d);
            }
            assertEquals(depth, lanes);
        }
    }

    @Test
    void rooflineGolden() {
        Roofline r = new Roofline(10e12, 400e9);
        assertEquals(25, r.ridge(), 1e-12);
        Roofline.Point p = r.point(1, "k", 1e9, 1e8, 1_000_000);
        assertEquals(10, p.intensity(), 1e-12);
        assertEquals(1e12, p.performance(), 1);
        assertEquals(4e12, p.attainable(), 1);
        assertEquals("memory", p.bound());
        assertEquals(0.25, p.efficiency(), 1e-12);
        assertEquals("compute", r.point(2, "k", 1e10, 1e8, 1_000_000).bound());
    }

    @Test
    void derivedCounters() {
        Set<String> known = Set.of("FETCH_SIZE", "WRITE_SIZE", "SQ_WAVES", "VALUBusy");
        CounterExpression e = CounterExpression.parse("x", "(FETCH_SIZE + WRITE_SIZE) * 1024 / SQ_WAVES - 2", known);
        List<String> warnings = new ArrayList<>();
        assertEquals((3.0 + 5.0) * 1024 / 4 - 2, e.evaluate(Map.of("FETCH_SIZE", 3.0, "WRITE_SIZE", 5.0,
                "SQ_WAVES", 4.0), warnings::add));
        assertTrue(warnings.isEmpty());
        assertEquals(-1.0 - 2 * 3, CounterExpression.parse("y", "-1 - 2*3", known).evaluate(Map.of(), w -> { }));
        double v = e.evaluate(Map.of("FETCH_SIZE", 3.0, "WRITE_SIZE", 5.0, "SQ_WAVES", 0.0), warnings::add);
        assertTrue(Double.isNaN(v));
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("division by zero"));
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> CounterExpression.parse("z", "FETCH_SIZE / TA_BUSY", known));
        assertTrue(unknown.getMessage().contains("TA_BUSY"));
        assertThrows(IllegalArgumentException.class, () -> CounterExpression.parse("z", "(FETCH_SIZE", known));
        assertThrows(IllegalArgumentException.class, () -> CounterExpression.parse("z", "FETCH_SIZE % 2", known));
    }

    @Test
    void counterStepSeriesAndOverlapFlags() {
        Map<String, Double> a = new LinkedHashMap<>(Map.of("C", 2.0));
        Map<String, Double> b = new LinkedHashMap<>(Map.of("C", 8.0));
        Map<String, Double> c = new LinkedHashMap<>(Map.of("C", 4.0));
        KernelCounters kc = new KernelCounters(List.of(
                new KernelCounters.Dispatch(1, "k1", 0, 10, 1L, a),
                new KernelCounters.Dispatch(2, "k2", 20, 30, 1L, b),
                new KernelCounters.Dispatch(3, "k1", 25, 40, 1L, c)));
        var t = kc.series("C", 0, 100);
        assertEquals(3, t.size());
        assertEquals(10L, t.get(0, "ts"));
        assertEquals(0.25, (Double) t.get(0, "scaled"), 1e-12);
        assertEquals(1.0, (Double) t.get(1, "scaled"), 1e-12);
        assertEquals(Set.of(2L, 3L), kc.overlapped());
        kc.derive("D=C*2");
        var per = kc.perKernel();
        boolean found = false;
        for (Object[] r : per.rows()) {
            if (r[0].equals("k1") && r[1].equals("D")) {
                assertEquals(2L, r[2]);
                assertEquals(6.0, (Double) r[3], 1e-12);
                found = true;
            }
        }
        assertTrue(found);
    }

    private static Span call(long id, long ts, String name, Long corr, Long stream) {
        return new Span(id, ts, 5, name, "api", corr, 1L, null, stream, 1, true, null);
    }

    private static Span kernel(long id, long ts, Long corr, long stream) {
        return new Span(id, ts, 10, "k", "kernel", corr, 1L, 7L, stream, 2, false, null);
    }

    @Test
    void flowRulesInOrder() {
        List<Span> calls = List.of(
                call(1, 100, "cudaLaunchKernel", 11L, null),
                call(2, 200, "cudaLaunchKernel", null, 3L),
                call(3, 300, "cudaLaunchKernel", null, 3L),
                call(4, 1000, "cudaLaunchKernel", null, null),
                call(5, 1000, "cudaLaunchKernel", null, null),
                call(6, 1500, "cudaMemcpyAsync", null, null),
                call(7, 5000, "cudaLaunchKernel", null, null));
        List<Span> acts = new ArrayList<>(List.of(
                kernel(10, 150, 11L, 1),
                kernel(11, 400, null, 3),
                kernel(12, 410, null, 3),
                kernel(13, 1600, null, 5),
                kernel(14, 2000, null, 5),
                kernel(15, 4500, null, 5)));
        List<FlowMatcher.Match> m = new FlowMatcher(1000).match(calls, acts);
        Map<Long, String> got = new LinkedHashMap<>();
        for (FlowMatcher.Match x : m) {
            got.put(x.activity().id(), x.call().id() + ":" + x.rule());
        }
        assertEquals("1:" + FlowRule.CORRELATION, got.get(10L));
        assertEquals("2:" + FlowRule.FIFO, got.get(11L));
        assertEquals("3:" + FlowRule.FIFO, got.get(12L));
        // two calls at 1000: the lower sequence number wins the tie; the memcpy call cannot launch a kernel
        assertEquals("4:" + FlowRule.PROCESS_ORDER, got.get(13L));
        assertEquals("5:" + FlowRule.PROCESS_ORDER, got.get(14L));
        // launch order: call 7 is the next launch; it started at 5000, within 4500 + 1000 tolerance
        assertEquals("7:" + FlowRule.PROCESS_ORDER, got.get(15L));
        assertEquals(6, m.size());
    }

    /**
     * Issue 27 item 5: launches running ahead of the device pair in launch order, not with the latest call before
     * each activity; a memset call passed over by its stream's order launched nothing; an activity that starts
     * before any launch call stays unpaired.
     */
    @Test
    void launchesRunningAheadPairInOrder() {
        List<Span> calls = List.of(
                call(1, 0, "cudaLaunchKernel", null, null),
                call(2, 5, "cudaMemsetAsync", null, null),
                call(3, 10, "cudaLaunchKernel", null, null),
                call(4, 20, "cudaLaunchKernel", null, null),
                call(5, 25, "cudaMemsetAsync", null, null));
        List<Span> acts = List.of(
                kernel(9, -5000, null, 8),
                kernel(10, 100, null, 7),
                kernel(11, 110, null, 7),
                kernel(12, 120, null, 7),
                new Span(13, 130, 2, "Memset", "memset", null, 1L, 7L, 7L, 2, false, null));
        Map<Long, String> got = new LinkedHashMap<>();
        for (FlowMatcher.Match x : new FlowMatcher(1000).match(calls, acts)) {
            got.put(x.activity().id(), x.call().id() + ":" + x.rule());
        }
        assertEquals(Map.of(10L, "1:PROCESS_ORDER", 11L, "3:PROCESS_ORDER", 12L, "4:PROCESS_ORDER", 13L,
                "5:PROCESS_ORDER"), got);
    }

    /**
     * Issue 27 item 5: a collective kernel that waits behind another stream's work (12), or starts at once while the
     * compute stream is backed up (13), is not where start order puts it among the launches; the launches made inside
     * a collective op (calls 1 and 6) pair with the collective kernels, the others with the compute kernels.
     */
    @Test
    void collectiveKernelsPairWithTheLaunchesOfCollectiveOps() {
        List<Span> calls = List.of(
                call(1, 0, "cudaLaunchKernel", null, null),
                call(2, 10, "cudaLaunchKernel", null, null),
                call(3, 20, "cudaLaunchKernel", null, null),
                call(4, 1000, "cudaLaunchKernel", null, null),
                call(5, 1010, "cudaLaunchKernel", null, null),
                call(6, 1020, "cudaLaunchKernel", null, null));
        Span waiting = new Span(12, 500, 400, "ncclKernel_AllReduce_RING_LL_Sum_float", "kernel", null, 1L, 7L, 84L, 3,
                false, null);
        Span prompt = new Span(13, 1030, 400, "ncclDevKernel_AllGather_RING_LL", "kernel", null, 1L, 7L, 84L, 3,
                false, null);
        List<Span> acts = List.of(kernel(10, 100, null, 7), kernel(11, 110, null, 7), waiting, prompt,
                kernel(14, 1500, null, 7), kernel(15, 1510, null, 7));
        Map<Long, String> got = new LinkedHashMap<>();
        for (FlowMatcher.Match x : new FlowMatcher(1000).match(calls, acts, Set.of(1L, 6L))) {
            got.put(x.activity().id(), x.call().id() + ":" + x.rule());
        }
        assertEquals(Map.of(10L, "2:PROCESS_ORDER", 11L, "3:PROCESS_ORDER", 12L, "1:PROCESS_ORDER",
                13L, "6:PROCESS_ORDER", 14L, "4:PROCESS_ORDER", 15L, "5:PROCESS_ORDER"), got);
        // without the host ops start order alone pairs them one off
        Map<Long, Long> plain = new LinkedHashMap<>();
        for (FlowMatcher.Match x : new FlowMatcher(1000).match(calls, acts)) {
            plain.put(x.activity().id(), x.call().id());
        }
        assertEquals(Map.of(10L, 1L, 11L, 2L, 12L, 3L, 13L, 4L, 14L, 5L, 15L, 6L), plain);
    }

    @Test
    void syncArrows() {
        List<Span> acts = List.of(kernel(10, 0, null, 1), kernel(11, 5, null, 2), kernel(12, 100, null, 1));
        Span dev = new Span(20, 8, 10, "cudaDeviceSynchronize", "sync", null, 1L, null, null, 1, true, null);
        Span str = new Span(21, 8, 10, "cudaStreamSynchronize", "sync", null, 1L, null, 1L, 1, true, null);
        Span early = new Span(22, 0, 2, "cudaDeviceSynchronize", "sync", null, 1L, null, null, 1, true, null);
        List<SyncArrows.Arrow> arrows = new SyncArrows(0).arrows(List.of(dev, str, early), acts, List.of());
        assertEquals(2, arrows.size());
        assertEquals(11L, arrows.get(0).activity().id()); // device sync: the last-ending activity (ends at 15)
        assertEquals(10L, arrows.get(1).activity().id()); // stream 1: only kernel 10 ended by 18
    }
}
