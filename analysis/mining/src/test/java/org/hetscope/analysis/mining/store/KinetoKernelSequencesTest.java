package org.hetscope.analysis.mining.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import org.hetscope.analysis.mining.itemsets.Itemset;
import org.hetscope.analysis.mining.itemsets.ItemsetMiner;
import org.hetscope.analysis.mining.itemsets.MinSupport;
import org.hetscope.analysis.mining.sequences.PrefixSpan;
import org.hetscope.analysis.mining.sequences.SequentialPattern;
import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.model.Progress;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Frequent kernel sequences of a real Kineto trace, mined from the imported store, with every support recounted
 * from the raw JSON by separate code (Jackson, its own windowing and subsequence test).
 */
class KinetoKernelSequencesTest {
    private static final Path FIXTURE = Path.of(System.getProperty("hetscope.root", "."))
            .resolve("../shared/fixtures/chrome/kineto-cuda-sampled-rank0.json.gz");
    private static final long WINDOW = 50_000_000L; // 50 ms: 25 windows, none empty

    private static StoreWindows.Windows windows;
    private static SlowEventWindows.Result slow;
    private static List<List<String>> reference;
    private static List<JsonNode> rawKernels;

    @BeforeAll
    static void importAndRead(@TempDir Path dir) throws Exception {
        Path db = dir.resolve("k.hetscope");
        StoreWriter w = StoreWriter.create(db);
        new ChromeTraceFormat().read(FIXTURE, w, Progress.NONE);
        w.commit();
        try (Store s = Store.open(db)) {
            windows = StoreWindows.read(s, new StoreWindows.Options(WINDOW, List.of("kernel"), false,
                    StoreWindows.Vocabulary.NAME, false));
            slow = SlowEventWindows.analyse(s, new SlowEventWindows.Options("kernel", List.of("kernel"), 5_000_000,
                    null, true, false, MinSupport.parse("10%")));
        }
        reference = rawKernelWindows();
    }

    /** Kernels of the raw file ("cat": "kernel"), by start time, cut into 50 ms windows from the first one. */
    private static List<List<String>> rawKernelWindows() throws Exception {
        JsonNode root;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(FIXTURE))) {
            root = new ObjectMapper().readTree(in);
        }
        List<JsonNode> kernels = new ArrayList<>();
        for (JsonNode e : root.get("traceEvents")) {
            if ("kernel".equals(e.path("cat").asText()) && "X".equals(e.path("ph").asText())) {
                kernels.add(e);
            }
        }
        kernels.sort(Comparator.comparingLong(e -> e.get("ts").asLong()));
        rawKernels = kernels;
        long origin = kernels.get(0).get("ts").asLong() * 1000;
        List<List<String>> out = new ArrayList<>();
        for (JsonNode k : kernels) {
            int w = (int) ((k.get("ts").asLong() * 1000 - origin) / WINDOW);
            while (out.size() <= w) {
                out.add(new ArrayList<>());
            }
            out.get(w).add(k.get("name").asText());
        }
        return out;
    }

    private static boolean subsequence(List<String> seq, List<String> pattern) {
        int p = 0;
        for (String s : seq) {
            if (p < pattern.size() && s.equals(pattern.get(p))) {
                p++;
            }
        }
        return p == pattern.size();
    }

    @Test
    void windowsMatchTheRawFile() {
        assertEquals(reference.size(), windows.sequences().size());
        assertEquals(1154, reference.stream().mapToInt(List::size).sum());
        for (int w = 0; w < reference.size(); w++) {
            assertEquals(reference.get(w).size(), windows.sequences().get(w).size(), "window " + w);
        }
    }

    @Test
    void frequentKernelSequencesWithRecountedSupport() {
        MinSupport min = MinSupport.parse("20%");
        List<SequentialPattern> patterns = PrefixSpan.mine(windows.sequenceDatabase(), min, 3);
        assertFalse(patterns.isEmpty());
        int threshold = min.count(reference.size());
        Set<List<String>> reported = new HashSet<>();
        for (SequentialPattern p : patterns) {
            int recount = 0;
            for (List<String> w : reference) {
                recount += subsequence(w, p.events()) ? 1 : 0;
            }
            assertEquals(recount, p.support(), "support of " + p);
            assertTrue(p.support() >= threshold);
            reported.add(p.events());
        }
        // Completeness for single kernels and pairs, counted from the raw windows.
        Map<List<String>, Set<Integer>> pairs = new HashMap<>();
        for (int w = 0; w < reference.size(); w++) {
            List<String> s = reference.get(w);
            for (int i = 0; i < s.size(); i++) {
                pairs.computeIfAbsent(List.of(s.get(i)), k -> new HashSet<>()).add(w);
                for (int j = i + 1; j < s.size(); j++) {
                    pairs.computeIfAbsent(List.of(s.get(i), s.get(j)), k -> new HashSet<>()).add(w);
                }
            }
        }
        pairs.forEach((pattern, ws) -> assertEquals(ws.size() >= threshold, reported.contains(pattern),
                "pattern " + pattern + " in " + ws.size() + " windows"));
        assertTrue(patterns.stream().anyMatch(p -> p.events().size() == 3), "some 3-kernel sequence is frequent");
    }

    @Test
    void closedKernelSetsAreRankedBySupportAndTime() {
        List<Itemset> closed = ItemsetMiner.closed(windows.transactions(), MinSupport.parse("20%"));
        assertFalse(closed.isEmpty());
        for (Itemset s : closed) {
            long recount = reference.stream().filter(w -> w.containsAll(s.items())).count();
            assertEquals(recount, s.support(), s.toString());
            assertTrue(windows.timeCovered(s) > 0);
        }
    }

    @Test
    void slowKernelWindowsRecountedFromTheRawFile() {
        // Independent: durations in ns from the JSON text, Q3 by interpolation, quadratic windowing with absorption.
        int n = rawKernels.size();
        long[] ts = new long[n];
        long[] dur = new long[n];
        for (int i = 0; i < n; i++) {
            ts[i] = rawKernels.get(i).get("ts").asLong() * 1000;
            dur[i] = new java.math.BigDecimal(rawKernels.get(i).get("dur").asText()).movePointRight(3)
                    .longValueExact();
        }
        long[] sorted = dur.clone();
        java.util.Arrays.sort(sorted);
        double h = 0.75 * (n - 1);
        int lo = (int) h;
        double q3 = sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]);
        assertEquals(q3, slow.threshold(), 1e-9);
        boolean[] absorbed = new boolean[n];
        List<Set<String>> transactions = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            if (dur[s] < q3 || absorbed[s]) {
                continue;
            }
            Set<String> t = new HashSet<>();
            for (int i = 0; i < n; i++) {
                if (2 * Math.abs(ts[i] - ts[s]) <= 5_000_000) {
                    t.add(rawKernels.get(i).get("name").asText());
                    absorbed[i] |= dur[i] >= q3;
                }
            }
            transactions.add(t);
        }
        assertEquals(transactions.size(), slow.windows().size());
        assertFalse(slow.patterns().isEmpty());
        int threshold = MinSupport.parse("10%").count(transactions.size());
        for (var p : slow.patterns()) {
            long recount = transactions.stream().filter(t -> t.containsAll(p.items())).count();
            assertEquals(recount, p.support(), p.items().toString());
            assertTrue(p.support() >= threshold);
            assertTrue(p.timeCovered() > 0);
        }
    }
}
