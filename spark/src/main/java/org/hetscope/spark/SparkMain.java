package org.hetscope.spark;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.store.StoreException;
import org.hetscope.store.Table;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code hetscope spark ...}: many traces, one dataset, on Apache Spark (docs/scale.md). Run by the hetscope launcher
 * with this module's class path (Spark is not on hetscope.jar's), or by spark-submit with the assembly jar.
 */
@Command(name = "hetscope spark", mixinStandardHelpOptions = true, version = "hetscope spark 0.1",
        description = "Import many traces in parallel on Apache Spark into one Parquet dataset, and run the "
                + "cross-trace analyses over it on Spark SQL or DuckDB (docs/scale.md).",
        subcommands = {SparkMain.ImportCmd.class, SparkMain.StatsCmd.class, SparkMain.GpuCmd.class,
                SparkMain.RanksCmd.class, SparkMain.SqlCmd.class, SparkMain.DiffCmd.class})
public final class SparkMain implements Callable<Integer> {
    @Override
    public Integer call() {
        new CommandLine(this).usage(System.err);
        return 2;
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs a command line (without the word spark) and returns its exit code. */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new SparkMain());
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            System.err.println("hetscope: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            if (Boolean.getBoolean("hetscope.debug")) {
                e.printStackTrace();
            }
            return 1;
        });
        return cl.execute(args);
    }

    /** Options of every command that starts Spark. */
    static final class SparkOptions {
        @Option(names = "--master", paramLabel = "URL", description = "Spark master (default: local[*], or what "
                + "spark-submit set): local[N], spark://HOST:PORT, yarn, k8s://...")
        String master;

        SparkSession session(String app) {
            String m = master;
            if (m == null && System.getProperty("spark.master") == null) {
                m = "local[*]";
            }
            String effective = m != null ? m : System.getProperty("spark.master");
            if (!effective.startsWith("local") && System.getProperty("spark.jars") == null
                    && System.getProperty("spark.executor.extraClassPath") == null) {
                // started by the hetscope launcher, not spark-submit: executors get hetscope's code from the
                // assembly jar built beside this module's jar
                Path assembly = assembly();
                if (assembly != null) {
                    System.setProperty("spark.jars", assembly.toString());
                }
            }
            return SparkEngine.session(m, app);
        }

        private static Path assembly() {
            try {
                Path self = Path.of(SparkMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
                Path a = self.resolveSibling("hetscope-spark-assembly.jar");
                return Files.isRegularFile(a) ? a : null;
            } catch (java.net.URISyntaxException | RuntimeException e) {
                return null;
            }
        }
    }

    @Command(name = "import", description = "Import traces into a Parquet dataset, one Spark task per trace. A "
            + "folder is a trace when a reader knows it (CTF, StarPU, OTF2), else the traces in it. A bad trace is "
            + "reported (file, position, reason) and the others are imported; exit code 3 then, 0 when all are.")
    static final class ImportCmd implements Callable<Integer> {
        @Parameters(arity = "1..*", paramLabel = "TRACE_OR_GLOB")
        List<String> inputs;

        @Option(names = {"-o", "--output"}, required = true, paramLabel = "DATASET",
                description = "Dataset folder (new, empty or a dataset; on a file system every executor sees).")
        Path output;

        @Option(names = "--tmp", paramLabel = "DIR", description = "Where executors write the temporary store of "
                + "a trace (default: their java.io.tmpdir).")
        String tmp;

        @Option(names = "--force", description = "Replace traces of the same name already in the dataset.")
        boolean force;

        @Mixin
        SparkOptions spark;

        @Mixin
        OutputOptions output2;

        @Override
        public Integer call() throws Exception {
            List<Path> traces = SparkImport.expand(inputs, System.err);
            if (traces == null) {
                return 2;
            }
            try (SparkSession s = spark.session("hetscope import")) {
                return SparkImport.run(s, traces, output, tmp, force, output2.style(), System.out, System.err);
            }
        }
    }

    /** What the analysis commands share: the dataset, the engine, the output style. */
    abstract static class AnalysisCmd implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "DATASET", description = "A dataset folder (hetscope spark import, "
                + "hetscope export --parquet).")
        Path dataset;

        @Option(names = "--engine", paramLabel = "spark|duckdb", description = "spark (default) runs the SQL on "
                + "Spark; duckdb on this machine, without Spark: same SQL, same results.")
        String engine = "spark";

        @Mixin
        SparkOptions spark;

        @Mixin
        OutputOptions output;

        abstract List<Table> tables(Engine e);

        /** For commands over two datasets (diff): {@code b} opens the second on the same engine, when asked. */
        List<Table> tables(Engine a, java.util.function.Supplier<Engine> b) {
            return tables(a);
        }

        /** The second dataset of a command over two (diff), else null. */
        Path second() {
            return this instanceof DiffCmd d ? d.other : null;
        }

        @Override
        public Integer call() throws Exception {
            if (!Files.isDirectory(dataset)) {
                System.err.println("hetscope: " + dataset + ": no such dataset folder");
                return 2;
            }
            String eng = engine.toLowerCase(Locale.ROOT);
            if (!eng.equals("spark") && !eng.equals("duckdb")) {
                System.err.println("hetscope: --engine " + engine + ": use spark or duckdb");
                return 2;
            }
            try {
                if (eng.equals("duckdb")) {
                    try (Engine e = new DuckEngine(dataset)) {
                        TablePrinter.print(System.out, output.style(),
                                tables(e, () -> open(() -> new DuckEngine(second()))));
                    }
                } else {
                    try (SparkSession s = spark.session("hetscope analysis"); Engine e = new SparkEngine(s, dataset)) {
                        // the second dataset's views replace the first's: its analyses have been collected by then
                        TablePrinter.print(System.out, output.style(), tables(e,
                                () -> open(() -> new SparkEngine(s, second()))));
                    }
                }
            } catch (java.io.IOException | StoreException e) {
                System.err.println("hetscope: " + e.getMessage());
                return 1;
            } catch (java.io.UncheckedIOException e) {
                System.err.println("hetscope: " + e.getCause().getMessage());
                return 1;
            }
            return 0;
        }
    }

    @Command(name = "stats", description = "Kernel, operator and API statistics per trace (rank), the top names of "
            + "each category, and each name's spread over the traces.")
    static final class StatsCmd extends AnalysisCmd {
        @Option(names = "--top", paramLabel = "N", description = "Names per trace and category (default 10; 0: all).")
        int top = 10;

        @Override
        List<Table> tables(Engine e) {
            Table all = e.analysis("stats");
            Table spread = e.analysis("spread");
            int place = all.column("place");
            Table stats = top > 0 ? keep(all, r -> ((Number) r[place]).longValue() <= top) : all;
            return List.of(stats, spread);
        }
    }

    @Command(name = "gpu", description = "Device utilisation per trace and device: busy time (union of kernels, "
            + "tasks, copies), kernel time, NCCL/RCCL kernel time, copies.")
    static final class GpuCmd extends AnalysisCmd {
        @Override
        List<Table> tables(Engine e) {
            return List.of(e.analysis("gpu"));
        }
    }

    @Command(name = "ranks", description = "Per rank (trace): compute vs NCCL/RCCL communication kernels, busy "
            + "time and load; the load imbalance; the slowest ranks per iteration (ProfilerStep#N) with straggler "
            + "scores.")
    static final class RanksCmd extends AnalysisCmd {
        @Option(names = "--top", paramLabel = "N", description = "Slowest ranks per iteration (default 3; 0: all).")
        int top = 3;

        @Override
        List<Table> tables(Engine e) {
            Table all = e.analysis("stragglers");
            int place = all.column("place");
            Table stragglers = top > 0 ? keep(all, r -> ((Number) r[place]).longValue() <= top) : all;
            return List.of(e.analysis("ranks"), e.analysis("imbalance"), stragglers);
        }
    }

    @Command(name = "sql", description = "Run a read-only query over the dataset (tables as in docs/schema.md, "
            + "with the column trace) on Spark SQL or DuckDB.")
    static final class SqlCmd extends AnalysisCmd {
        @Parameters(index = "1", paramLabel = "QUERY")
        String query;

        private static final Set<String> READING = Set.of("SELECT", "WITH", "FROM", "VALUES", "TABLE", "DESCRIBE",
                "DESC", "SHOW", "EXPLAIN");

        @Override
        public Integer call() throws Exception {
            String first = firstWord(query);
            if (!READING.contains(first) || query.strip().replaceAll(";\\s*$", "").contains(";")) {
                System.err.println("hetscope: read-only: one SELECT, WITH, DESCRIBE, SHOW or EXPLAIN statement; "
                        + "'" + first.toLowerCase(Locale.ROOT) + "' is refused");
                return 1;
            }
            return super.call();
        }

        @Override
        List<Table> tables(Engine e) {
            return List.of(e.query(query.strip().replaceAll(";\\s*$", "")));
        }

        static String firstWord(String sql) {
            String s = sql.strip();
            while (s.startsWith("--") || s.startsWith("/*") || s.startsWith("(")) {
                if (s.startsWith("(")) {
                    s = s.substring(1).strip();
                } else if (s.startsWith("--")) {
                    int nl = s.indexOf('\n');
                    s = nl < 0 ? "" : s.substring(nl + 1).strip();
                } else {
                    int end = s.indexOf("*/");
                    s = end < 0 ? "" : s.substring(end + 2).strip();
                }
            }
            int i = 0;
            while (i < s.length() && Character.isLetter(s.charAt(i))) {
                i++;
            }
            return s.substring(0, i).toUpperCase(Locale.ROOT);
        }
    }

    @Command(name = "diff", description = "Two datasets (runs) compared per rank: busy, kernel, compute and "
            + "NCCL/RCCL time of each rank (trace name) in A and B and the change, from the ranks analysis of each.")
    static final class DiffCmd extends AnalysisCmd {
        @Parameters(index = "1", paramLabel = "DATASET_B")
        Path other;

        @Override
        public Integer call() throws Exception {
            if (!Files.isDirectory(other)) {
                System.err.println("hetscope: " + other + ": no such dataset folder");
                return 2;
            }
            return super.call();
        }

        @Override
        List<Table> tables(Engine e) {
            throw new IllegalStateException("diff reads two datasets");
        }

        @Override
        List<Table> tables(Engine a, java.util.function.Supplier<Engine> b) {
            Table ra = a.analysis("ranks");
            Table rb;
            try (Engine eb = b.get()) {
                rb = eb.analysis("ranks");
            }
            return List.of(RankDiff.diff(ra, rb));
        }
    }

    interface Opener {
        Engine open() throws java.io.IOException;
    }

    static Engine open(Opener o) {
        try {
            return o.open();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static Table keep(Table t, java.util.function.Predicate<Object[]> p) {
        List<Object[]> rows = new ArrayList<>();
        for (Object[] r : t.rows()) {
            if (p.test(r)) {
                rows.add(r);
            }
        }
        return new Table(t.title(), t.columns(), rows);
    }

    static void print(PrintStream out, TablePrinter.Style style, List<Table> tables) {
        TablePrinter.print(out, style, tables);
    }
}
