package org.hetscope.formats.opencl;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the agent's example programs in a fresh JVM under the packaged agent
 * (capture/agent/target/hetscope-agent.jar) and returns the trace folder and the counts the program kept itself.
 * Shared through this module's test jar with the CLI tests, which need real agent traces too (no fixture holds one).
 */
public record AgentRun(int exitCode, Path trace, Map<String, Long> report, String output) {

    static Path root() {
        return Path.of(System.getProperty("hetscope.root", "../..")).toAbsolutePath().normalize();
    }

    public static Path agentJar() {
        return root().resolve("capture/agent/target/hetscope-agent.jar");
    }

    static Path examplesJar() throws IOException {
        try (var s = Files.list(root().resolve("capture/agent/target"))) {
            return s.filter(p -> p.getFileName().toString().endsWith("-examples.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("build capture/agent first (examples jar)"));
        }
    }

    static boolean ready() {
        try (var s = Files.list(Path.of("/etc/OpenCL/vendors"))) {
            return s.anyMatch(p -> p.toString().endsWith(".icd")) && Files.exists(agentJar());
        } catch (IOException e) {
            return false;
        }
    }

    /** Skips the calling test without an OpenCL ICD or the built agent; fails in CI, which installs and builds both. */
    public static void require() {
        if (System.getenv("CI") != null) {
            assertTrue(ready(), "needs an OpenCL ICD (pocl-opencl-icd) and capture/agent built");
        }
        assumeTrue(ready(), "needs an OpenCL ICD (pocl-opencl-icd) and capture/agent built");
    }

    static String jocl() {
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (Path.of(e).getFileName().toString().startsWith("jocl")) {
                return e;
            }
        }
        throw new IllegalStateException("jocl is not on the test class path");
    }

    /** The java of the running JVM. */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The class path of the example programs: JOCL and the agent module's examples jar. */
    public static String classPath() throws IOException {
        return jocl() + File.pathSeparator + examplesJar();
    }

    /** Runs {@code example} (a class of org.hetscope.capture.examples) with its trace in {@code work/NAME-trace}. */
    public static AgentRun run(Path work, String name, String example, String... args) throws Exception {
        Path trace = work.resolve(name + "-trace");
        Path report = work.resolve(name + ".report");
        Path log = work.resolve(name + ".log");
        List<String> cmd = new ArrayList<>(List.of(java(), "--enable-native-access=ALL-UNNAMED",
                "-javaagent:" + agentJar() + "=out=" + trace, "-Dhetscope.example.report=" + report,
                "-cp", classPath(), "org.hetscope.capture.examples." + example));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(name + " did not finish in 120 s");
        }
        return new AgentRun(p.exitValue(), trace, readReport(report), Files.readString(log));
    }

    /** The counts an example wrote (key=value lines); empty when it wrote none. */
    public static Map<String, Long> readReport(Path report) throws IOException {
        Map<String, Long> m = new TreeMap<>();
        if (Files.exists(report)) {
            for (String line : Files.readAllLines(report)) {
                int eq = line.indexOf('=');
                m.put(line.substring(0, eq), Long.parseLong(line.substring(eq + 1)));
            }
        }
        return m;
    }
}
