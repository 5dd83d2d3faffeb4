package org.hetscope.analysis.mining.contention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hetscope.analysis.mining.itemsets.MinSupport;
import org.hetscope.analysis.mining.memtrace.AccessEvent;
import org.hetscope.analysis.mining.memtrace.AccessType;
import org.hetscope.analysis.mining.windows.LatencyBins;
import org.junit.jupiter.api.Test;

/** Method I and method II examples of spec sections 4 and 5. */
class ContentionTest {
    private static final EventVocabulary FUNCTION_ONLY =
            new EventVocabulary(List.of(SymbolField.FUNCTION), LatencyBins.METHOD_II, false);

    private static AccessEvent ev(long t, int cpu, String symbol, long latency) {
        return new AccessEvent(cpu, t, 0x1000, AccessType.READ, 0x2000L, null, null, null, latency, symbol);
    }

    @Test
    void liuLaylandBounds() {
        double[] expected = {1.000000, 0.828427, 0.756828, 0.724062, 0.708381};
        int[] n = {1, 2, 4, 8, 16};
        for (int i = 0; i < n.length; i++) {
            assertEquals(expected[i], UtilisationBound.liuLayland(n[i]), 5e-7, "n=" + n[i]);
        }
        assertEquals(0.693147, UtilisationBound.LN2, 5e-7);
        assertEquals(UtilisationBound.LN2, UtilisationBound.liuLayland(1_000_000), 1e-6);
    }

    @Test
    void fig52FrequentEventsOfAWindow() {
        Map<Integer, Set<String>> w = Map.of(0, Set.of("A", "B", "C"), 1, Set.of("A", "B"), 2, Set.of("A", "B", "M"),
                3, Set.of("N"));
        assertEquals(Set.of("A", "B"), FrequentEventWindows.frequentEvents(w, 2));
    }

    @Test
    void fig55WindowMatrixGivesA() {
        List<AccessEvent> et = new ArrayList<>();
        for (int cpu = 0; cpu < 2; cpu++) {
            et.add(ev(10, cpu, "A", 1));
            et.add(ev(10, cpu, "B", 1));
            et.add(ev(110, cpu, "A", 1));
            et.add(ev(210, cpu, "C", 1));
        }
        et.add(ev(210, 2, "M", 1)); // a third CPU's lone symbol is not frequent (min_sup_c = 2)
        et.sort(java.util.Comparator.comparingLong(AccessEvent::t));
        FrequentEventWindows.Result r = FrequentEventWindows.analyse(et,
                FrequentEventWindows.Config.defaults(100, 2, MinSupport.atLeast(2))
                        .withVocabulary(FUNCTION_ONLY, false).withOrigin(0L));
        assertEquals(3, r.transactions().size());
        assertEquals(List.of("A", "B"), r.transactions().names(0));
        assertEquals(List.of("A"), r.transactions().names(1));
        assertEquals(List.of("C"), r.transactions().names(2));
        assertEquals(List.of("A (2)"), r.patterns().stream().map(p -> p.itemset().toString()).toList());
    }

    @Test
    void fig56OnlyTheThirdWindowIsContended() {
        List<AccessEvent> et = List.of(ev(10, 0, "A", 30), ev(10, 1, "A", 30), ev(210, 0, "A", 50),
                ev(210, 1, "A", 50), ev(410, 0, "A", 75), ev(410, 1, "A", 75));
        FrequentEventWindows.Result r = FrequentEventWindows.analyse(et,
                FrequentEventWindows.Config.defaults(200, 2, MinSupport.atLeast(2))
                        .withVocabulary(FUNCTION_ONLY, true).withOrigin(0L));
        assertEquals(1, r.patterns().size());
        ContentionPattern p = r.patterns().get(0);
        assertEquals(List.of("CPU0_A", "CPU1_A"), p.items());
        assertEquals(3, p.support());
        double[] u = r.utilisation(p.itemset());
        assertEquals(0.30, u[0], 1e-12);
        assertEquals(0.50, u[1], 1e-12);
        assertEquals(0.75, u[2], 1e-12);
        assertEquals(1, p.contendedWindows());
        assertEquals(0.75, p.maxUtilisation(), 1e-12);
        assertEquals(410, p.timeCovered()); // windows [0,200) [200,400) [400,410]
    }

    @Test
    void methodTwoWindowsExample() {
        List<AccessEvent> et = List.of(ev(0, 0, "a", 5), ev(5, 1, "b", 30), ev(12, 0, "c", 40), ev(14, 2, "a", 5),
                ev(22, 1, "d", 35), ev(40, 2, "a", 5));
        HighLatencyWindows.Result r = HighLatencyWindows.analyse(et,
                HighLatencyWindows.Config.defaults(20, MinSupport.atLeast(2)).withVocabulary(FUNCTION_ONLY)
                        .withThreshold(30.0));
        assertEquals(3, r.seeds());
        assertEquals(2, r.windows().size());
        assertEquals(Set.of("a", "b", "c", "CPU0_a", "CPU1_b", "CPU0_c", "CPU2_a"),
                Set.copyOf(r.transactions().names(0)));
        assertEquals(Set.of("a", "c", "d", "CPU0_c", "CPU2_a", "CPU1_d"), Set.copyOf(r.transactions().names(1)));
        assertEquals(List.of("CPU0_c CPU2_a a c (2)"),
                r.patterns().stream().map(p -> p.itemset().toString()).toList());
        assertEquals(5, r.eventsCovered()); // e6 is in no window
        assertEquals(37, r.patterns().get(0).timeCovered()); // [-5, 15] u [12, 32]
    }

    @Test
    void cpuPrefixExample() {
        // Two windows far apart: t1 = {CPU1_a, CPU2_b, a, b}, t2 = {CPU1_b, CPU2_a, b, a}.
        List<AccessEvent> et = List.of(ev(0, 1, "a", 50), ev(1, 2, "b", 50), ev(1000, 1, "b", 50),
                ev(1001, 2, "a", 50));
        HighLatencyWindows.Config c = HighLatencyWindows.Config.defaults(10, MinSupport.atLeast(2))
                .withVocabulary(FUNCTION_ONLY);
        HighLatencyWindows.Result both = HighLatencyWindows.analyse(et, c);
        assertEquals(2, both.windows().size());
        assertEquals(List.of("a b (2)"), both.patterns().stream().map(p -> p.itemset().toString()).toList());
        HighLatencyWindows.Result prefixedOnly = HighLatencyWindows.analyse(et, c.withItems(false, true));
        assertEquals(List.of(), prefixedOnly.patterns());
    }

    @Test
    void q3SeedsAndHitsAreLeftOut() {
        List<AccessEvent> et = new ArrayList<>();
        long[] lat = {2, 4, 6, 8, 10, 12, 14, 16};
        for (int i = 0; i < lat.length; i++) {
            et.add(ev(i * 100L, 0, "f" + i, lat[i]));
        }
        HighLatencyWindows.Result r = HighLatencyWindows.analyse(et,
                HighLatencyWindows.Config.defaults(10, MinSupport.atLeast(1)).withVocabulary(FUNCTION_ONLY));
        assertEquals(12.5, r.threshold(), 0);
        assertEquals(2, r.seeds()); // 14 and 16
        // With hits at or below 4 cycles left out, L = [6..16]: h = 3.75 -> 12 + 0.75 * 2 = 13.5
        HighLatencyWindows.Result h = HighLatencyWindows.analyse(et,
                HighLatencyWindows.Config.defaults(10, MinSupport.atLeast(1)).withVocabulary(FUNCTION_ONLY)
                        .withHitLatency(4));
        assertEquals(13.5, h.threshold(), 1e-12);
        assertTrue(h.patterns().stream().allMatch(p -> p.support() >= 1));
    }

    @Test
    void methodOneDefaultSymbolsFollowTable52() {
        AccessEvent e = new AccessEvent(8, 1, 0x10001000L, AccessType.INST, null, 3090L, 3, 10, 48, "fpadd_parts");
        assertEquals(List.of("INST P_3090 fpadd_parts id_10"), EventVocabulary.METHOD_I.symbols(e));
        assertEquals(List.of("0x10001000", "fpadd_parts", "lat_40_50"), EventVocabulary.METHOD_II.symbols(e));
    }
}
