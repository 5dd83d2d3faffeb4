package org.hetscope.cli.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.hetscope.cli.CliRun;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory commands read times as every command does (issue 24, defect 5): from the trace start, with units, bare
 * numbers in ns, {@code @} for the trace's clock, and a warning outside the trace. chol-dmda-nb6 runs from 0 (its
 * first counter sample) to 101.685256 ms.
 */
class MemoryTimesTest {
    @TempDir
    static Path dir;
    static String store;

    @BeforeAll
    static void importFixture() {
        store = dir.resolve("d6.hets").toString();
        assertEquals(0, CliRun.of("import", MemoryCommandTest.FIXTURE.toString(), "-o", store).exitCode());
    }

    @Test
    void snapshotTimesAreReadOneWay() {
        String relative = CliRun.of("memory", store, "snapshot", "83ms", "--csv").out();
        assertEquals(relative, CliRun.of("memory", store, "snapshot", "@83ms", "--csv").out());
        assertEquals(relative, CliRun.of("memory", store, "snapshot", "83000000", "--csv").out());
        assertEquals(relative, CliRun.of("memory", store, "snapshot", "83000us", "--csv").out());
        // spec item 8 at 83 ms: JobId 30 runs
        assertTrue(relative.contains("30,chol_gemm,OPENCL0"), relative);
        CliRun outside = CliRun.of("memory", store, "snapshot", "200ms");
        assertEquals(0, outside.exitCode(), outside.err());
        assertTrue(outside.err().contains("warning: 200.0 ms lies outside the trace (0 to 101.7 ms"), outside.err());
        CliRun backwards = CliRun.of("memory", store, "snapshot", "83ms", "--until", "80ms");
        assertEquals(2, backwards.exitCode());
        assertTrue(backwards.err().contains("--until (80.00 ms) is before T (83.00 ms)"), backwards.err());
        CliRun series = CliRun.of("memory", store, "snapshot", "80ms", "--until", "84ms", "--step", "2ms", "--csv");
        assertEquals(0, series.exitCode(), series.err());
        assertTrue(series.out().contains("\n80000000,") && series.out().contains("\n82000000,")
                && !series.out().contains("\n84000000,"), series.out());
    }

    @Test
    void ganttWindowsAndDurations() {
        CliRun g = CliRun.of("memory", store, "gantt", "--from", "80ms", "--to", "90ms");
        assertEquals(0, g.exitCode(), g.err());
        assertTrue(g.out().contains("Manager action share of [80000000, 90000000) ns"), g.out());
        assertEquals("", g.err());
        CliRun after = CliRun.of("memory", store, "gantt", "--from", "1s", "--to", "2s");
        assertTrue(after.err().contains("lies outside the trace"), after.err());
        CliRun badBin = CliRun.of("memory", store, "residency", "--bin", "-1ms");
        assertEquals(2, badBin.exitCode());
        assertTrue(badBin.err().contains("Invalid value for option '--bin': '-1ms': a duration cannot be negative"),
                badBin.err());
        CliRun bins = CliRun.of("memory", store, "residency", "--bin", "0.02s", "--csv");
        assertEquals(CliRun.of("memory", store, "residency", "--csv").out(), bins.out(), "20ms is the default bin");
        CliRun text = CliRun.of("memory", store, "detect", "--late-input", "20us", "--late-wait", "2ms");
        assertTrue(text.out().contains("Late data (input <= 20000 ns before start, wait after deps >= 2000000 ns)"),
                text.out());
    }
}
