package org.hetscope.formats.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.hetscope.model.Progress;
import org.junit.jupiter.api.Test;

/**
 * States and variables replayed from the spill file must be exactly those replayed from memory: the same states
 * with the same values, extras and lines, the same variable values, in the same order, with the same problems. The reference is the reader without a
 * spill (the whole trace in memory), on the real StarPU traces (written out of time order) and on random unsorted
 * traces with nested push/pop, equal times and extra fields.
 */
class BufferSpillTest {
    private static final Path FIXTURES = Path.of(System.getProperty("hetscope.root", "."))
            .resolve("../shared/fixtures/starpu");

    /** Everything the reader says about states, in the order it says it. */
    private static String replay(byte[] trace, long spillEvery) throws IOException {
        PajeReaderTest.Recorder r = new PajeReaderTest.Recorder();
        PajeReader reader = new PajeReader(r, null);
        if (spillEvery > 0) {
            reader.spillEvery(spillEvery);
        }
        reader.read(new ByteArrayInputStream(trace), Progress.NONE);
        StringBuilder b = new StringBuilder();
        for (PajeState s : r.states) {
            b.append(s.container().alias()).append(' ').append(s.type().alias()).append(' ').append(s.start())
                    .append('-').append(s.end()).append(' ').append(s.value() == null ? null : s.value().alias())
                    .append(' ').append(s.value() == null ? null : s.value().name()).append(" d").append(s.depth())
                    .append(' ').append(s.definition() == null ? null : s.definition().id()).append(' ')
                    .append(s.extras() == null ? "-" : String.join("|", java.util.Arrays.stream(s.extras())
                            .map(String::valueOf).toList()))
                    .append(" @").append(s.line()).append(s.closedByEnd() ? " end" : "").append('\n');
        }
        r.problems.forEach(p -> b.append("problem ").append(p).append('\n'));
        r.variables.forEach(v -> b.append("variable ").append(v).append('\n'));
        return b.toString();
    }

    @Test
    void starpuTracesReplayTheSameFromTheSpill() throws Exception {
        for (String name : List.of("chol-lws-nb12", "chol-dmda-nb6")) {
            byte[] trace = Files.readAllBytes(FIXTURES.resolve(name).resolve("paje.trace"));
            Set<String> before = SpillFileNames.paje();
            String memory = replay(trace, 0);
            assertTrue(memory.lines().count() > 1000, name);
            for (long every : new long[] {1, 97, 5000}) {
                assertEquals(memory, replay(trace, every), name + ", spilling every " + every + " states");
            }
            assertTrue(before.containsAll(SpillFileNames.paje()), "spill files are deleted after the read");
        }
    }

    @Test
    void randomUnsortedNestedStatesReplayTheSameFromTheSpill() throws Exception {
        Random random = new Random(20261125);
        for (int round = 0; round < 20; round++) {
            StringBuilder t = new StringBuilder(PajeReaderTest.HEADER);
            int ops = 50 + random.nextInt(3000);
            for (int i = 0; i < ops; i++) {
                String c = random.nextBoolean() ? "c1" : "c2";
                // few distinct times: many ties, which the replay must keep in file order
                String time = (random.nextInt(40) + 1) + "." + random.nextInt(4);
                String value = random.nextBoolean() ? "r" : "w";
                switch (random.nextInt(6)) {
                    case 4 -> t.append("12 ").append(time).append(" V m1 ").append(random.nextInt(100));
                    case 5 -> t.append(random.nextBoolean() ? "13 " : "14 ").append(time).append(" V m1 ")
                            .append(random.nextInt(10)).append('.').append(random.nextInt(10));
                    case 0 -> t.append("8 ").append(time).append(" ST ").append(c).append(' ').append(value);
                    case 1, 2 -> t.append("9 ").append(c).append(' ').append(time).append(" ST ").append(value)
                            .append(' ').append(random.nextInt(3) == 0 ? "\"a mark ü\"" : "m" + i);
                    default -> t.append("10 ").append(time).append(" ST ").append(c);
                }
                t.append('\n');
            }
            if (random.nextBoolean()) {
                t.append("7 30 C c2\n"); // later states of c2 are problems, in the same order both ways
            }
            byte[] trace = t.toString().getBytes(StandardCharsets.UTF_8);
            String memory = replay(trace, 0);
            for (long every : new long[] {1, 2, 1 + random.nextInt(200)}) {
                assertEquals(memory, replay(trace, every), "round " + round + ", spilling every " + every);
            }
        }
    }
}
