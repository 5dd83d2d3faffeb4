package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.hetscope.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The import command end to end: stores that reopen, damaged input that leaves no store behind. */
class ImportCommandTest {
    static final Path SIMPLE_ADD = Path.of(System.getProperty("hetscope.root", "."))
            .resolve("../shared/fixtures/chrome/kineto-cuda-simple-add.json.gz");

    /** A Paje header's container definitions (types and creation). */
    private static final String CONTAINER_DEFS = """
            %EventDef PajeDefineContainerType 0
            % Alias string
            % Type string
            % Name string
            %EndEventDef
            %EventDef PajeCreateContainer 1
            % Time date
            % Alias string
            % Type string
            % Container string
            % Name string
            %EndEventDef
            """;

    /** A Paje header and one worker container with a state type: the trace's states follow. */
    static final String WORKER_STATES = CONTAINER_DEFS + """
            %EventDef PajeDefineStateType 2
            % Alias string
            % Type string
            % Name string
            %EndEventDef
            %EventDef PajeSetState 3
            % Time date
            % Type string
            % Container string
            % Value string
            %EndEventDef
            0 W 0 Worker
            1 0 w1 W 0 worker1
            2 S W State
            """;

    @TempDir
    Path dir;

    @Test
    void importedStoreReopensAndAnswersSql() throws Exception {
        Path store = dir.resolve("t.duckdb");
        CliRun imp = CliRun.of("import", SIMPLE_ADD.toString(), "-o", store.toString());
        assertEquals(0, imp.exitCode(), imp.err());
        assertTrue(Files.exists(store));
        CliRun sql = CliRun.of("sql", store.toString(), "select count(*) as n from slice where category = 'kernel'",
                "--csv");
        assertEquals(0, sql.exitCode(), sql.err());
        assertEquals("n\n79\n", sql.out());
        CliRun info = CliRun.of("info", store.toString(), "--json");
        assertEquals(0, info.exitCode(), info.err());
        // the JSON output parses and names the devices table
        try (JsonParser p = new JsonFactory().createParser(info.out())) {
            int fields = 0;
            while (p.nextToken() != null) {
                if (p.currentToken() == JsonToken.FIELD_NAME && p.currentName().equals("devices")) {
                    fields++;
                }
            }
            assertEquals(1, fields);
        }
        try (Store s = Store.open(store)) {
            assertEquals("true", s.info().get("import_complete"));
        }
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(1, left.count(), "no .partial or .wal files left behind");
        }
    }

    private CliRun importText(String name, String content, String... extra) throws IOException {
        Path in = dir.resolve(name);
        Files.writeString(in, content);
        String[] args = Stream.concat(Stream.of("import", in.toString(), "-o", dir.resolve("out.duckdb").toString()),
                Stream.of(extra)).toArray(String[]::new);
        return CliRun.of(args);
    }

    private void assertNoStore() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            assertFalse(files.anyMatch(p -> p.getFileName().toString().startsWith("out.duckdb")),
                    "a failed import leaves no store and no partial file");
        }
    }

    @Test
    void truncatedJsonFailsWithFileAndPositionAndWritesNothing() throws Exception {
        CliRun r = importText("trunc.json", "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,"
                + "\"ts\":1,\"dur\":2},{\"ph\":\"X\",\"ts\":");
        assertNotEquals(0, r.exitCode());
        assertTrue(r.err().contains("trunc.json at byte"), r.err());
        assertNoStore();
    }

    @Test
    void wrongTypesCostTheirEventAndExitThree() throws Exception {
        CliRun r = importText("types.json", "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":[1],\"dur\":2},"
                + "{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":2}]");
        assertEquals(3, r.exitCode(), r.err());
        assertTrue(r.err().contains("'ts' must be a number"), r.err());
        // the summary names where the damage is, not only what it was
        assertTrue(r.err().contains("(first at " + dir.resolve("types.json") + " at byte 1 (line 1))"), r.err());
        try (Store s = Store.open(dir.resolve("out.duckdb"))) {
            assertEquals(1L, s.scalarLong("select count(*) from slice where name = 'b'"));
            assertEquals(dir.resolve("types.json") + " at byte 1 (line 1)", s.query(
                    "select location from skipped where severity = 'damaged_input'").rows().get(0)[0]);
        }
    }

    @Test
    void unbalancedBeginEndIsKeptAndCounted() throws Exception {
        CliRun r = importText("bal.json", "[{\"ph\":\"B\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1}]");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.err().contains("unended_slice: 'B' event"), r.err());
        try (Store s = Store.open(dir.resolve("out.duckdb"))) {
            assertEquals(1L, s.scalarLong("select count(*) from slice where json_extract(args, '$.unended')::BOOLEAN"));
        }
    }

    @Test
    void binaryFileIsRefused() throws Exception {
        Path in = dir.resolve("blob.bin");
        byte[] junk = new byte[10_000];
        new java.util.Random(3).nextBytes(junk);
        Files.write(in, junk);
        CliRun r = CliRun.of("import", in.toString(), "-o", dir.resolve("out.duckdb").toString());
        assertNotEquals(0, r.exitCode());
        assertTrue(r.err().contains("blob.bin"), r.err());
        CliRun forced = CliRun.of("import", "--format", "chrome", in.toString(), "-o",
                dir.resolve("out.duckdb").toString());
        assertNotEquals(0, forced.exitCode());
        assertTrue(forced.err().contains("blob.bin at byte"), forced.err());
        assertNoStore();
    }

    @Test
    void storeGivenAsATraceIsNamedAsSuch() throws Exception {
        Path store = dir.resolve("first.duckdb");
        assertEquals(0, CliRun.of("import", SIMPLE_ADD.toString(), "-o", store.toString()).exitCode());
        CliRun r = CliRun.of("import", store.toString(), "-o", dir.resolve("out.duckdb").toString());
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.err().contains("first.duckdb: a DuckDB database, not a trace"), r.err());
        assertNoStore();
    }

    @Test
    void truncatedSqliteDatabaseIsNamedAsSuch() throws Exception {
        // the real Nsight export, cut to its first 64 KiB: SQLite itself refuses to read its schema
        Path nsys = Path.of(System.getProperty("hetscope.root", "."))
                .resolve("../shared/fixtures/nsys/perlmutter-cloverleaf-cuda.sqlite");
        Path in = dir.resolve("cut.sqlite");
        try (var from = Files.newInputStream(nsys)) {
            Files.write(in, from.readNBytes(65536));
        }
        CliRun r = CliRun.of("import", in.toString(), "-o", dir.resolve("out.duckdb").toString());
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.err().contains("cut.sqlite: an SQLite database that no reader recognises"), r.err());
        CliRun forced = CliRun.of("import", "--format", "nsys", in.toString(), "-o",
                dir.resolve("out.duckdb").toString());
        assertNotEquals(0, forced.exitCode());
        assertTrue(forced.err().contains("cut.sqlite"), forced.err());
        assertNoStore();
    }

    @Test
    void keepPartialKeepsWhatWasIntactAndSaysSo() throws Exception {
        CliRun r = importText("part.json", "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2},"
                + "{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":2},{\"ph\":\"X\",\"na",
                "--keep-partial");
        assertEquals(3, r.exitCode(), r.err());
        try (Store s = Store.open(dir.resolve("out.duckdb"))) {
            assertEquals(2L, s.scalarLong("select count(*) from slice"));
            assertTrue(s.info().get("import_error").contains("part.json at byte"));
        }
    }

    @Test
    void runningOutOfHeapNamesTheFileAndHowFarItGotAndLeavesNoStore() throws Exception {
        // The Paje reader keeps a link's start until its end comes: two million starts that never end need far more
        // than a 128 MiB heap. (States and variables go to a spill file instead; links do not yet.)
        Path in = dir.resolve("open-links.trace");
        try (var w = Files.newBufferedWriter(in)) {
            w.write(CONTAINER_DEFS + """
                    %EventDef PajeDefineLinkType 2
                    % Alias string
                    % Type string
                    % StartContainerType string
                    % EndContainerType string
                    % Name string
                    %EndEventDef
                    %EventDef PajeStartLink 3
                    % Time date
                    % Type string
                    % Container string
                    % StartContainer string
                    % Value string
                    % Key string
                    %EndEventDef
                    0 M 0 Machine
                    0 W M Worker
                    2 L M W W Link
                    1 0 m1 M 0 m1
                    1 0 w1 W m1 w1
                    """);
            for (int i = 0; i < 2_000_000; i++) {
                w.write("3 " + i + ".5 L m1 w1 v k" + i + "\n");
            }
        }
        String said = importInChildJvm(List.of("-Xmx128m"), in, dir.resolve("oom.duckdb"), 1);
        assertTrue(said.contains("hetscope: " + in + ": out of memory after "), said);
        assertTrue(said.contains(" MB; no store written."), said);
        assertTrue(said.contains("the Java heap (") && said.contains("HETSCOPE_JAVA_OPTS=-Xmx1g"), said);
        assertFalse(said.contains("Exception in thread") || said.contains("\tat "), said);
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(in), left.toList(), "the store and its partial file are gone");
        }
    }

    /** Runs {@code hetscope import IN -o OUT} in a JVM of its own; checks the exit code, returns what it printed. */
    private static String importInChildJvm(List<String> jvmOptions, Path in, Path out, int exitCode)
            throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"), "--enable-native-access=ALL-UNNAMED"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "org.hetscope.cli.Main", "import",
                in.toString(), "-o", out.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes());
        assertEquals(exitCode, p.waitFor(), said);
        return said;
    }

    @Test
    void spillFilesThatCannotBeCreatedNameTheFolderAndLeaveNoStore() throws Exception {
        // Paje states and StarPU events go to temporary files past their budget: forced here after a few
        // operations, into a spill folder that does not exist.
        Path missing = dir.resolve("no-such-folder");
        Path trace = Path.of(System.getProperty("hetscope.root", ".")).resolve("../shared/fixtures/starpu/chol-lws-nb12");
        for (String budget : List.of("-Dhetscope.paje.spillEvery=5", "-Dhetscope.starpu.spillEvery=3")) {
            String said = importInChildJvm(List.of(budget, "-Dhetscope.spill.dir=" + missing), trace,
                    dir.resolve("spill.duckdb"), 1);
            assertTrue(said.contains("hetscope: cannot create a spill file for the ") && said.contains(
                    " in " + missing + ": "), said);
            assertFalse(said.contains("\tat "), said);
            assertFalse(Files.exists(dir.resolve("spill.duckdb")), budget);
        }
    }

    @Test
    void damageTheReaderStepsOverKeepsTheStoreButFailsTheExitCode() throws Exception {
        // A Paje trace with one line that does not parse between two good ones: the reader skips that line.
        Path in = dir.resolve("damaged.trace");
        Files.writeString(in, WORKER_STATES + """
                3 1.0 S w1 run
                3 x.5 S w1 idle
                3 2.0 S w1 idle
                """);
        CliRun r = CliRun.of("import", in.toString(), "-o", dir.resolve("out.duckdb").toString());
        assertEquals(3, r.exitCode(), r.err());
        assertTrue(r.err().contains("damaged_record: bad field value"), r.err());
        assertTrue(r.err().contains("the input is damaged (1 item(s) lost"), r.err());
        try (Store s = Store.open(dir.resolve("out.duckdb"))) {
            assertEquals(2L, s.scalarLong("select count(*) from slice where name in ('run', 'idle')"));
            assertEquals(1L, s.scalarLong("select sum(count) from skipped where severity = 'damaged_input'"));
        }
    }

    @Test
    void unfinishedStoreDoesNotOpen() throws Exception {
        Path fake = dir.resolve("fake.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + fake);
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE trace_info(key VARCHAR, value VARCHAR)");
        }
        IOException e = assertThrows(IOException.class, () -> Store.open(fake));
        assertTrue(e.getMessage().contains("did not finish"), e.getMessage());
        Path text = dir.resolve("x.txt");
        Files.writeString(text, "hello");
        IOException e2 = assertThrows(IOException.class, () -> Store.open(text));
        assertTrue(e2.getMessage().contains("not a hetscope store (not a DuckDB database file"), e2.getMessage());
        // a DuckDB database of someone else's: the same refusal, with DuckDB's reason
        Path other = dir.resolve("other.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + other);
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t(x INTEGER)");
        }
        IOException e3 = assertThrows(IOException.class, () -> Store.open(other));
        assertTrue(e3.getMessage().contains("not a hetscope store (") && e3.getMessage().contains("trace_info"),
                e3.getMessage());
    }
}
