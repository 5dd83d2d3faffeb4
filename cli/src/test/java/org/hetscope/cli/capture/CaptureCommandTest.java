package org.hetscope.cli.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hetscope.cli.CliRun;
import org.hetscope.formats.opencl.AgentRun;
import org.hetscope.store.Store;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hetscope capture} end to end: runs an example program of the agent under the packaged agent jar, and
 * checks the summary it prints (and the store it leaves) against the counts the program kept of its own calls.
 */
class CaptureCommandTest {
    static final Path AGENT = AgentRun.agentJar();

    @BeforeAll
    static void needs() {
        AgentRun.require();
    }

    @Test
    void capturesAnExampleAndImportsIt(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("pipeline");
        Path db = dir.resolve("pipeline.duckdb");
        Path report = dir.resolve("pipeline.report");
        CliRun run = CliRun.of("capture", "--agent", AGENT.toString(), "--out", trace.toString(), "-o", db.toString(),
                "--csv", "--", AgentRun.java(), "--enable-native-access=ALL-UNNAMED",
                "-Dhetscope.example.report=" + report, "-cp", AgentRun.classPath(),
                "org.hetscope.capture.examples.TransferPipeline", "3", "16384");
        assertEquals(0, run.exitCode(), run.err());
        Map<String, Long> program = AgentRun.readReport(report);

        // what,count,bytes -> the summary's rows
        Map<String, String[]> rows = new TreeMap<>();
        List<String> lines = run.out().lines().toList();
        assertEquals("what,count,bytes", lines.get(0), run.out());
        for (String l : lines.subList(1, lines.size())) {
            String[] f = l.split(",", -1);
            rows.put(f[0], f);
        }
        long calls = program.entrySet().stream().filter(e -> e.getKey().startsWith("call."))
                .mapToLong(Map.Entry::getValue).sum();
        assertEquals(calls, Long.parseLong(rows.get("API calls")[1]));
        assertEquals(program.get("kernels"), Long.parseLong(rows.get("kernels")[1]));
        // the summary names transfers by the store's kinds: unmap counts as HtoD, map as DtoH, fill as memset
        assertEquals(program.get("transfers.HtoD") + program.get("transfers.unmap"),
                Long.parseLong(rows.get("transfers HtoD")[1]));
        assertEquals(program.get("bytes.HtoD") + program.get("bytes.unmap"),
                Long.parseLong(rows.get("transfers HtoD")[2]));
        assertEquals(program.get("bytes.DtoH") + program.get("bytes.map"),
                Long.parseLong(rows.get("transfers DtoH")[2]));
        assertEquals(program.get("bytes.DtoD"), Long.parseLong(rows.get("transfers DtoD")[2]));
        assertEquals(program.get("bytes.fill"), Long.parseLong(rows.get("transfers memset")[2]));
        assertEquals(program.get("call.clCreateBuffer"), Long.parseLong(rows.get("memory objects")[1]));

        assertTrue(Files.isRegularFile(trace.resolve("metadata")), "the trace folder is kept");
        try (Store s = Store.open(db)) {
            assertEquals(program.get("commands"), s.scalarLong("select count(*) from opencl_command"));
            assertEquals(program.get("commands"), s.scalarLong("select count(*) from flow where kind = 'launch'"));
        }
    }

    @Test
    void aMissingAgentJarIsNamed(@TempDir Path dir) {
        Path none = dir.resolve("no-agent.jar");
        CliRun run = CliRun.of("capture", "--agent", none.toString(), "--out", dir.resolve("t").toString(), "--",
                AgentRun.java(), "-version");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("agent jar was not found at " + none), run.err());
    }

    @Test
    void aCommandThatLeavesNoTraceFailsWithoutAStore(@TempDir Path dir) {
        // not a java command: it ignores the -javaagent option the capture puts after its first word
        Path db = dir.resolve("none.duckdb");
        CliRun run = CliRun.of("capture", "--agent", AGENT.toString(), "--out", dir.resolve("t").toString(), "-o",
                db.toString(), "--", "true");
        assertEquals(1, run.exitCode());
        assertTrue(run.err().contains("left no trace in " + dir.resolve("t")), run.err());
        assertFalse(Files.exists(db), "no store for a run without a trace");
    }
}
