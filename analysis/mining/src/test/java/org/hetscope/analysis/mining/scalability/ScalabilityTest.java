package org.hetscope.analysis.mining.scalability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.hetscope.analysis.mining.itemsets.MinSupport;
import org.hetscope.analysis.mining.memtrace.AccessEvent;
import org.hetscope.analysis.mining.memtrace.AccessType;
import org.junit.jupiter.api.Test;

/** Spec section 7 examples. */
class ScalabilityTest {
    private static AccessEvent at(long pc, long latency) {
        return AccessEvent.of(0, 0, pc, AccessType.INST, pc, latency);
    }

    @Test
    void featuresPerAddress() {
        List<AddressFeature> f = AddressProfile.of(List.of(at(0x10, 10), at(0x10, 30), at(0x20, 40), at(0x30, 20)),
                false);
        assertEquals(3, f.size());
        double[][] expected = {{40, 50}, {40, 25}, {20, 25}};
        for (int i = 0; i < 3; i++) {
            assertEquals(0x10L * (i + 1), f.get(i).address());
            assertEquals(expected[i][0], f.get(i).pctTime(), 1e-12);
            assertEquals(expected[i][1], f.get(i).pctAccesses(), 1e-12);
        }
    }

    @Test
    void deterministicTwoMeans() {
        double[] x = {1, 2, 1, 30, 32};
        double[] y = {1, 1, 2, 40, 38};
        TwoMeans.Clustering c = TwoMeans.cluster(x, y, new long[] {1, 2, 3, 4, 5});
        assertArrayEquals(new int[] {0, 0, 0, 1, 1}, c.cluster());
        assertEquals(4.0 / 3, c.cx()[0], 1e-12);
        assertEquals(4.0 / 3, c.cy()[0], 1e-12);
        assertEquals(31, c.cx()[1], 1e-12);
        assertEquals(39, c.cy()[1], 1e-12);
        assertEquals(1, c.hot());
        assertEquals(2, c.size(1));
        // Fewer than two distinct points: no hot cluster.
        assertEquals(-1, TwoMeans.cluster(new double[] {3, 3}, new double[] {4, 4}, new long[] {1, 2}).hot());
    }

    @Test
    void growthRateAndZeroGuard() {
        double base = Math.hypot(10 - 1, 10 - 1);
        double four = Math.hypot(20 - 1, 25 - 1);
        assertEquals(12.727922, base, 5e-7);
        assertEquals(30.610456, four, 5e-7);
        assertEquals(2.404985, ScalabilityAnalysis.growthRate(base, four), 5e-7);
        assertTrue(Double.isNaN(ScalabilityAnalysis.growthRate(0, four)));
    }

    @Test
    void crossPlatformHotSets() {
        List<Set<String>> hot = List.of(Set.of("0x01", "0x02", "0x03", "0x9", "0x10"),
                Set.of("0x11", "0x12", "0x13", "0x19", "0x20"), Set.of("0x31", "0x32", "0x33", "0x19", "0x20"));
        assertEquals(List.of("0x19 0x20 (2)"),
                ScalabilityAnalysis.mineHotSets(hot, MinSupport.atLeast(2)).stream().map(Object::toString).toList());
    }

    @Test
    void endToEndGrowingSpinIsAHotspot() {
        // Two runs: the spin address 0x100 takes 10% of the time on 1 core and 60% on 4; others stay flat.
        List<Run> runs = List.of(run("r1", 1, 10), run("r4", 4, 60));
        ScalabilityAnalysis.Result r = ScalabilityAnalysis.analyse(runs,
                new ScalabilityAnalysis.Config(false, MinSupport.atLeast(2), null));
        assertTrue(r.baselineIsSingleCore());
        assertEquals(Set.of("0x100"), r.runs().get(1).hot());
        assertEquals(1, r.hotSets().size());
        assertEquals(List.of("0x100"), r.hotSets().get(0).itemset().items());
        assertTrue(r.hotSets().get(0).hotspot());
        assertTrue(r.runs().get(1).growthRate() > 1);
        assertEquals(1.0, r.runs().get(0).growthRate(), 1e-12);
    }

    private static Run run(String name, int cores, int spinShare) {
        List<AccessEvent> ev = new ArrayList<>();
        for (int i = 0; i < spinShare; i++) {
            ev.add(at(0x100, 10));
        }
        for (int a = 0; a < 100 - spinShare; a++) {
            ev.add(at(0x1000 + 4L * a, 10));
        }
        return new Run(name, cores, ev);
    }
}
