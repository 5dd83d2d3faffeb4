package org.hetscope.cli.mining;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hetscope.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hetscope mine} end to end, in process. */
class MineCommandTest {


    @Test
    void fimiTransactionsTable41(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("t41.dat");
        Files.writeString(f, "A B C\nA C\nA B C\n");
        CliRun closed = CliRun.of("mine", "transactions", f.toString(), "--closed", "--min-support", "2");
        assertEquals(0, closed.exitCode(), closed.err());
        assertEquals("A C (3)\nA B C (2)\n", closed.out());
        CliRun all = CliRun.of("mine", "transactions", f.toString(), "--all", "--min-support", "60%", "--count");
        assertEquals("7\n", all.out()); // ceil(0.6 * 3) = 2
        CliRun json = CliRun.of("mine", "transactions", f.toString(), "--min-support", "2", "--json");
        List<String> items = new ArrayList<>();
        List<Long> supports = new ArrayList<>();
        try (JsonParser p = new JsonFactory().createParser(json.out())) {
            while (p.nextToken() != null) {
                if (p.currentToken() == JsonToken.FIELD_NAME && "items".equals(p.currentName())) {
                    p.nextToken();
                    items.add(p.getText());
                } else if (p.currentToken() == JsonToken.FIELD_NAME && "support".equals(p.currentName())) {
                    p.nextToken();
                    supports.add(p.getLongValue());
                }
            }
        }
        assertEquals(List.of("A C", "A B C"), items);
        assertEquals(List.of(3L, 2L), supports);
        CliRun seq = CliRun.of("mine", "transactions", f.toString(), "--sequences", "--min-support", "3");
        assertEquals("A C (3)\nA (3)\nC (3)\n", seq.out());
    }

    @Test
    void periodicFramesOfExample364(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("frames.dat");
        Files.writeString(f, "getFrame displayFrame\nint16 swint16\ngetFrame displayFrame\nwrite16 cpu_clock\n"
                + "read16\ngetFrame displayFrame printk\nsum_up sem_down\ngetFrame displayFrame\n");
        CliRun r = CliRun.of("mine", "transactions", f.toString(), "--periodic", "--period", "2");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(List.of(
                "displayFrame getFrame (start 1, period 2, length 2)",
                "displayFrame getFrame (start 6, period 2, length 2)",
                "displayFrame (start 1, period 2, length 2)", "displayFrame (start 6, period 2, length 2)",
                "getFrame (start 1, period 2, length 2)", "getFrame (start 6, period 2, length 2)"),
                r.out().lines().toList());
    }

    @Test
    void storeSequencesAndSlowKernels(@TempDir Path dir) throws Exception {
        Path fixture = Path.of(System.getProperty("hetscope.root", "."))
                .resolve("../shared/fixtures/chrome/kineto-cuda-sampled-rank0.json.gz");
        Path store = dir.resolve("k.hetscope");
        CliRun imp = CliRun.of("import", fixture.toString(), "-o", store.toString());
        assertEquals(0, imp.exitCode(), imp.err());
        CliRun seq = CliRun.of("mine", "sequences", store.toString(), "--window", "50ms", "--category", "kernel",
                "--min-support", "20%", "--max-length", "2", "--limit", "0", "--csv");
        assertEquals(0, seq.exitCode(), seq.err());
        // The same mining through the library gives the same patterns and supports.
        java.util.Map<String, Long> expected = new java.util.HashMap<>();
        try (org.hetscope.store.Store s = org.hetscope.store.Store.open(store)) {
            var w = org.hetscope.analysis.mining.store.StoreWindows.read(s,
                    new org.hetscope.analysis.mining.store.StoreWindows.Options(50_000_000L, List.of("kernel"), false,
                            org.hetscope.analysis.mining.store.StoreWindows.Vocabulary.NAME, false));
            for (var p : org.hetscope.analysis.mining.sequences.PrefixSpan.mine(w.sequenceDatabase(),
                    org.hetscope.analysis.mining.itemsets.MinSupport.parse("20%"), 2)) {
                expected.put(String.join(" -> ", p.events()), (long) p.support());
            }
        }
        java.util.Map<String, Long> printed = new java.util.HashMap<>();
        try (JsonParser p = new JsonFactory().createParser(CliRun.of("mine", "sequences", store.toString(), "--window",
                "50ms", "--category", "kernel", "--min-support", "20%", "--max-length", "2", "--limit", "0",
                "--json").out())) {
            String pattern = null;
            long support = -1;
            while (p.nextToken() != null) {
                if (p.currentToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    p.nextToken();
                    if ("pattern".equals(name)) {
                        pattern = p.getText();
                    } else if ("support".equals(name)) {
                        support = p.getLongValue();
                    }
                } else if (p.currentToken() == JsonToken.END_OBJECT && pattern != null) {
                    printed.put(pattern, support);
                    pattern = null;
                }
            }
        }
        assertEquals(expected, printed);
        assertTrue(seq.out().lines().count() > 1);
        CliRun slow = CliRun.of("mine", "contention", store.toString(), "--window", "5ms", "--category", "kernel",
                "--epsilon", "10%", "--items", "plain", "--csv");
        assertEquals(0, slow.exitCode(), slow.err());
        assertTrue(slow.out().contains("Q3 (type 7) of durations"), slow.out());
    }

    @Test
    void badInputNamesFileAndLine(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("bin.dat");
        Files.write(f, new byte[] {'1', '\n', 0, 1, 2});
        CliRun r = CliRun.of("mine", "transactions", f.toString(), "--min-support", "1");
        assertEquals(1, r.exitCode());
        assertTrue(r.err().contains("bin.dat") && r.err().contains("line 2"), r.err());
        CliRun missing = CliRun.of("mine", "closed", dir.resolve("nope.txt").toString(), "--min-support", "1");
        assertEquals(1, missing.exitCode());
        assertTrue(missing.err().contains("nope.txt"), missing.err());
    }

    @Test
    void generatedTraceContentionAndScalability(@TempDir Path dir) throws Exception {
        Path nm = dir.resolve("gen.nm");
        List<String> runs = new ArrayList<>();
        for (int cores : new int[] {1, 2, 4}) {
            Path t = dir.resolve("gen" + cores + ".txt");
            assertEquals(0, CliRun.of("mine", "generate", t.toString(), "--cores", String.valueOf(cores),
                    "--iterations", "40", "--seed", "2", "--symbols-out", nm.toString()).exitCode());
            runs.add(t.toString());
        }
        CliRun c = CliRun.of("mine", "contention", runs.get(2), "--symbols", nm.toString(), "--hit-latency", "5",
                "--epsilon", "60%", "--limit", "1", "--csv");
        assertEquals(0, c.exitCode(), c.err());
        String top = c.out().lines().filter(l -> l.startsWith("1,")).findFirst().orElseThrow();
        assertTrue(top.contains("bank_read") && top.contains("bank_write"), top);
        List<String> args = new ArrayList<>(List.of("mine", "scalability"));
        args.addAll(runs);
        args.addAll(List.of("--symbols", nm.toString(), "--min-p", "2", "--csv"));
        CliRun s = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, s.exitCode(), s.err());
        assertTrue(s.out().contains("[0x1000825c:0x10008268] cpu_mp_wait (4 of 4)"), s.out());
        assertTrue(s.out().lines().anyMatch(l -> l.contains("cpu_mp_wait (4 of 4)") && l.contains(",true,")),
                s.out());
    }

    /**
     * Issue 24 defect 9: with default settings on a generated 8-core trace, method II used to take Q3 = 2 (a
     * hit latency: every access a seed, windows over the whole trace) and, with --hit-latency, to mine millions
     * of closed patterns. The defaults now derive the hit latency (the generator's hits take 1-3 cycles), cap
     * the patterns mined and printed, and say how many were left out.
     */
    @Test
    void contentionDefaultsOnAnEightCoreTraceAreReadable(@TempDir Path dir) throws Exception {
        Path t = dir.resolve("gen8.txt");
        Path nm = dir.resolve("gen8.nm");
        assertEquals(0, CliRun.of("mine", "generate", t.toString(), "--cores", "8", "--symbols-out",
                nm.toString()).exitCode());
        CliRun c = CliRun.of("mine", "contention", t.toString(), "--symbols", nm.toString(), "--json");
        assertEquals(0, c.exitCode(), c.err());
        com.fasterxml.jackson.databind.JsonNode out = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(c.out());
        com.fasterxml.jackson.databind.JsonNode summary = out.get("method II").get(0);
        assertEquals(3, summary.get("hit_latency").asLong(), summary.toString());
        assertTrue(summary.get("hit_latency_method").asText().startsWith("derived"), summary.toString());
        // Q3 of the misses lies in the bank accesses (40 + 4 x 8 + 0..9 cycles): they are the seeds.
        double q3 = summary.get("threshold").asDouble();
        assertTrue(q3 >= 72 && q3 <= 81, summary.toString());
        assertTrue(summary.get("trace_share").asDouble() < 0.6, summary.toString());
        long events = summary.get("events").asLong();
        assertTrue(summary.get("seeds").asLong() < events / 20, summary.toString());
        // Too many closed patterns at 65 %: a higher support was used and said so.
        assertTrue(summary.get("support_used").asLong() > summary.get("epsilon").asLong(), summary.toString());
        assertTrue(c.err().contains("--max-patterns 0"), c.err());
        String title = null;
        for (var names = out.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            title = name.equals("method II") ? title : name;
        }
        assertTrue(title != null && title.matches("\\d+ closed patterns, top 50 by --rank shown, \\d+ left out.*"),
                String.valueOf(title));
        int found = Integer.parseInt(title.substring(0, title.indexOf(' ')));
        assertTrue(found <= 10_000, title);
        assertEquals(50, out.get(title).size());
        assertEquals(found - 50, Integer.parseInt(title.replaceAll(".*shown, (\\d+) left out.*", "$1")));
        // The top pattern is the planted bank contention.
        assertTrue(out.get(title).get(0).get("pattern").asText().contains("bank_read"), out.get(title).toString());
    }
}
