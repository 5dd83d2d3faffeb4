package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged trace given straight to a command that reads stores (report, plot, diff, tasks, memory) is read as
 * {@code import} reads it: what was lost is listed with its place, and the command exits 3 after working on what was
 * intact. Before, those commands imported it into their temporary store in silence and exited 0.
 */
class DamagedTraceInputTest {
    static final Path STARPU = Path.of(System.getProperty("hetscope.root", "."))
            .resolve("../shared/fixtures/starpu/chol-dmda-nb6");

    @TempDir
    Path dir;

    /** Two kernels intact, one with a string for its time, one event of an unknown phase with no time. */
    private Path damagedKineto() throws Exception {
        Path in = dir.resolve("dmg.json");
        Files.writeString(in, """
                [{"ph":"X","cat":"kernel","name":"a","pid":1,"tid":1,"ts":1,"dur":2,"args":{"device":0,"stream":7}},
                {"ph":"X","cat":"kernel","name":"b","pid":1,"tid":1,"ts":"zz","dur":2},
                {"ph":"Q","name":"c"},
                {"ph":"X","cat":"kernel","name":"a","pid":1,"tid":1,"ts":10,"dur":4,"args":{"device":0,"stream":7}}]
                """);
        return in;
    }

    private static void assertDamageReported(CliRun r, Path in, String what) {
        assertEquals(3, r.exitCode(), what + ": " + r.err());
        assertTrue(r.err().contains("damaged_record") && r.err().contains(in + " at byte"), what + ": " + r.err());
        assertTrue(r.err().contains(in + ": the input is damaged (2 item(s) lost"), what + ": " + r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void storeCommandsGivenADamagedTraceListTheDamageAndExit3() throws Exception {
        Path in = damagedKineto();
        Path html = dir.resolve("r.html");
        CliRun report = CliRun.of("report", in.toString(), "-o", html.toString());
        assertDamageReported(report, in, "report");
        assertTrue(Files.readString(html).contains(">a<"), "the report shows what was intact");
        Path svg = dir.resolve("k.svg");
        assertDamageReported(CliRun.of("plot", in.toString(), "kernels", "-o", svg.toString()), in, "plot");
        assertTrue(Files.readString(svg).contains("<svg"));
        CliRun diff = CliRun.of("diff", in.toString(), in.toString(), "--csv");
        assertDamageReported(diff, in, "diff");
        assertTrue(diff.out().contains("kernel,a,same,2,2,"), diff.out());
    }

    @Test
    void anIntactTraceStillExits0() throws Exception {
        Path html = dir.resolve("ok.html");
        CliRun r = CliRun.of("report", ImportCommandTest.SIMPLE_ADD.toString(), "-o", html.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertFalse(r.err().contains("damaged"), r.err());
        // kept generically is not damage: the list is shown, the exit code stays 0
        assertTrue(r.err().contains("kept generically or skipped"), r.err());
    }

    @Test
    void taskAnalysesOfADamagedStarpuFolderSayWhatWasLost() throws Exception {
        Path copy = Files.createDirectory(dir.resolve("starpu"));
        try (Stream<Path> files = Files.list(STARPU)) {
            for (Path f : files.toList()) {
                Files.copy(f, copy.resolve(f.getFileName()));
            }
        }
        Path paje = copy.resolve("paje.trace");
        List<String> lines = new ArrayList<>(Files.readAllLines(paje));
        int victim = -1;
        for (int i = lines.size() / 2; i < lines.size(); i++) {
            if (lines.get(i).startsWith("10\t")) { // a PajeSetState of the StarPU header: time is its 2nd field
                victim = i;
                break;
            }
        }
        assertTrue(victim > 0, "a state change to damage");
        String[] fields = lines.get(victim).split("\t");
        fields[1] = "x" + fields[1];
        lines.set(victim, String.join("\t", fields));
        Files.write(paje, lines);
        CliRun r = CliRun.of("tasks", copy.toString(), "critical-path", "--csv");
        assertEquals(3, r.exitCode(), r.err());
        assertTrue(r.err().contains(paje + ":" + (victim + 1)), "the damaged line is named: " + r.err());
        assertTrue(r.err().contains(copy + ": the input is damaged (1 item(s) lost"), r.err());
        assertTrue(r.out().startsWith("tasks,edges,path_tasks,path_ns"), r.out());
        CliRun intact = CliRun.of("tasks", STARPU.toString(), "critical-path", "--csv");
        assertEquals(0, intact.exitCode(), intact.err());
        assertEquals(intact.out().lines().skip(1).findFirst(), r.out().lines().skip(1).findFirst(),
                "one state change lost leaves the task graph whole");
    }
}
