package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The OpenCL capture agent's example programs as the CLI tests run them: the packaged agent jar, the examples jar
 * and JOCL, for tests that need a real agent trace (there is no fixture of one).
 */
public final class AgentExample {
    private AgentExample() {}

    public static final Path ROOT = Path.of(System.getProperty("hetscope.root", "..")).toAbsolutePath().normalize();
    public static final Path AGENT = ROOT.resolve("capture/agent/target/hetscope-agent.jar");

    /** Skips the calling test without PoCL or the built agent; in CI (which installs and builds both) fails. */
    public static void require() {
        boolean ready = openCl() && Files.isRegularFile(AGENT);
        if (System.getenv("CI") != null) {
            assertTrue(ready, "needs an OpenCL ICD (pocl-opencl-icd) and " + AGENT);
        }
        assumeTrue(ready, "needs an OpenCL ICD (pocl-opencl-icd) and " + AGENT);
    }

    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The class path of the examples: JOCL and the agent module's examples jar. */
    public static String classPath() throws IOException {
        return jocl() + File.pathSeparator + examplesJar();
    }

    /** Runs {@code example} (a class of org.hetscope.capture.examples) under the agent, its trace in {@code trace}. */
    public static int record(Path trace, String example, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(java(), "--enable-native-access=ALL-UNNAMED",
                "-javaagent:" + AGENT + "=out=" + trace, "-cp", classPath(),
                "org.hetscope.capture.examples." + example));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(example + " did not finish in 120 s");
        }
        return p.exitValue();
    }

    private static boolean openCl() {
        try (var s = Files.list(Path.of("/etc/OpenCL/vendors"))) {
            return s.anyMatch(p -> p.toString().endsWith(".icd"));
        } catch (IOException e) {
            return false;
        }
    }

    private static Path examplesJar() throws IOException {
        try (var s = Files.list(AGENT.getParent())) {
            return s.filter(p -> p.getFileName().toString().endsWith("-examples.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("build capture/agent first (examples jar)"));
        }
    }

    private static String jocl() {
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (Path.of(e).getFileName().toString().startsWith("jocl")) {
                return e;
            }
        }
        throw new IllegalStateException("jocl is not on the test class path");
    }
}
