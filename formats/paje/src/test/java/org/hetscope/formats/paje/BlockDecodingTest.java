package org.hetscope.formats.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.hetscope.model.SkipReason;
import org.hetscope.model.Progress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file read in blocks decoded on other threads must tell the listener exactly what a reading in file order on
 * one thread tells it: every call, in the same order, with the same fields and line numbers, the same counts. The
 * reference is the reader on the same bytes as a stream (which never uses blocks), on the StarPU fixtures and on
 * random traces that define types, values and containers between their body lines, destroy containers twice,
 * carry damaged and header lines in the body, and links whose ends fall in different blocks.
 */
class BlockDecodingTest {
    private static final Path FIXTURES = Path.of(System.getProperty("hetscope.root", "."))
            .resolve("../shared/fixtures/starpu");

    @TempDir
    Path dir;

    /** Every listener call as a line of text, identities of values included. */
    static final class Transcript implements PajeListener {
        final StringBuilder text = new StringBuilder();
        private final Map<PajeValue, Integer> valueIds = new java.util.IdentityHashMap<>();

        private String v(PajeValue v) {
            if (v == null) {
                return "null";
            }
            int id = valueIds.computeIfAbsent(v, k -> valueIds.size());
            return v.alias() + "/" + v.name() + "/" + v.color() + "/" + v.declared() + "#" + id;
        }

        private static String x(String[] extras) {
            return extras == null ? "-" : String.join("|", Arrays.stream(extras).map(String::valueOf).toList());
        }

        @Override public void header(Map<Integer, EventDefinition> d) {
            text.append("header ").append(d.keySet()).append('\n');
        }
        @Override public void type(PajeType t) { text.append("type ").append(t).append('\n'); }
        @Override public void value(PajeType t, PajeValue value) {
            text.append("value ").append(t.alias()).append(' ').append(v(value)).append('\n');
        }
        @Override public void container(PajeContainer c) {
            text.append("container ").append(c).append(' ').append(c.created()).append('\n');
        }
        @Override public void event(PajeEvent e) {
            text.append("event ").append(e.container()).append(' ').append(e.type().alias()).append(' ')
                    .append(e.time()).append(' ').append(v(e.value())).append(' ').append(e.definition().id())
                    .append(' ').append(x(e.extras())).append(" @").append(e.line()).append('\n');
        }
        @Override public void link(PajeLink l) { text.append("link ").append(l).append('\n'); }
        @Override public void state(PajeState s) {
            text.append("state ").append(s.container()).append(' ').append(s.type().alias()).append(' ')
                    .append(s.start()).append('-').append(s.end()).append(' ').append(v(s.value())).append(" d")
                    .append(s.depth()).append(' ').append(s.definition() == null ? null : s.definition().id())
                    .append(' ').append(x(s.extras())).append(" @").append(s.line()).append(s.closedByEnd())
                    .append('\n');
        }
        @Override public void variable(PajeContainer c, PajeType t, long time, double value, long line) {
            text.append("variable ").append(c).append(' ').append(t.alias()).append(' ').append(time).append(' ')
                    .append(value).append(" @").append(line).append('\n');
        }
        @Override public void problem(SkipReason reason, String what, long line, String detail) {
            text.append("problem @").append(line).append(' ').append(reason.id()).append(' ').append(what).append(": ").append(detail).append('\n');
        }
        @Override public void end(long start, long end) {
            text.append("end ").append(start).append(' ').append(end).append('\n');
        }
    }

    private static String summary(PajeReader r) {
        return "counts " + r.counts() + " lines " + r.lines() + " rounded " + r.roundedTimes() + " first "
                + r.firstRoundedLine() + " shift " + r.timeShift() + " containers " + r.containers().size()
                + " types " + r.types().size() + "\n";
    }

    /** What the reader says of a trace read as a stream, in file order on this thread. */
    static String inFileOrder(byte[] trace, long spillEvery) throws IOException {
        Transcript t = new Transcript();
        PajeReader r = new PajeReader(t, null);
        r.spillEvery(spillEvery);
        r.read(new ByteArrayInputStream(trace), Progress.NONE);
        return t.text + summary(r);
    }

    /** What the reader says of the same trace as a file read in blocks of {@code bytes} on {@code threads}. */
    static String inBlocks(Path file, long bytes, int threads, long spillEvery) throws IOException {
        Transcript t = new Transcript();
        PajeReader r = new PajeReader(t, null);
        r.blocks(bytes, threads);
        r.spillEvery(spillEvery);
        r.read(file, Progress.NONE);
        return t.text + summary(r);
    }

    private void sameBothWays(String what, byte[] trace, long[] blockBytes) throws IOException {
        Path file = dir.resolve("trace.paje");
        Files.write(file, trace);
        String reference = inFileOrder(trace, Long.MAX_VALUE);
        for (long bytes : blockBytes) {
            for (int threads : new int[] {1, 3}) {
                assertEquals(reference, inBlocks(file, bytes, threads, Long.MAX_VALUE),
                        what + ", blocks of " + bytes + " bytes on " + threads + " threads");
            }
        }
        assertEquals(reference, inBlocks(file, 700, 2, 37), what + ", blocks of 700 bytes, spilling every 37");
    }

    @Test
    void starpuFixturesAreReadTheSameInBlocks() throws Exception {
        for (String name : List.of("chol-lws-nb12", "chol-dmda-nb6")) {
            byte[] trace = Files.readAllBytes(FIXTURES.resolve(name).resolve("paje.trace"));
            String reference = inFileOrder(trace, Long.MAX_VALUE);
            assertTrue(reference.lines().filter(l -> l.startsWith("event ")).count() > 500, name);
            assertTrue(reference.lines().filter(l -> l.startsWith("state ")).count() > 500, name);
            // Blocks of 5000 bytes put the definitions that open the trace in several blocks.
            sameBothWays(name, trace, new long[] {5000, 65536});
        }
    }

    @Test
    void randomTracesWithDefinitionsAndDamageAmongTheirLinesAreReadTheSameInBlocks() throws Exception {
        Random random = new Random(20261126);
        for (int round = 0; round < 30; round++) {
            byte[] trace = randomTrace(random);
            // Blocks of 1 byte hold at most one line start each.
            sameBothWays("round " + round, trace, new long[] {round < 3 ? 1 : 7, 1 + random.nextInt(300), 2048});
        }
    }

    /** Body lines of every kind, with new containers, types and values declared among them. */
    private static byte[] randomTrace(Random random) {
        StringBuilder t = new StringBuilder(PajeReaderTest.HEADER);
        List<String> cores = new ArrayList<>(List.of("c1", "c2"));
        int ops = 200 + random.nextInt(800);
        for (int i = 0; i < ops; i++) {
            String c = cores.get(random.nextInt(cores.size()));
            String time = (random.nextInt(60) + 1) + "." + random.nextInt(1000) + (random.nextInt(20) == 0
                    ? "0000000001" : "");
            String value = switch (random.nextInt(4)) {
                case 0 -> "r";
                case 1 -> "w";
                case 2 -> "Running"; // a declared value's name
                default -> "u" + random.nextInt(4); // undeclared, until a line declares it
            };
            switch (random.nextInt(22)) {
                case 0 -> {
                    String alias = "c" + (cores.size() + 1);
                    t.append("6 ").append(time).append(' ').append(alias).append(" C m1 \"core ").append(alias)
                            .append('"');
                    cores.add(alias);
                }
                case 1 -> t.append("5 u").append(random.nextInt(4)).append(" ST \"declared later ")
                        .append(i).append("\" \"0 0 1\"");
                case 2 -> t.append("5 a").append(i).append(" ST u").append(random.nextInt(4)).append(" \"1 1 1\"");
                case 3 -> t.append("7 ").append(time).append(" C ").append(c);
                case 4 -> t.append("12 ").append(time).append(" V m1 ").append(random.nextInt(100));
                case 5 -> t.append(random.nextBoolean() ? "13 " : "14 ").append(time).append(" V m1 ")
                        .append(random.nextInt(10)).append('.').append(random.nextInt(10));
                case 6, 7 -> t.append("15 ").append(time).append(" L m1 ").append(c).append(" v")
                        .append(random.nextInt(3)).append(" k").append(random.nextInt(30));
                case 8, 9 -> t.append("16 ").append(time).append(" L m1 ").append(c).append(" v")
                        .append(random.nextInt(3)).append(" k").append(random.nextInt(30));
                case 10 -> t.append("11 x ").append(time).append(' ').append(c).append(" E ")
                        .append(random.nextInt(9));
                case 11 -> t.append(switch (random.nextInt(6)) {
                    case 0 -> "99 1.0 nowhere";                   // undefined id
                    case 1 -> "8 " + time + " ST c404 r";         // unknown container
                    case 2 -> "8 " + time + " ST";                // missing fields
                    case 3 -> "9 " + c + " " + time + " ST r \"open quote";
                    case 4 -> "# a comment\n   \r";
                    default -> "10 notatime ST " + c;
                });
                case 12 -> t.append("%EventDef PajeNewEvent ").append(40 + random.nextInt(3))
                        .append("\n% Time date\n% Type string\n% Container string\n% Value string\n%EndEventDef\n")
                        .append(40 + random.nextInt(3)).append(' ').append(time).append(" E ").append(c)
                        .append(" late");
                case 13 -> t.append("8 ").append(time).append(" ST ").append(c).append(' ').append(value)
                        .append("\r");
                case 14, 15, 16 -> t.append("9 ").append(c).append(' ').append(time).append(" ST ").append(value)
                        .append(' ').append(random.nextInt(3) == 0 ? "\"a mark ü\"" : "m" + i);
                default -> t.append("10 ").append(time).append(" ST ").append(c);
            }
            t.append('\n');
        }
        if (random.nextBoolean()) {
            t.append("9 c1 70.5 ST r \"no newline at the end"); // a truncated last line
        }
        return t.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void rangesCutAnywhereShareOutEveryLineOnce() throws Exception {
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            StringBuilder text = new StringBuilder();
            int lines = random.nextInt(40);
            for (int i = 0; i < lines; i++) {
                text.append("x".repeat(random.nextInt(random.nextInt(10) == 0 ? 5000 : 30))).append(i);
                if (i < lines - 1 || random.nextBoolean()) {
                    text.append('\n');
                }
            }
            byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
            // Reference: the text split at its '\n' (a final '\n' ends the last line, it does not start one).
            List<String> expected = new ArrayList<>(Arrays.asList(text.toString().split("\n", -1)));
            if (expected.get(expected.size() - 1).isEmpty()) {
                expected.remove(expected.size() - 1);
            }
            List<String> got = new ArrayList<>();
            LineCutter.Source source = (into, position) -> {
                if (position >= bytes.length) {
                    return -1;
                }
                int n = (int) Math.min(into.remaining(), Math.min(bytes.length - position, 1 + random.nextInt(64)));
                into.put(bytes, (int) position, n);
                return n;
            };
            LineCutter cutter = new LineCutter(16);
            long from = 0;
            while (from < bytes.length) {
                long to = Math.min(bytes.length, from + 1 + random.nextInt(200));
                cutter.cut(source, from, to, (buf, start, end, last, offset) -> {
                    assertEquals(new String(buf, start, end - start, StandardCharsets.UTF_8),
                            new String(bytes, (int) offset, end - start, StandardCharsets.UTF_8));
                    assertEquals(offset + (end - start) == bytes.length, last);
                    got.add(new String(buf, start, end - start, StandardCharsets.UTF_8));
                    return true;
                });
                from = to;
            }
            assertEquals(expected, got, "round " + round);
        }
    }

    @Test
    void aStopLeavesTheLineItStoppedBeforeToTheCaller() throws Exception {
        byte[] bytes = "a\nbb\nccc\n".getBytes(StandardCharsets.UTF_8);
        LineCutter.Source source = (into, position) -> {
            if (position >= bytes.length) {
                return -1;
            }
            int n = (int) Math.min(into.remaining(), bytes.length - position);
            into.put(bytes, (int) position, n);
            return n;
        };
        List<Long> offsets = new ArrayList<>();
        long stop = new LineCutter(4).cut(source, 0, bytes.length, (buf, start, end, last, offset) -> {
            offsets.add(offset);
            return end - start < 2;
        });
        assertEquals(2, stop);
        assertEquals(List.of(0L, 2L), offsets);
        // A range that starts inside a line leaves that line to the range before it.
        List<Long> fromOne = new ArrayList<>();
        assertEquals(-1, new LineCutter(4).cut(source, 1, bytes.length, (buf, s, e, l, o) -> fromOne.add(o)));
        assertEquals(List.of(2L, 5L), fromOne);
    }
}
