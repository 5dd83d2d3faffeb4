package org.hetscope.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bench/gpu/run.sh, the script for the machine with a GPU, as a dry run with tiny sizes on whatever OpenCL device is
 * here (PoCL): it makes its bundle (without the Java runtime, to stay quick), runs the three checks from the bundle
 * alone and writes its results file, whose sections and kNN counter check are read back.
 */
class GpuScriptDryRunTest {
    @Test
    void dryRunWritesAllThreeSections(@TempDir Path dir) throws Exception {
        Path results = dir.resolve("gpu-results.md");
        Path log = dir.resolve("gpu-run.log");
        ProcessBuilder pb = new ProcessBuilder(Hetscope.ROOT.resolve("bench/gpu/run.sh").toString(), "--dry-run",
                "--no-jre", "--out", results.toString()).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().put("HETSCOPE_GPU_BUNDLE", dir.resolve("bundle").toString());
        Process p = pb.start();
        if (!p.waitFor(280, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("bench/gpu/run.sh --dry-run took more than 280 s: " + Hetscope.read(log));
        }
        String text = Files.exists(results) ? Files.readString(results) : "";
        assertEquals(0, p.exitValue(), () -> Hetscope.read(log) + "\n" + text);
        assertTrue(text.contains("## 1. Capture agent overhead"), text);
        assertTrue(text.contains("| launch-heavy (LaunchHeavy 300) | 1 |"), text);
        assertTrue(text.contains("| transfer-heavy (TransferPipeline 2 x 4096) | 1 |"), text);
        assertTrue(text.contains("## 2. In-kernel tracing"), text);
        for (String mode : new String[] {"two-phase reduced", "shared reduced", "sub-buffer reduced", "reduction"}) {
            assertTrue(text.contains("| vadd | " + mode + " |"), mode + "\n" + text);
        }
        assertTrue(text.contains("median over kernels:"), text);
        assertTrue(text.contains("counters: all match the kernel's arithmetic"), text);
    }
}
