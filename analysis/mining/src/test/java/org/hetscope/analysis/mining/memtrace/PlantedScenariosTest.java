package org.hetscope.analysis.mining.memtrace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.hetscope.analysis.mining.contention.ContentionPattern;
import org.hetscope.analysis.mining.contention.EventVocabulary;
import org.hetscope.analysis.mining.contention.FrequentEventWindows;
import org.hetscope.analysis.mining.contention.HighLatencyWindows;
import org.hetscope.analysis.mining.contention.SymbolField;
import org.hetscope.analysis.mining.folding.PatternFolding;
import org.hetscope.analysis.mining.itemsets.MinSupport;
import org.hetscope.analysis.mining.scalability.Run;
import org.hetscope.analysis.mining.scalability.ScalabilityAnalysis;
import org.hetscope.analysis.mining.windows.LatencyBins;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generator's planted scenarios (bank contention, spin-wait growing with the core count, stores after the
 * barrier) are what the methods find and rank first; the 32 background functions never appear in a pattern.
 */
class PlantedScenariosTest {
    private static final Set<String> PLANTED = Set.of("bank_read", "bank_write", "barrier_release", "cpu_mp_wait");
    private static List<AccessEvent> fourCores;
    private static List<AccessEvent> fourCoresRead;

    @BeforeAll
    static void generate(@TempDir Path dir) throws Exception {
        // Through the text format and the nm listing, as a user would run it.
        List<AccessEvent> generated = AccessTraceGenerator.generate(new AccessTraceGenerator.Config(4, 120, 11));
        Path trace = dir.resolve("gen.txt");
        Path nm = dir.resolve("gen.nm");
        AccessTraceGenerator.writeTrace(trace, generated);
        AccessTraceGenerator.writeSymbols(nm);
        SymbolTable symbols = SymbolTable.read(nm);
        fourCoresRead = new AccessTraceReader(symbols, true).read(trace, null);
        assertEquals(generated.size(), fourCoresRead.size());
        for (int i = 0; i < generated.size(); i++) {
            AccessEvent g = generated.get(i);
            AccessEvent r = fourCoresRead.get(i);
            // Table A.1 has no page, hops or node columns; everything else must survive the round trip.
            boolean same = g.cpu() == r.cpu() && g.t() == r.t() && g.pc() == r.pc() && g.type() == r.type()
                    && g.dataAddress().equals(r.dataAddress()) && g.latency() == r.latency()
                    && g.function().equals(r.function());
            assertTrue(same, "event " + i + ": " + g + " read back as " + r);
        }
        fourCores = generated;
    }

    /** Function names among a pattern's items (plain or CPU-prefixed), recognised through the symbol table. */
    private static Set<String> functions(List<String> items) {
        Set<String> all = new TreeSet<>();
        Set<String> known = new TreeSet<>(PLANTED);
        for (int f = 0; f < AccessTraceGenerator.WORK_FUNCTIONS; f++) {
            known.add(AccessTraceGenerator.workName(f));
        }
        SymbolTable sym = AccessTraceGenerator.symbols();
        for (String item : items) {
            String base = item.replaceFirst("^CPU\\d+_", "");
            for (String word : base.split(" ")) {
                if (known.contains(word)) {
                    all.add(word);
                } else if (word.startsWith("0x")) {
                    all.add(sym.function(Long.parseUnsignedLong(word.substring(2), 16)));
                }
            }
        }
        return all;
    }

    @Test
    void methodTwoRanksTheBankFirstAndNothingElseIsFound() {
        HighLatencyWindows.Result r = HighLatencyWindows.analyse(fourCoresRead,
                HighLatencyWindows.Config.defaults(200, MinSupport.parse("60%")).withHitLatency(5));
        assertFalse(r.patterns().isEmpty());
        List<ContentionPattern> ranked = new ArrayList<>(r.patterns());
        ranked.sort(ContentionPattern.BY_SUPPORT);
        assertEquals(Set.of("bank_read", "bank_write"), functions(ranked.get(0).items()));
        for (ContentionPattern p : r.patterns()) {
            assertTrue(PLANTED.containsAll(functions(p.items())), "unplanted function in " + p.items());
            assertEquals(r.transactions().support(p.items()), p.support(), "recount");
            assertTrue(p.support() >= MinSupport.parse("60%").count(r.windows().size()));
        }
        // Ranked by time covered, the bank comes first too.
        ranked.sort(ContentionPattern.BY_TIME);
        assertTrue(functions(ranked.get(0).items()).containsAll(Set.of("bank_read", "bank_write")));
    }

    @Test
    void methodOneFlagsTheBankOnAllCpus() {
        EventVocabulary v = new EventVocabulary(List.of(SymbolField.TYPE, SymbolField.FUNCTION, SymbolField.NODE),
                LatencyBins.METHOD_I, true);
        FrequentEventWindows.Result r = FrequentEventWindows.analyse(fourCores,
                FrequentEventWindows.Config.defaults(500, 2, MinSupport.parse("60%")).withVocabulary(v, true));
        List<ContentionPattern> ranked = new ArrayList<>(r.patterns());
        ranked.sort(Comparator.comparingInt(ContentionPattern::contendedWindows).reversed()
                .thenComparing(ContentionPattern.BY_SUPPORT));
        assertEquals(Set.of("bank_read", "bank_write"), functions(ranked.get(0).items()));
        assertTrue(ranked.get(0).items().stream().allMatch(i -> i.endsWith(" id_5")), "all on the bank's node");
        assertTrue(ranked.get(0).contendedWindows() > 0);
        // Background symbols are never frequent on two CPUs in 60% of the windows, so no pattern holds them.
        for (ContentionPattern p : r.patterns()) {
            assertTrue(PLANTED.containsAll(functions(p.items())), "unplanted function in " + p.items());
        }
    }

    @Test
    void scalabilityFindsTheSpinLoopGrowingWithCores() {
        List<Run> runs = new ArrayList<>();
        for (int cores : new int[] {8, 1, 4, 2}) {
            runs.add(new Run(cores + " cores", cores,
                    AccessTraceGenerator.generate(new AccessTraceGenerator.Config(cores, 80, 3))));
        }
        ScalabilityAnalysis.Result r = ScalabilityAnalysis.analyse(runs,
                new ScalabilityAnalysis.Config(false, MinSupport.parse("50%"), null));
        assertTrue(r.baselineIsSingleCore());
        List<ScalabilityAnalysis.HotSet> hotspots = r.hotSets().stream().filter(ScalabilityAnalysis.HotSet::hotspot)
                .toList();
        assertEquals(1, hotspots.size());
        Set<String> spin = new TreeSet<>();
        for (long pc : AccessTraceGenerator.SPIN_PCS) {
            spin.add("0x" + Long.toHexString(pc));
        }
        assertEquals(spin, Set.copyOf(hotspots.get(0).itemset().items()));
        assertEquals(List.of("2 cores", "4 cores", "8 cores"), hotspots.get(0).runs());
        assertEquals("[0x1000825c:0x10008268] cpu_mp_wait (4 of 4)",
                new PatternFolding(AccessTraceGenerator.symbols(), 4).render(hotspots.get(0).itemset().items()));
        // Growth rate rises with the core count once the spin loop dominates.
        double g4 = r.runs().get(2).growthRate();
        double g8 = r.runs().get(3).growthRate();
        assertTrue(g8 > g4 && g4 > 1, g4 + " " + g8);
        for (ScalabilityAnalysis.RunResult rr : r.runs()) {
            assertEquals(rr.features().size(), rr.hotSize() + rr.normalSize());
        }
    }
}
