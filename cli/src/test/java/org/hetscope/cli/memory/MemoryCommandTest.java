package org.hetscope.cli.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hetscope.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The memory and tasks commands end to end on the chol-dmda-nb6 StarPU folder. */
class MemoryCommandTest {
    static final Path FIXTURE = Path.of(System.getProperty("hetscope.root", "."))
            .resolve("../shared/fixtures/starpu/chol-dmda-nb6");

    record Run(int code, String out, String err) {}

    static synchronized Run run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = Main.run(args);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Test
    void storeThenSnapshotResidencyAndCriticalPath(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("d6.hets");
        assertEquals(0, run("import", FIXTURE.toString(), "-o", store.toString()).code());
        Path svg = dir.resolve("snap.svg");
        Run snap = run("memory", store.toString(), "snapshot", "83", "--csv", "--svg", svg.toString());
        assertEquals(0, snap.code(), snap.err());
        List<String> lines = snap.out().lines().toList();
        // Spec item 8: 17 blocks on MEMNODE0 and 9 on MEMNODE1, then JobId 30 with its three accesses.
        assertEquals(17, lines.stream().filter(l -> l.startsWith("MEMNODE0,")).count());
        assertEquals(9, lines.stream().filter(l -> l.startsWith("MEMNODE1,")).count());
        assertEquals(3, lines.stream().filter(l -> l.startsWith("30,chol_gemm,OPENCL0")).count());
        assertTrue(Files.readString(svg).startsWith("<svg"));

        Run res = run("memory", store.toString(), "residency", "--block", "2 1", "--csv");
        assertEquals(0, res.code(), res.err());
        assertTrue(res.out().contains("\"(2,1)\",55f29bb99940,MEMNODE1,80000000,100000000,16493335,82.466675"),
                res.out());

        Run cp = run("tasks", store.toString(), "critical-path", "--json");
        assertEquals(0, cp.code(), cp.err());
        assertTrue(cp.out().contains("\"path_tasks\""), cp.out());

        Run bad = run("memory", store.toString(), "history", "no-such-block");
        assertEquals(1, bad.code());
        assertTrue(bad.err().contains("no block 'no-such-block'"), bad.err());
    }

    @Test
    void traceFolderIsImportedOnTheFly(@TempDir Path dir) throws Exception {
        Path heat = dir.resolve("heat.svg");
        Run r = run("memory", FIXTURE.toString(), "heatmap", "--norm", "absolute", "--svg", heat.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("normalisation ABSOLUTE"), r.out());
        assertTrue(Files.size(heat) > 1000);
        Run d = run("memory", FIXTURE.toString(), "detect");
        assertEquals(0, d.code(), d.err());
        assertTrue(d.out().contains("Ping-pong transfers") && d.out().contains("Idle time per worker"), d.out());
        assertEquals("1", String.valueOf(StoreInput.time("1000000ns") / 1_000_000));
        assertEquals(83_000_000L, StoreInput.time("83"));
        assertEquals(1_500_000_000L, StoreInput.time("1.5s"));
    }
}
