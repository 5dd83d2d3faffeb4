package org.hetscope.capture.agent;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * Runs an example program in a fresh JVM under the agent as it is in target/classes (before packaging): a
 * throw-away agent jar names the Premain class and puts ByteBuddy on the class path.
 */
record ExampleRun(int exitCode, Path trace, Map<String, Long> report, String output) {

    static boolean openClAvailable() {
        try (var s = Files.list(Path.of("/etc/OpenCL/vendors"))) {
            return s.anyMatch(p -> p.toString().endsWith(".icd"));
        } catch (IOException e) {
            return false;
        }
    }

    static String classPathEntry(String part) {
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (Path.of(e).getFileName().toString().contains(part)) {
                return e;
            }
        }
        throw new IllegalStateException(part + " is not on the test class path");
    }

    static Path agentJar(Path dir) throws IOException {
        Path jar = dir.resolve("agent-under-test.jar");
        if (Files.exists(jar)) {
            return jar;
        }
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(new Attributes.Name("Premain-Class"), Premain.class.getName());
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH,
                Path.of(classPathEntry("byte-buddy")).toUri().toString());
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m)) {
            // the manifest is all it needs
        }
        return jar;
    }

    static ExampleRun run(Path work, String name, String mainClass, String... args) throws Exception {
        return runWith(work, name, "", mainClass, args);
    }

    /** {@code options} are appended to the agent's options (e.g. ",device=off"). */
    static ExampleRun runWith(Path work, String name, String options, String mainClass, String... args)
            throws Exception {
        Path trace = work.resolve(name + "-trace");
        Path report = work.resolve(name + ".report");
        Path log = work.resolve(name + ".log");
        Process p = start(work, name, options, mainClass, args);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(name + " did not finish in 120 s: " + Files.readString(log));
        }
        return new ExampleRun(p.exitValue(), trace, readReport(report), Files.readString(log));
    }

    /**
     * Starts the example under the agent without waiting for it: trace in {@code work/NAME-trace}, the program's
     * counts in {@code work/NAME.report}, its output in {@code work/NAME.log}.
     */
    static Process start(Path work, String name, String options, String mainClass, String... args) throws Exception {
        Path trace = work.resolve(name + "-trace");
        Path report = work.resolve(name + ".report");
        Path log = work.resolve(name + ".log");
        // the agent's classes (the jar above has only its manifest) and the example programs (test classes)
        String classes = Path.of(Premain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + File.pathSeparator
                + Path.of(ExampleRun.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-javaagent:" + agentJar(work) + "=out=" + trace + options,
                "-Dhetscope.example.report=" + report,
                "-cp", classPathEntry("jocl") + File.pathSeparator + classes,
                mainClass));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    static Map<String, Long> readReport(Path report) throws IOException {
        Map<String, Long> m = new TreeMap<>();
        if (Files.exists(report)) {
            for (String line : Files.readAllLines(report)) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    m.put(line.substring(0, eq), Long.parseLong(line.substring(eq + 1)));
                }
            }
        }
        return m;
    }
}
