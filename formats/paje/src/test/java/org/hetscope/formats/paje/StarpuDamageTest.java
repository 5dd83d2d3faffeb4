package org.hetscope.formats.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.model.Category;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.SkipReason;
import org.hetscope.model.InputLimits;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged copies of the real StarPU fixture (made here): damage in the side files counts as damage, as in
 * paje.trace, at file:line with a plain reason; a line too long to hold costs that line only.
 */
class StarpuDamageTest {
    @TempDir
    Path dir;

    /** A sink that also keeps where each kind of skipped item was first seen. */
    static final class Sink extends StoredSink {
        final Map<String, String> where = new LinkedHashMap<>();

        @Override
        public void skipped(SkipReason reason, String what, String w, long count) {
            super.skipped(reason, what, w, count);
            where.putIfAbsent(key(reason, what), w);
        }

        Map<String, Long> damage() {
            Map<String, Long> m = new LinkedHashMap<>();
            for (var e : skips.entries()) {
                if (e.reason().damage()) {
                    m.put(e.label(), e.count());
                }
            }
            return m;
        }
    }

    private Path copy(String fixture) throws IOException {
        Path to = Files.createDirectories(dir.resolve(fixture));
        for (String f : List.of("paje.trace", "tasks.rec", "data.rec", "dag.dot")) {
            Files.copy(PajeFormatTest.fixture(fixture).resolve(f), to.resolve(f));
        }
        return to;
    }

    private static Sink read(Path folder) throws Exception {
        return StoredSink.read(folder, new Sink());
    }

    /** The slices of the trace other than tasks (which tasks.rec names), with their counts. */
    private static Map<String, Integer> traceSlices(CollectingSink s) {
        Map<String, Integer> m = new HashMap<>();
        for (Slice x : s.slices) {
            String key = x.category() == Category.TASK ? "task " + x.ts() + " " + x.dur()
                    : x.category() + " " + x.name() + " " + x.ts() + " " + x.dur();
            m.merge(key, 1, Integer::sum);
        }
        return m;
    }

    @Test
    void tasksRecCutInsideARecordIsDamageAtThatRecord() throws Exception {
        Path folder = copy("chol-dmda-nb6");
        Path tasks = folder.resolve("tasks.rec");
        List<String> lines = Files.readAllLines(tasks);
        // cut in the middle of the StartTime line of a record past the middle
        int at = lines.size() / 2;
        while (!lines.get(at).startsWith("StartTime:")) {
            at++;
        }
        int recordStart = at;
        while (!lines.get(recordStart - 1).isBlank()) {
            recordStart--;
        }
        String text = String.join("\n", lines.subList(0, at)) + "\n" + lines.get(at).substring(0, 14);
        Files.writeString(tasks, text);
        Sink intact = read(PajeFormatTest.fixture("chol-dmda-nb6"));
        Sink s = read(folder);
        String what = "truncated: tasks.rec record";
        assertEquals(Map.of(what, 1L), s.damage(), s.skipped.toString());
        assertEquals(tasks + ":" + (recordStart + 1) + " (the file stops inside a line)", s.where.get(what));
        // paje.trace is whole: its slices are all there
        assertEquals(traceSlices(intact), traceSlices(s));
        // the records before the cut are tasks as before
        int complete = (int) lines.subList(0, recordStart).stream().filter(l -> l.startsWith("JobId:")).count();
        assertTrue(complete > 10);
        assertEquals(intact.tasks.stream().filter(t -> t.jobId() <= complete).toList().size(),
                s.tasks.stream().filter(t -> t.jobId() <= complete).toList().size());
    }

    @Test
    void aBadNumberInDataRecIsDamageAtItsLineWithAPlainReason() throws Exception {
        Path folder = copy("chol-dmda-nb6");
        Path data = folder.resolve("data.rec");
        List<String> lines = new ArrayList<>(Files.readAllLines(data));
        int size = -1;
        for (int i = 0; i < lines.size() && size < 0; i++) {
            if (lines.get(i).startsWith("Size:") && i > lines.size() / 2) {
                size = i;
            }
        }
        lines.set(size, "Size: 36x864");
        Files.write(data, lines);
        Sink s = read(folder);
        String what = "damaged_record: data.rec record with a bad number";
        assertEquals(Map.of(what, 1L), s.damage(), s.skipped.toString());
        assertEquals(data + ":" + (size + 1) + " (field Size: '36x864' is not a number (or out of range))",
                s.where.get(what));
        assertFalse(s.where.get(what).contains("For input string"));
    }

    @Test
    void badNumbersInTasksRecAreDamageAtTheirLines() throws Exception {
        Path folder = copy("chol-dmda-nb6");
        Path tasks = folder.resolve("tasks.rec");
        List<String> lines = new ArrayList<>(Files.readAllLines(tasks));
        int start = -1;
        int sizes = -1;
        for (int i = lines.size() / 3; i < lines.size() && (start < 0 || sizes < 0); i++) {
            if (start < 0 && lines.get(i).startsWith("StartTime:")) {
                start = i;
            } else if (start >= 0 && i > start + 20 && lines.get(i).startsWith("Sizes:")) {
                sizes = i;
            }
        }
        lines.set(start, "StartTime: 79.9x");
        lines.set(sizes, "Sizes: 36864 -");
        Files.write(tasks, lines);
        Sink s = read(folder);
        String what = "damaged_record: tasks.rec record with a bad number";
        assertEquals(2L, s.damage().get(what), s.skipped.toString());
        assertEquals(tasks + ":" + (start + 1) + " (field StartTime: not a number: '79.9x')", s.where.get(what));
        assertEquals(Map.of(what, 2L), s.damage());
    }

    /** Lines around a lowered limit in each side file and in paje.trace, read in file order and in blocks. */
    @Test
    void overlongLinesAreSkippedAndCountedWhereverTheyAre() throws Exception {
        Sink intact = read(PajeFormatTest.fixture("chol-dmda-nb6"));
        String old = System.getProperty(InputLimits.MAX_TOKEN_PROPERTY);
        System.setProperty(InputLimits.MAX_TOKEN_PROPERTY, "4096");
        try {
            for (String file : List.of("paje.trace", "tasks.rec", "data.rec", "dag.dot")) {
                Path folder = copy("chol-dmda-nb6");
                Path f = folder.resolve(file);
                List<String> lines = new ArrayList<>(Files.readAllLines(f));
                int at = lines.size() / 2;
                // a comment (or, in the rec files, a line between two records), far too long
                String junk = (file.equals("dag.dot") ? "// " : "# ") + "x".repeat(9000);
                while (file.endsWith(".rec") && !lines.get(at).isBlank()) {
                    at++;
                }
                lines.add(at + 1, junk);
                if (file.endsWith(".rec")) {
                    lines.add(at + 2, "");
                }
                Files.write(f, lines);
                Sink s = read(folder);
                String what = "line_too_long: line longer than 4096 bytes (the limit: -D"
                        + InputLimits.MAX_TOKEN_PROPERTY + "=N)";
                assertEquals(Map.of(what, 1L), s.damage(), file + ": " + s.skipped);
                assertTrue(s.where.get(what).startsWith(f + ":" + (at + 2)), file + ": " + s.where.get(what));
                assertEquals(traceSlices(intact), traceSlices(s), file);
                assertEquals(intact.tasks.size(), s.tasks.size(), file);
                deleteTree(folder);
            }
            // paje.trace in blocks on threads, long lines crossing several of them, the last without its '\n'
            Path f = dir.resolve("long.trace");
            List<String> lines = new ArrayList<>(Files.readAllLines(PajeFormatTest.fixture("chol-dmda-nb6")
                    .resolve("paje.trace")));
            int at = lines.size() / 2;
            lines.add(at, "# " + "y".repeat(100_000));
            byte[] trace = (String.join("\n", lines) + "\n#" + "w".repeat(50_000)).getBytes(StandardCharsets.UTF_8);
            Files.write(f, trace);
            String reference = BlockDecodingTest.inFileOrder(trace, Long.MAX_VALUE);
            List<String> problems = reference.lines().filter(l -> l.contains("line longer")).toList();
            assertEquals(List.of("problem @" + (at + 1) + " line_too_long line longer than 4096 bytes "
                    + "(the limit: -Dhetscope.maxTokenBytes=N): 100002 bytes from byte "
                    + (String.join("\n", lines.subList(0, at)).length() + 1), "problem @" + (lines.size() + 1) + " "
                    + "line_too_long line longer than 4096 bytes (the limit: -Dhetscope.maxTokenBytes=N):"
                    + " 50001 bytes from byte " + (trace.length - 50_001)), problems);
            for (int threads : new int[] {0, 3}) {
                assertEquals(reference, BlockDecodingTest.inBlocks(f, 4096, threads, Long.MAX_VALUE));
            }
        } finally {
            if (old == null) {
                System.clearProperty(InputLimits.MAX_TOKEN_PROPERTY);
            } else {
                System.setProperty(InputLimits.MAX_TOKEN_PROPERTY, old);
            }
        }
    }

    /**
     * The issue's case at the default limit: one 1.2 GB line in paje.trace (written here as a stream): counted and
     * stepped over, the trace around it intact, instead of the reader holding it.
     */
    @Test
    void aGigabyteLineInPajeTraceIsSkippedNotHeld() throws Exception {
        Path folder = copy("chol-dmda-nb6");
        Path f = folder.resolve("paje.trace");
        List<String> lines = Files.readAllLines(f);
        int at = lines.size() / 2;
        long length = Long.getLong("hetscope.test.bigLine", 1_200_000_000L);
        try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(f), 1 << 16)) {
            for (int i = 0; i < lines.size(); i++) {
                if (i == at) {
                    out.write('#');
                    byte[] chunk = new byte[1 << 20];
                    java.util.Arrays.fill(chunk, (byte) 'z');
                    for (long left = length; left > 0; left -= chunk.length) {
                        out.write(chunk, 0, (int) Math.min(chunk.length, left));
                    }
                    out.write('\n');
                }
                out.write(lines.get(i).getBytes(StandardCharsets.UTF_8));
                out.write('\n');
            }
        }
        Sink intact = read(PajeFormatTest.fixture("chol-dmda-nb6"));
        Sink s = read(folder);
        String what = "line_too_long: line longer than " + InputLimits.DEFAULT_MAX_TOKEN_BYTES
                + " bytes (the limit: -D" + InputLimits.MAX_TOKEN_PROPERTY + "=N)";
        assertEquals(Map.of(what, 1L), s.damage(), s.skipped.toString());
        assertTrue(s.where.get(what).startsWith(f + ":" + (at + 1) + " (" + (length + 1) + " bytes from byte "),
                s.where.get(what));
        assertEquals(traceSlices(intact), traceSlices(s));
        assertEquals(intact.tasks.size(), s.tasks.size());
        Files.delete(f);
    }

    private static void deleteTree(Path root) throws IOException {
        try (var s = Files.walk(root)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
