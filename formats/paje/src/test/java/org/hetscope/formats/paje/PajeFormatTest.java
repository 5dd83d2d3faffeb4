package org.hetscope.formats.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.SkipReason;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceSink;
import org.hetscope.model.Track;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Format detection, damaged StarPU input, and a cross-check against PajeNG's pj_dump. */
class PajeFormatTest {
    static Path fixture(String name) {
        return Path.of(System.getProperty("hetscope.root", ".")).resolve("../shared/fixtures/starpu/" + name);
    }

    @Test
    void acceptsPajeFilesAndStarpuFolders(@TempDir Path dir) throws IOException {
        PajeFormat f = new PajeFormat();
        assertTrue(f.accepts(fixture("chol-dmda-nb6")));
        assertTrue(f.accepts(fixture("chol-dmda-nb6").resolve("paje.trace")));
        assertFalse(f.accepts(fixture("chol-dmda-nb6").resolve("tasks.rec")));
        assertFalse(f.accepts(dir));
        Path json = Files.writeString(dir.resolve("x.trace"), "{\"traceEvents\": []}");
        assertFalse(f.accepts(json));
        assertEquals("paje", f.name());
    }

    @Test
    void otherProducersAreReadGenerically(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("pajeng.paje"), PajeReaderTest.HEADER + """
                8 1 ST c1 r
                9 c1 1.25 ST w tag
                10 1.5 ST c1
                11 x 1.75 c2 E 0.5
                12 1 V m1 10
                13 2 V m1 2.5
                15 2 L m1 c1 msg k1
                16 2.5 L m1 c2 msg k1
                """);
        PajeFormat f = new PajeFormat();
        assertTrue(f.accepts(file));
        CollectingSink s = new CollectingSink();
        f.read(file, s, Progress.NONE);
        assertEquals("generic", s.info.get("paje.dialect"));
        assertEquals("s", s.info.get("paje.time_unit"));
        assertEquals(List.of("node one", "core1", "core two"), s.tracks.stream()
                .filter(t -> t.kind() != org.hetscope.model.TrackKind.COUNTER).map(Track::name).toList());
        assertEquals(List.of("Waiting for data 1250000000 250000000 1", "Running 1000000000 1500000000 0"),
                s.slices.stream().map(x -> x.name() + " " + x.ts() + " " + x.dur() + " " + x.depth()).toList());
        assertEquals("{\"value\":\"Crash\",\"Weight\":\"0.5\"}", s.instants.get(0).argsJson());
        assertEquals(List.of(10.0, 12.5), s.counters.stream().map(c -> c.value()).toList());
        assertEquals("W", s.tracks.stream().filter(t -> t.kind() == org.hetscope.model.TrackKind.COUNTER)
                .findFirst().orElseThrow().unit());
        Object[] link = s.extraRows.get("paje_link").get(0);
        assertEquals(List.of("L", "Message link", 2_000_000_000L, 500_000_000L, "msg", "k1"),
                List.of(link[0], link[1], link[5], link[6], link[7], link[8]));
        assertTrue(s.extraRows.get("paje_entity_value").stream().anyMatch(v -> java.util.Arrays.equals(v,
                new Object[] {"ST", "Core State", "w", "Waiting for data", "1 .5 0"})));
        assertEquals(0, s.skippedTotal());
    }

    @Test
    void damagedStarpuTraceKeepsTheRestAndCountsWhatWasSkipped(@TempDir Path dir) throws Exception {
        List<String> lines = Files.readAllLines(fixture("chol-dmda-nb6").resolve("paje.trace"));
        int body = lines.indexOf(lines.stream().filter(l -> l.startsWith("7\t")).findFirst().orElseThrow());
        List<String> bad = new ArrayList<>(lines);
        // An undefined event id, a pop with nothing pushed, a link end without start, and a cut last line.
        bad.add(body + 20, "77\t36.0\tfoo\tbar");
        bad.add(body + 21, "12\t36.1\tmm0\tMS");
        bad.add(body + 22, "19\t36.2\tF\tp\t36864\tmm1\tcom_999");
        String last = bad.get(bad.size() - 1);
        bad.set(bad.size() - 1, last.substring(0, last.indexOf('\t', 3)));
        Path folder = Files.createDirectories(dir.resolve("starpu"));
        Files.write(folder.resolve("paje.trace"), String.join("\n", bad).getBytes(StandardCharsets.UTF_8));
        for (String side : List.of("tasks.rec", "data.rec", "dag.dot")) {
            Files.copy(fixture("chol-dmda-nb6").resolve(side), folder.resolve(side));
        }
        Map<String, Long> where = new TreeMap<>();
        CollectingSink s = StoredSink.read(folder, new StoredSink() {
            @Override
            public void skipped(SkipReason reason, String what, String at, long count) {
                super.skipped(reason, what, at, count);
                where.put(key(reason, what) + " @ " + at, count);
            }
        });
        Path trace = folder.resolve("paje.trace");
        assertEquals(Map.of(
                "damaged_record: undefined event id @ " + trace + ":" + (body + 21) + " (id 77)", 1L,
                "unmatched_end: pop without push @ " + trace + ":" + (body + 22) + " (mm0 MS)", 1L,
                "unmatched_flow: link end without start @ " + trace + ":" + (body + 23) + " (key never started)", 1L,
                "truncated: last line @ " + trace + ":" + bad.size()
                        + " (PajeSetVariable 13 needs 4 fields, found 1)", 1L,
                "inconsistent_state: state change after its container was destroyed @ " + trace + ":" + (bad.indexOf("10\t101.067308000\tt18260\tS\tB") + 1)
                        + " (t18260 destroyed earlier)", 1L), withoutRounding(where));
        // Everything else is still there.
        assertEquals(77, s.tasks.size());
        assertEquals(29, s.transfers.size());
    }

    /**
     * tasks.rec is read three times (its handles, its tasks, their dependencies) so that no record is kept: each of
     * its problems must still be reported once, at its line, and only the records it names are lost.
     */
    @Test
    void aDamagedTasksRecIsReportedOnceAtItsLinesAndTheRestKept(@TempDir Path dir) throws Exception {
        Path folder = Files.createDirectories(dir.resolve("starpu"));
        for (String side : List.of("paje.trace", "data.rec", "dag.dot")) {
            Files.copy(fixture("chol-dmda-nb6").resolve(side), folder.resolve(side));
        }
        List<String> lines = new ArrayList<>(Files.readAllLines(fixture("chol-dmda-nb6").resolve("tasks.rec")));
        // three executed tasks: one loses its JobId, one gets a bad WorkerId, one a line that is no field
        List<Integer> workerLines = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("WorkerId:")) {
                workerLines.add(i);
            }
        }
        int badNumber = workerLines.get(10);
        lines.set(badNumber, "WorkerId: x1");
        int noField = workerLines.get(20);
        lines.add(noField, "not a field");
        int noJob = workerLines.get(5);
        while (!lines.get(noJob).startsWith("JobId:")) {
            noJob--;
        }
        int noJobStart = noJob;
        while (noJobStart > 0 && !lines.get(noJobStart - 1).isBlank()) {
            noJobStart--;
        }
        int badStart = badNumber;
        while (badStart > 0 && !lines.get(badStart - 1).isBlank()) {
            badStart--;
        }
        lines.remove(noJob); // the lines after it move up by one
        Path tasksRec = Files.write(folder.resolve("tasks.rec"), lines);
        Map<String, Long> where = new TreeMap<>();
        CollectingSink s = StoredSink.read(folder, new StoredSink() {
            @Override
            public void skipped(SkipReason reason, String what, String at, long count) {
                super.skipped(reason, what, at, count);
                where.put(key(reason, what) + " @ " + at.replaceAll(" \\(.*", ""), count);
            }
        });
        assertEquals(Map.of(
                "damaged_record: tasks.rec record without JobId @ " + tasksRec + ":" + (noJobStart + 1), 1L,
                // the line of the bad field, after the line removed above it
                "damaged_record: tasks.rec record with a bad number @ " + tasksRec + ":" + badNumber, 1L,
                "damaged_record: rec line without 'Field:' @ " + tasksRec + ":" + noField, 1L,
                "inconsistent_state: state change after its container was destroyed @ " + folder.resolve("paje.trace") + ":4113", 1L),
                withoutRounding(where));
        assertEquals(77 - 2, s.tasks.size());
    }

    private static Map<String, Long> withoutRounding(Map<String, Long> skipped) {
        Map<String, Long> m = new TreeMap<>(skipped);
        m.keySet().removeIf(k -> k.startsWith("rounded_time"));
        return m;
    }

    /** Body lines sorted by (time, line): pj_dump refuses time going backwards, StarPU writes some late. */
    static Path sortedCopy(Path src, Path dst) throws IOException {
        List<String> lines = Files.readAllLines(src);
        List<String> header = new ArrayList<>();
        List<String[]> body = new ArrayList<>();
        int n = 0;
        for (String l : lines) {
            String[] f = l.trim().split("\\s+");
            if (f.length > 1 && f[0].matches("\\d+") && f[1].matches("[0-9.]+") && !f[0].matches("[1-6]")) {
                body.add(new String[] {f[1], Integer.toString(n++), l});
            } else {
                header.add(l);
            }
        }
        body.sort(Comparator.comparing((String[] a) -> new BigDecimal(a[0]))
                .thenComparingInt(a -> Integer.parseInt(a[1])));
        body.forEach(a -> header.add(a[2]));
        return Files.write(dst, header);
    }

    @Test
    void countsAgreeWithPajeNgPjDump(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/pj_dump")), "pj_dump (Debian package pajeng) not installed");
        for (String name : List.of("chol-dmda-nb6", "chol-lws-nb12")) {
            Path sorted = sortedCopy(fixture(name).resolve("paje.trace"), dir.resolve(name + ".trace"));
            Process p = new ProcessBuilder("/usr/bin/pj_dump", sorted.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor(), out.lines().limit(3).toList().toString());
            Map<String, Integer> expected = new TreeMap<>();
            for (String l : out.split("\n")) {
                String[] f = l.split(", ");
                switch (f[0]) {
                    case "State", "Event" -> expected.merge(f[0] + " " + f[2], 1, Integer::sum);
                    case "Link" -> expected.merge("Link " + f[2], 1, Integer::sum);
                    default -> { }
                }
            }
            CollectingSink s = new CollectingSink();
            GenericPajeImport.read(sorted, s, Progress.NONE, 6);
            Map<String, Integer> ours = new TreeMap<>();
            s.slices.forEach(x -> ours.merge("State " + x.sourceCategory(), 1, Integer::sum));
            s.instants.forEach(x -> ours.merge("Event " + x.name(), 1, Integer::sum));
            s.extraRows.getOrDefault("paje_link", List.of()).forEach(r -> ours.merge("Link " + r[1], 1,
                    Integer::sum));
            assertEquals(expected, ours, name);
            // The container tree is the same: pj_dump's "Container" lines name each container's parent.
            long containers = out.lines().filter(l -> l.startsWith("Container")).count();
            assertEquals(containers, s.tracks.stream().filter(t -> t.kind() != org.hetscope.model.TrackKind.COUNTER)
                    .map(Track::name).count() + 1);
        }
    }
}
