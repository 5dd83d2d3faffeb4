package org.hetscope.cli.capture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.formats.opencl.OpenclTraceFormat;
import org.hetscope.model.SkipTally;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormatException;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code hetscope capture [--out DIR] -- java -cp ... Main}: runs a Java program under the OpenCL capture agent
 * (its JOCL calls are traced, nothing in the program changes), then imports the trace into a store and prints
 * a summary: the program's API calls (those of JOCL's own helper threads apart), kernels, transfers per kind,
 * and memory objects with the bytes they own (sub-buffers share their buffer's).
 */
@Command(name = "capture", description = "Run a Java/JOCL program under the OpenCL tracing agent and import the trace.")
public final class CaptureCommand implements Callable<Integer> {
    @Option(names = "--out", paramLabel = "DIR", description = "Trace folder to write (default: hetscope-opencl-TIME).")
    Path out;

    @Option(names = {"-o", "--store"}, paramLabel = "FILE", description = "Store file to import into (default: DIR.duckdb).")
    Path store;

    @Option(names = "--agent", paramLabel = "JAR",
            description = "The agent jar (default: $HETSCOPE_AGENT_JAR, hetscope-agent.jar beside hetscope.jar, or the "
                    + "repository's capture/agent/target/hetscope-agent.jar).")
    Path agent;

    @Option(names = "--agent-options", paramLabel = "OPTS", description = "Extra agent options, e.g. device=off,maxmb=512,flushms=50.")
    String agentOptions;

    @Parameters(arity = "1..*", paramLabel = "COMMAND", description = "The java command line to run (after --).")
    List<String> command;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        Path jar = agent != null ? agent : findAgent();
        if (jar == null || !Files.isRegularFile(jar)) {
            System.err.println("hetscope: the agent jar was not found" + (jar == null ? "" : " at " + jar)
                    + "; build it (mvn -pl capture/agent package) or name it with --agent");
            return 2;
        }
        Path dir = out != null ? out : Path.of("hetscope-opencl-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        Path db = store != null ? store : Path.of(dir + ".duckdb");
        List<String> cmd = new ArrayList<>();
        cmd.add(command.get(0));
        String opts = "out=" + dir.toAbsolutePath() + (agentOptions == null || agentOptions.isBlank() ? ""
                : "," + agentOptions);
        cmd.add("-javaagent:" + jar.toAbsolutePath() + "=" + opts);
        cmd.addAll(command.subList(1, command.size()));
        ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
        // with --csv/--json standard output carries the summary alone: the program's own output goes to stderr
        boolean machine = output.style() != TablePrinter.Style.TEXT;
        if (machine) {
            pb.redirectOutput(ProcessBuilder.Redirect.PIPE);
        }
        Process p = pb.start();
        Thread copy = null;
        if (machine) {
            copy = new Thread(() -> {
                try (var in = p.getInputStream()) {
                    in.transferTo(System.err);
                } catch (IOException e) {
                    // the program closed its output; nothing more to pass on
                }
            }, "hetscope-capture-stdout");
            copy.start();
        }
        int exit = p.waitFor();
        if (copy != null) {
            copy.join();
        }
        if (!Files.isRegularFile(dir.resolve("metadata"))) {
            System.err.println("hetscope: the program left no trace in " + dir + " (exit code " + exit
                    + "); was it a java command?");
            return exit != 0 ? exit : 1;
        }
        StoreWriter writer = StoreWriter.create(db);
        try {
            writer.info("source.0.path", dir.toAbsolutePath().normalize().toString());
            writer.info("source.0.format", "opencl");
            new OpenclTraceFormat().read(dir, writer, Progress.NONE);
            writer.commit();
        } catch (TraceFormatException | IOException | RuntimeException e) {
            writer.abort();
            System.err.println("hetscope: importing " + dir + " failed: " + org.hetscope.cli.ErrorText.of(e));
            return 1;
        }
        List<SkipTally.Entry> skipped = writer.skips();
        try (Store s = Store.open(db)) {
            TablePrinter.print(System.out, output.style(), s.query("capture " + dir + " -> " + db, """
                    with calls as (
                      select coalesce(th.name like '% (JOCL)', false) as library
                        from slice s join track t on t.id = s.track_id left join thread th on th.id = t.thread_id
                       where s.category in ('api', 'sync'))
                    select 'API calls' as what, count(*) as count, null::bigint as bytes from calls where not library
                    union all select 'API calls of JOCL''s own threads', count(*), null from calls where library
                    union all select 'kernels', count(*), null from kernel
                    union all select 'transfers ' || kind, count(*), sum(bytes) from transfer group by kind
                    union all select 'memory objects', count(*),
                           sum(size_bytes) filter (where name not like '% of 0x%') from memory_block
                    """));
        }
        if (!skipped.isEmpty()) {
            System.err.println("hetscope: kept generically or skipped:");
            skipped.forEach(e -> System.err.println("  " + e.count() + " x " + e.label()));
        }
        if (exit != 0) {
            System.err.println("hetscope: the program exited with code " + exit + " (trace imported)");
        }
        return exit;
    }

    /** $HETSCOPE_AGENT_JAR, then beside the running hetscope.jar, then the repository layout. */
    static Path findAgent() {
        String env = System.getenv("HETSCOPE_AGENT_JAR");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        try {
            Path self = Path.of(CaptureCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path dir = Files.isDirectory(self) ? self : self.getParent();
            for (Path c : List.of(dir.resolve("hetscope-agent.jar"),
                    dir.resolve("../../capture/agent/target/hetscope-agent.jar"),
                    dir.resolve("../../../capture/agent/target/hetscope-agent.jar"))) {
                if (Files.isRegularFile(c)) {
                    return c.normalize();
                }
            }
        } catch (Exception e) {
            // fall through
        }
        Path repo = Path.of("capture/agent/target/hetscope-agent.jar");
        return Files.isRegularFile(repo) ? repo : null;
    }
}
