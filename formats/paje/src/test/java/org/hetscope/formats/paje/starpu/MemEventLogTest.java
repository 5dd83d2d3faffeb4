package org.hetscope.formats.paje.starpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.hetscope.formats.paje.SpillFileNames;
import org.hetscope.formats.paje.starpu.StarpuImport.MemEvent;
import org.hetscope.model.CollectingSink;
import org.junit.jupiter.api.Test;

/**
 * StarPU's memory events read back from spill runs must be the events sorted by (time, line), and a whole import
 * with its events spilled must give exactly what it gives with them in memory.
 */
class MemEventLogTest {
    @Test
    void iterationGivesTheEventsInTimeThenLineOrderWhateverTheBudget() throws Exception {
        Random random = new Random(11);
        List<MemEvent> events = new ArrayList<>();
        for (int line = 1; line <= 5000; line++) {
            String handle = random.nextInt(5) == 0 ? null : "0x" + random.nextInt(40);
            events.add(new MemEvent(random.nextInt(300), line, random.nextBoolean() ? "SO" : "rc",
                    random.nextInt(3), handle, random.nextBoolean() ? null : text(random), text(random),
                    random.nextInt(4) == 0 ? "tid é" : null));
        }
        Collections.shuffle(events, random); // lines out of order too: the order must come from (time, line)
        List<MemEvent> expected = new ArrayList<>(events);
        expected.sort(Comparator.comparingLong(MemEvent::time).thenComparingLong(MemEvent::line));
        Set<String> before = SpillFileNames.starpu();
        for (long budget : new long[] {1, 7, 1000, 1 << 20}) {
            try (MemEventLog log = new MemEventLog("test", budget)) {
                events.forEach(log::add);
                List<MemEvent> first = new ArrayList<>();
                log.forEach(first::add);
                assertEquals(expected, first, "budget " + budget);
                List<MemEvent> again = new ArrayList<>();
                log.forEach(again::add);
                assertEquals(expected, again, "a second pass, budget " + budget);
            }
        }
        assertTrue(before.containsAll(SpillFileNames.starpu()), "spill files are deleted on close");
    }

    /** Plain decimals (which spill as numbers) and texts that only look like them (which must not). */
    private static String text(Random random) {
        return switch (random.nextInt(8)) {
            case 0 -> null;
            case 1 -> "i" + random.nextInt(3);
            case 2 -> Long.toString(random.nextLong(1L << 40));
            case 3 -> "0";
            case 4 -> "0" + random.nextInt(100);
            case 5 -> "-" + random.nextInt(100);
            case 6 -> "999999999999999999" + random.nextInt(10); // 19 digits
            default -> random.nextInt(3) + "é";
        };
    }

    static String everything(CollectingSink s) {
        StringBuilder b = new StringBuilder();
        for (List<?> l : List.of(s.tracks, s.slices, s.instants, s.counters, s.flows, s.transfers, s.memoryNodes,
                s.memoryBlocks, s.residencies, s.tasks, s.taskAccesses, s.taskDependencies)) {
            l.forEach(x -> b.append(x).append('\n'));
        }
        s.extraRows.forEach((table, rows) -> rows.forEach(r -> b.append(table).append(Arrays.deepToString(r))
                .append('\n')));
        return b.toString();
    }

    @Test
    void starpuFixturesImportTheSameWithTheirEventsSpilled() throws Exception {
        for (String name : List.of("chol-lws-nb12", "chol-dmda-nb6")) {
            String memory = everything(StarpuFixtureTest.load(name));
            assertTrue(memory.contains("Residency["), name);
            for (String every : List.of("1", "3", "250")) {
                System.setProperty("hetscope.starpu.spillEvery", every);
                try {
                    assertEquals(memory, everything(StarpuFixtureTest.load(name)), name + ", spilling every " + every);
                } finally {
                    System.clearProperty("hetscope.starpu.spillEvery");
                }
            }
        }
    }
}
