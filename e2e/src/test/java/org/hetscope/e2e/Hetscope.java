package org.hetscope.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code ./hetscope} from the repository root as a separate process, exactly as a user does: the launcher
 * script, its JVM options, cli/target/hetscope.jar and the ahead-of-time caches beside it. Nothing of hetscope is
 * on this class path; what the commands write is read back with independent readers (Jackson, DuckDB's JDBC
 * driver).
 */
final class Hetscope {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Path ROOT = Path.of(System.getProperty("hetscope.root", "..")).toAbsolutePath().normalize();
    static final Path LAUNCHER = ROOT.resolve("hetscope");
    static final Path JAR = ROOT.resolve("cli/target/hetscope.jar");
    static final Path FIXTURES = ROOT.resolve("../shared/fixtures").normalize();
    static final long TIMEOUT_S = 180;

    private Hetscope() {
    }

    /** What one run gave: exit code, standard output, standard error, and the command for messages. */
    record Result(int exit, String out, String err, String command) {
        Result ok() {
            assertEquals(0, exit, () -> "exit code of " + this);
            return this;
        }

        Result exit(int code) {
            assertEquals(code, exit, () -> "exit code of " + this);
            return this;
        }

        /** Standard output parsed as JSON (--json). */
        JsonNode json() {
            try {
                return JSON.readTree(out);
            } catch (IOException e) {
                throw new AssertionError("not JSON from " + command + ": " + out, e);
            }
        }

        /** The rows of one table of a --json document: the document itself when it is one table. */
        JsonNode table(String name) {
            JsonNode j = json();
            if (j.isArray()) {
                return j;
            }
            JsonNode t = j.get(name);
            assertTrue(t != null && t.isArray(), () -> "no table '" + name + "' in " + command + ": " + j.fieldNames()
                    .toString());
            return t;
        }

        @Override
        public String toString() {
            return command + " -> " + exit + "\n--- stdout (head)\n" + head(out) + "\n--- stderr (head)\n" + head(err);
        }

        private static String head(String s) {
            return s.length() > 3000 ? s.substring(0, 3000) + "..." : s;
        }
    }

    /** The environment a user's shell would give: none of the overrides the launcher reads. */
    private static ProcessBuilder builder(Path workDir, List<String> cmd) {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile());
        Map<String, String> env = pb.environment();
        env.remove("HETSCOPE_JAVA_OPTS");
        env.remove("HETSCOPE_JVM_OPTIONS_OF");
        env.remove("HETSCOPE_AGENT_JAR");
        return pb;
    }

    static Result run(Path workDir, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(LAUNCHER.toString());
        cmd.addAll(List.of(args));
        return exec(workDir, cmd);
    }

    static Result exec(Path workDir, List<String> cmd) {
        String shown = "./hetscope " + String.join(" ", cmd.subList(1, cmd.size()));
        try {
            Path out = Files.createTempFile(workDir, "out-", ".txt");
            Path err = Files.createTempFile(workDir, "err-", ".txt");
            Process p = builder(workDir, cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail(shown + " did not finish in " + TIMEOUT_S + " s");
            }
            Result r = new Result(p.exitValue(), Files.readString(out), Files.readString(err), shown);
            Files.delete(out);
            Files.delete(err);
            // whatever a command says, it never ends in a Java stack trace
            assertTrue(!r.err().contains("\tat ") && !r.err().contains("Exception in thread"),
                    () -> "stack trace from " + r);
            return r;
        } catch (IOException e) {
            throw new AssertionError("could not run " + shown, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Starts a long-running command (serve); the caller stops it. */
    static Process start(Path workDir, Path stdout, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(LAUNCHER.toString());
        cmd.addAll(List.of(args));
        return builder(workDir, cmd).redirectOutput(stdout.toFile()).redirectErrorStream(true).start();
    }

    /**
     * The jar must exist and be what this build packaged; the AOT caches are trained for it when stale (what
     * build.sh does after the build), so that the commands start as a user's do.
     */
    static void requireBuilt() throws Exception {
        assertTrue(Files.isRegularFile(JAR), JAR + " is missing: these tests run after `mvn package` of the cli");
        Path aot = ROOT.resolve("cli/target/aot/all.aot");
        if (!Files.exists(aot) || !newer(aot, JAR)) {
            Path log = ROOT.resolve("cli/target/e2e-aot-training.log");
            Process p = new ProcessBuilder(ROOT.resolve("build.sh").toString(), "aot").directory(ROOT.toFile())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("AOT training did not finish in 300 s (" + log + ")");
            }
            assertEquals(0, p.exitValue(), () -> "./build.sh aot failed: " + read(log));
        }
    }

    private static boolean newer(Path a, Path b) throws IOException {
        FileTime ta = Files.getLastModifiedTime(a);
        FileTime tb = Files.getLastModifiedTime(b);
        return ta.compareTo(tb) > 0;
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            return "(" + p + " unreadable: " + e.getMessage() + ")";
        }
    }

    /** One long from a store written by hetscope, read with DuckDB's own driver (read-only). */
    static long storeLong(Path store, String sql) throws Exception {
        Properties p = new Properties();
        p.setProperty("duckdb.read_only", "true");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + store, p);
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getLong(1);
        }
    }

    /** One long from a SQLite file (an Nsight export), read with sqlite-jdbc. */
    static long sqliteLong(Path db, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + db + "?mode=ro");
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getLong(1);
        }
    }

    /** A jar of this test's class path whose file name starts with {@code prefix} (JOCL for capture's program). */
    static String classPathJar(String prefix) {
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (Path.of(e).getFileName().toString().startsWith(prefix)) {
                return e;
            }
        }
        throw new IllegalStateException(prefix + " is not on the test class path");
    }
}
