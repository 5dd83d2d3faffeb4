package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26, security and outputs, end to end: {@code sql}, {@code report} and {@code info} over stores made in the
 * test (hostile ones included), and {@code import -o} run as its own process where processes matter.
 */
class SafeByDefaultTest {
    static final Path SIMPLE_ADD = ImportCommandTest.SIMPLE_ADD;
    static final String SECRET = "the-secret-line-7c1f";

    @TempDir
    Path dir;

    private Path importStore(String name) throws Exception {
        Path store = dir.resolve(name);
        CliRun r = CliRun.of("import", SIMPLE_ADD.toString(), "-o", store.toString());
        assertEquals(0, r.exitCode(), r.err());
        return store;
    }

    private Path secret() throws Exception {
        Path secret = dir.resolve("secret.txt");
        Files.writeString(secret, SECRET + ":x:0:0\n");
        return secret;
    }

    /** A store whose author added a view reading a local file, like a store shared by someone else may. */
    private Path hostileStore(Path secret) throws Exception {
        Path store = importStore("hostile.hets");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + store); Statement st = c.createStatement()) {
            st.execute("CREATE VIEW notes AS SELECT * FROM read_text('" + secret + "')");
        }
        return store;
    }

    private static void assertReadOnlyRefusal(CliRun r, String sql) {
        assertEquals(1, r.exitCode(), sql + "\n" + r.err());
        assertTrue(r.err().startsWith("hetscope: read-only: "), sql + "\n" + r.err());
        assertFalse(r.out().contains(SECRET) || r.err().contains(SECRET), sql);
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void sqlRefusesEveryStatementClassThatReachesOutOfTheStore() throws Exception {
        Path store = importStore("s.hets");
        Path other = importStore("other.hets");
        Path secret = secret();
        byte[] storeBytes = Files.readAllBytes(store);
        byte[] otherBytes = Files.readAllBytes(other);
        Path written = dir.resolve("written.csv");
        List<String> refused = List.of(
                "SELECT * FROM read_csv('" + secret + "', sep=':')",
                "SELECT * FROM read_text('" + secret + "')",
                "SELECT * FROM glob('" + dir + "/*')",
                "SELECT content FROM read_blob('" + secret + "')",
                "COPY (SELECT 'x') TO '" + written + "' (FORMAT csv)",
                "COPY (SELECT 'x') TO '" + store + "' (FORMAT csv)",
                "ATTACH '" + other + "' AS o (READ_WRITE); DELETE FROM o.slice",
                "SELECT 1; ATTACH '" + other + "' AS o",
                "INSTALL httpfs",
                "LOAD httpfs",
                "SET enable_external_access = true",
                "EXPORT DATABASE '" + dir.resolve("exp") + "'",
                "EXPLAIN ANALYZE COPY (SELECT 1) TO '" + written + "'",
                "/* a comment first */ CREATE TABLE t AS SELECT 1",
                "PRAGMA enable_profiling");
        for (String sql : refused) {
            assertReadOnlyRefusal(CliRun.of("sql", store.toString(), sql), sql);
        }
        assertFalse(Files.exists(written));
        assertFalse(Files.exists(dir.resolve("exp")));
        assertArrayEquals(storeBytes, Files.readAllBytes(store), "the store is unchanged");
        assertArrayEquals(otherBytes, Files.readAllBytes(other), "the other store is unchanged");
        assertEquals(0, CliRun.of("info", other.toString()).exitCode());
        // statements that only read keep working, a semicolon inside a string included
        for (String sql : List.of("SELECT count(*) AS n FROM slice", "WITH k AS (SELECT * FROM slice) SELECT count(*) "
                        + "FROM k", "DESCRIBE slice", "SUMMARIZE trace_info", "EXPLAIN SELECT * FROM slice",
                "PRAGMA table_info('slice')", "SHOW TABLES", "SELECT 'a;b' AS x -- COPY in a comment",
                "FROM slice LIMIT 1", "PIVOT slice ON category USING count(*)", "(SELECT 1 AS one)")) {
            CliRun r = CliRun.of("sql", store.toString(), sql, "--csv");
            assertEquals(0, r.exitCode(), sql + "\n" + r.err());
            assertFalse(r.out().isEmpty(), sql);
        }
    }

    @Test
    void aHostileStoreExposesNoLocalFileThroughSqlOrReport() throws Exception {
        Path secret = secret();
        Path store = hostileStore(secret);
        assertReadOnlyRefusal(CliRun.of("sql", store.toString(), "SELECT * FROM notes"), "the view");
        Path html = dir.resolve("r.html");
        CliRun report = CliRun.of("report", store.toString(), "-o", html.toString());
        assertEquals(0, report.exitCode(), report.err());
        String page = Files.readString(html);
        assertTrue(page.contains("<html") || page.contains("<!DOCTYPE"), "a report was written");
        assertFalse(page.contains(SECRET), "the report embeds no local file");
        assertFalse(page.contains(">notes<"), "the store's views are not listed as store tables");
    }

    @Test
    void importRefusesToReplaceItsInputOrAFileThatIsNotAStore() throws Exception {
        Path input = dir.resolve("mytrace.json.gz");
        Files.copy(SIMPLE_ADD, input);
        byte[] trace = Files.readAllBytes(input);
        Child r = child("import", input.toString(), "-o", input.toString());
        assertEquals(2, r.exit(), r.said());
        assertTrue(r.said().contains(input + ": is one of the inputs"), r.said());
        assertArrayEquals(trace, Files.readAllBytes(input), "the trace is intact");
        // the same file under another name (a hard link) is still the input
        Path link = Files.createLink(dir.resolve("link.json.gz"), input);
        CliRun viaLink = CliRun.of("import", input.toString(), "-o", link.toString());
        assertEquals(2, viaLink.exitCode(), viaLink.err());
        assertArrayEquals(trace, Files.readAllBytes(input));

        Path notes = dir.resolve("notes.txt");
        Files.writeString(notes, "my notes");
        CliRun refused = CliRun.of("import", input.toString(), "-o", notes.toString());
        assertEquals(2, refused.exitCode(), refused.err());
        assertTrue(refused.err().contains("exists and is not a complete hetscope store") && refused.err().contains(
                "--force"), refused.err());
        assertEquals("my notes", Files.readString(notes));
        CliRun forced = CliRun.of("import", input.toString(), "-o", notes.toString(), "--force");
        assertEquals(0, forced.exitCode(), forced.err());
        assertTrue(opensAsStore(notes));
        // an existing store is replaced without --force
        CliRun again = CliRun.of("import", input.toString(), "-o", notes.toString());
        assertEquals(0, again.exitCode(), again.err());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of("link.json.gz", "mytrace.json.gz", "notes.txt"),
                    left.map(p -> p.getFileName().toString()).sorted().toList(), "no partial, wal or lock left");
        }
    }

    /** Before: a trace folder given to a store command was "no such store file", as if the path were wrong. */
    @Test
    void aTraceFolderWhereAStoreIsReadIsNamedAFolder() throws Exception {
        Path starpu = DamagedTraceInputTest.STARPU;
        for (String command : List.of("info", "stats", "gpu", "flows", "lanes", "advise")) {
            CliRun r = CliRun.of(command, starpu.toString());
            assertEquals(1, r.exitCode(), command + ": " + r.err());
            assertEquals("hetscope: " + starpu + ": a folder, not a store file (a trace folder is read with "
                    + "'hetscope import FOLDER -o STORE' first)", r.err().strip(), command);
        }
        CliRun missing = CliRun.of("info", dir.resolve("nope.hets").toString());
        assertTrue(missing.err().contains("nope.hets: no such store file"), missing.err());
    }

    @Test
    void aFolderAsOutputFailsBeforeReading() throws Exception {
        Path folder = Files.createDirectory(dir.resolve("out"));
        CliRun r = CliRun.of("import", SIMPLE_ADD.toString(), "-o", folder.toString());
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains(folder + ": is a folder"), r.err());
        assertFalse(r.err().contains("kept generically"), "nothing was read: " + r.err());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(folder), left.toList(), "no folder.partial");
        }
    }

    /** Before: {@code report S -o S} wrote HTML over the store, and any existing file was replaced silently. */
    @Test
    void reportAndPlotNeverReplaceTheirInputsNorAnExistingFileWithoutForce() throws Exception {
        Path store = importStore("run.hets");
        Path trace = dir.resolve("run.json.gz");
        Files.copy(SIMPLE_ADD, trace);
        byte[] storeBytes = Files.readAllBytes(store);
        byte[] traceBytes = Files.readAllBytes(trace);
        List<String[]> onInputs = List.of(
                new String[] {"report", store.toString(), "-o", store.toString()},
                new String[] {"report", store.toString(), "-o", store.toString(), "--force"},
                new String[] {"report", trace.toString(), "-o", trace.toString(), "--force"},
                new String[] {"report", store.toString(), "--diff", trace.toString(), "-o", trace.toString(),
                        "--force"},
                new String[] {"report", store.toString(), "-o", dir.resolve("x/../run.hets").toString(), "--force"});
        for (String[] args : onInputs) {
            CliRun r = CliRun.of(args);
            assertEquals(2, r.exitCode(), String.join(" ", args) + "\n" + r.err());
            assertTrue(r.err().contains("is one of the inputs"), r.err());
        }
        assertArrayEquals(storeBytes, Files.readAllBytes(store), "the store is intact");
        assertArrayEquals(traceBytes, Files.readAllBytes(trace), "the trace is intact");

        Path notes = dir.resolve("notes.html");
        Files.writeString(notes, "my notes");
        Path picture = dir.resolve("mine.svg");
        Files.writeString(picture, "my picture");
        CliRun report = CliRun.of("report", store.toString(), "-o", notes.toString());
        assertEquals(2, report.exitCode(), report.err());
        assertTrue(report.err().contains(notes + ": exists; not replacing it (use --force"), report.err());
        assertEquals("my notes", Files.readString(notes));
        for (String view : List.of("timeline", "kernels")) {
            CliRun plot = CliRun.of("plot", store.toString(), view, "-o", picture.toString());
            assertEquals(2, plot.exitCode(), plot.err());
            assertTrue(plot.err().contains(picture + ": exists; not replacing it"), plot.err());
        }
        assertEquals("my picture", Files.readString(picture));
        assertEquals(0, CliRun.of("report", store.toString(), "-o", notes.toString(), "--force").exitCode());
        assertTrue(Files.readString(notes).contains("<title>hetscope report"));
        assertEquals(0, CliRun.of("plot", store.toString(), "kernels", "-o", picture.toString(), "--force")
                .exitCode());
        assertTrue(Files.readString(picture).contains("<svg"));
        CliRun folder = CliRun.of("report", store.toString(), "-o", dir.toString(), "--force");
        assertEquals(2, folder.exitCode(), folder.err());
        assertTrue(folder.err().contains(dir + ": is a folder"), folder.err());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of("mine.svg", "notes.html", "run.hets", "run.json.gz"),
                    left.map(p -> p.getFileName().toString()).sorted().toList(), "no temporary file left");
        }
    }

    /** Before: a PNG into a missing folder printed ImageIO's stack trace and "Can't create an ImageOutputStream!". */
    @Test
    void reportAndPlotIntoAMissingFolderMakeItLikeImport() throws Exception {
        Path store = importStore("run.hets");
        for (String out : List.of("a/r.html", "b/p.png", "c/p.svg")) {
            Path target = dir.resolve(out);
            CliRun r = out.endsWith(".html") ? CliRun.of("report", store.toString(), "-o", target.toString())
                    : CliRun.of("plot", store.toString(), "kernels", "-o", target.toString());
            assertEquals(0, r.exitCode(), out + ": " + r.err());
            assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), r.err());
            assertTrue(Files.size(target) > 100, out);
            try (Stream<Path> left = Files.list(target.getParent())) {
                assertEquals(1, left.count(), "no temporary file left beside " + out);
            }
        }
        byte[] png = Files.readAllBytes(dir.resolve("b/p.png"));
        assertEquals((byte) 0x89, png[0]);
        assertEquals('P', png[1]);
    }

    @Test
    void aSecondImportToTheSameOutputFailsAtOnceAndLeavesTheFirstAlone() throws Exception {
        Path out = dir.resolve("same.hets");
        StoreWriter first = StoreWriter.create(out); // an import in progress, holding the output
        try {
            Child second = child("import", SIMPLE_ADD.toString(), "-o", out.toString());
            assertEquals(1, second.exit(), second.said());
            assertTrue(second.said().contains(out + ": another import is writing this store now"), second.said());
            assertTrue(Files.exists(first.partialPath()), "the first import's partial file is intact");
            first.info("who", "first");
            first.commit();
        } finally {
            first.abort();
        }
        try (Store s = Store.open(out)) {
            assertEquals("first", s.info().get("who"));
        }
    }

    @Test
    void filesLeftByAKilledImportAreRemovedAtTheNextImport() throws Exception {
        Path big = dir.resolve("big.trace");
        writeWorkerStates(big, 3_000_000);
        Path out = dir.resolve("k.hets");
        Process p = childProcess("import", big.toString(), "-o", out.toString());
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (partials(out).isEmpty() && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(p.isAlive(), "the import still runs when killed");
        p.destroyForcibly(); // SIGKILL: no shutdown hook runs
        p.waitFor();
        List<Path> stale = partials(out);
        assertFalse(stale.isEmpty(), "kill -9 leaves the partial file");
        CliRun next = CliRun.of("import", SIMPLE_ADD.toString(), "-o", out.toString());
        assertEquals(0, next.exitCode(), next.err());
        for (Path s : stale) {
            assertTrue(next.err().contains("hetscope: removed " + s + ", left by an import to " + out
                    + " that did not finish"), next.err());
        }
        assertEquals(List.of(), partials(out));
        assertTrue(opensAsStore(out));
    }

    /** A Paje trace of one worker changing state {@code n} times: a few seconds of import. */
    private static void writeWorkerStates(Path file, int n) throws Exception {
        try (var w = Files.newBufferedWriter(file)) {
            w.write(ImportCommandTest.WORKER_STATES);
            for (int i = 0; i < n; i++) {
                w.write("3 " + i + ".5 S w1 s" + (i % 7) + "\n");
            }
        }
    }

    private List<Path> partials(Path out) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith(out.getFileName() + ".")
                    && f.getFileName().toString().contains(".partial")).sorted().toList();
        }
    }

    @Test
    void anyErrorEndsTheImportInOneLineWithNoFilesLeft() throws Exception {
        for (String kind : List.of("stack", "assertion", "linkage")) {
            Path in = dir.resolve(kind + ".in");
            Files.writeString(in, kind);
            Path out = dir.resolve(kind + ".hets");
            Child r = child("import", in.toString(), "--format", "test-error", "-o", out.toString());
            assertEquals(1, r.exit(), r.said());
            assertTrue(r.said().contains("hetscope: " + in + ": internal error (") && r.said().contains(
                    "no store written"), r.said());
            assertFalse(r.said().contains("\tat ") || r.said().contains("Exception in thread"), r.said());
            try (Stream<Path> left = Files.list(dir)) {
                assertEquals(List.of(), left.filter(f -> f.getFileName().toString().startsWith(kind + ".hets"))
                        .toList(), "no store, partial, wal or lock file");
            }
        }
    }

    @Test
    void aStoreKeptWithKeepPartialSaysSoInInfoAndEveryAnalysis() throws Exception {
        Path in = dir.resolve("part.json");
        Files.writeString(in, "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2},{\"ph\":\"X\",\"na");
        Path out = dir.resolve("part.hets");
        CliRun imp = CliRun.of("import", in.toString(), "-o", out.toString(), "--keep-partial");
        assertEquals(3, imp.exitCode(), imp.err());
        String warning = "hetscope: warning: " + out + ": this store holds only the start of its trace";
        CliRun info = CliRun.of("info", out.toString(), "--csv");
        assertEquals(0, info.exitCode(), info.err());
        assertTrue(info.err().contains(warning), info.err());
        assertFalse(info.out().contains("skipped_total,0"), info.out());
        assertTrue(info.out().contains("reading_stopped,damaged_input"), info.out());
        for (List<String> command : List.of(List.of("stats"), List.of("gpu"), List.of("sql"))) {
            List<String> args = new ArrayList<>(command);
            args.add(out.toString());
            if (command.get(0).equals("sql")) {
                args.add("SELECT count(*) FROM slice");
            }
            CliRun r = CliRun.of(args.toArray(String[]::new));
            assertTrue(r.err().contains(warning), command + ": " + r.err());
        }
        Path html = dir.resolve("part.html");
        CliRun report = CliRun.of("report", out.toString(), "-o", html.toString());
        assertEquals(0, report.exitCode(), report.err());
        assertTrue(report.err().contains(warning), report.err());
        assertTrue(Files.readString(html).contains("This store holds only the start of its trace"));
        // a whole store opens without a warning
        CliRun whole = CliRun.of("info", importStore("whole.hets").toString());
        assertFalse(whole.err().contains("warning"), whole.err());
    }

    private static boolean opensAsStore(Path file) {
        try (Store s = Store.open(file)) {
            return s.scalarLong("SELECT count(*) FROM slice") > 0;
        } catch (Exception e) {
            return false;
        }
    }

    record Child(int exit, String said) {
    }

    /** {@code hetscope ARGS} in a JVM of its own (the test class path: the jar is packaged after the tests). */
    private static Child child(String... args) throws Exception {
        Process p = childProcess(args);
        String said = new String(p.getInputStream().readAllBytes());
        return new Child(p.waitFor(), said);
    }

    private static Process childProcess(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                "org.hetscope.cli.Main"));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }
}
