package org.hetscope.cli.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hetscope.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The memory and tasks commands end to end on the chol-dmda-nb6 StarPU folder. */
class MemoryCommandTest {
    static final Path FIXTURE = Path.of(System.getProperty("hetscope.root", "."))
            .resolve("../shared/fixtures/starpu/chol-dmda-nb6");



    @Test
    void storeThenSnapshotResidencyAndCriticalPath(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("d6.hets");
        assertEquals(0, CliRun.of("import", FIXTURE.toString(), "-o", store.toString()).exitCode());
        Path svg = dir.resolve("snap.svg");
        CliRun snap = CliRun.of("memory", store.toString(), "snapshot", "83ms", "--csv", "--svg", svg.toString());
        assertEquals(0, snap.exitCode(), snap.err());
        List<String> lines = snap.out().lines().toList();
        // Spec item 8: 17 blocks on MEMNODE0 and 9 on MEMNODE1, then JobId 30 with its three accesses.
        assertEquals(17, lines.stream().filter(l -> l.startsWith("MEMNODE0,")).count());
        assertEquals(9, lines.stream().filter(l -> l.startsWith("MEMNODE1,")).count());
        assertEquals(3, lines.stream().filter(l -> l.startsWith("30,chol_gemm,OPENCL0")).count());
        assertTrue(Files.readString(svg).startsWith("<svg"));

        CliRun res = CliRun.of("memory", store.toString(), "residency", "--block", "2 1", "--csv");
        assertEquals(0, res.exitCode(), res.err());
        assertTrue(res.out().contains("\"(2,1)\",55f29bb99940,MEMNODE1,80000000,100000000,16493335,82.466675"),
                res.out());

        CliRun cp = CliRun.of("tasks", store.toString(), "critical-path", "--json");
        assertEquals(0, cp.exitCode(), cp.err());
        assertTrue(cp.out().contains("\"path_tasks\""), cp.out());

        CliRun bad = CliRun.of("memory", store.toString(), "history", "no-such-block");
        assertEquals(1, bad.exitCode());
        assertTrue(bad.err().contains("no block 'no-such-block'"), bad.err());
    }

    @Test
    void traceFolderIsImportedOnTheFly(@TempDir Path dir) throws Exception {
        Path heat = dir.resolve("heat.svg");
        CliRun r = CliRun.of("memory", FIXTURE.toString(), "heatmap", "--norm", "absolute", "--svg", heat.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("normalisation ABSOLUTE"), r.out());
        assertTrue(Files.size(heat) > 1000);
        CliRun d = CliRun.of("memory", FIXTURE.toString(), "detect");
        assertEquals(0, d.exitCode(), d.err());
        assertTrue(d.out().contains("Ping-pong transfers") && d.out().contains("Idle time per worker"), d.out());
        // Stale residency: the node's used-memory columns are printed; RAM, whose StarPU counter stays at 0, can
        // never be "at its maximum", so its replicas appear only when every candidate is listed.
        String stale = staleSection(d.out());
        assertTrue(stale.contains("use_peak_mib") && stale.contains("under_pressure"), stale);
        assertTrue(!stale.contains("MEMNODE0"), stale);
        CliRun all = CliRun.of("memory", FIXTURE.toString(), "detect", "--stale", "1ms", "--stale-all",
                "--pressure", "0.5", "--late-input", "20us", "--late-wait", "2ms");
        assertEquals(0, all.exitCode(), all.err());
        String allStale = staleSection(all.out());
        assertTrue(allStale.contains("kept > 1000000 ns") && allStale.contains("listed whether or not")
                && allStale.contains(">= 0.5 x"), allStale);
        assertTrue(allStale.contains("MEMNODE0"), allStale);
        assertTrue(all.out().contains("Late data (input <= 20000 ns before start, wait after deps >= 2000000 ns)"),
                all.out());
    }

    /** The printed stale-residency table: from its title to the next blank line. */
    static String staleSection(String out) {
        int at = out.indexOf("Stale residency");
        assertTrue(at >= 0, out);
        int end = out.indexOf("\n\n", at);
        return end < 0 ? out.substring(at) : out.substring(at, end);
    }
}
