import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hetscope.spark.TraceImport;

/**
 * Times what one Spark task runs ({@link TraceImport#run}) on one trace, without Spark: REPEAT runs in one JVM,
 * each into a fresh dataset folder, with wall and process CPU per run (the first run includes class loading and
 * DuckDB's start, as a task's first trace on a fresh executor). Run from the repository root:
 *   java @spark/jvm.options -cp "spark/target/hetscope-spark.jar:spark/target/lib/*" bench/spark/TaskProbe.java TRACE [REPEAT [DUCKDB_THREADS]]
 */
public class TaskProbe {
    public static void main(String[] args) throws Exception {
        Path trace = Path.of(args[0]);
        int repeat = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : -1;
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Path root = Files.createTempDirectory("hetscope-probe-");
        for (int i = 0; i < repeat; i++) {
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            // by reflection with threads: the probe also times builds that lack that parameter
            TraceImport.Outcome o = threads < 0 ? TraceImport.run(trace, "probe", root.resolve("run" + i), root.resolve("tmp"))
                    : (TraceImport.Outcome) TraceImport.class.getMethod("run", Path.class, String.class, Path.class,
                            Path.class, int.class).invoke(null, trace, "probe", root.resolve("run" + i),
                            root.resolve("tmp"), threads);
            long wall = System.nanoTime() - t0;
            long cpu = os.getProcessCpuTime() - cpu0;
            System.out.printf("run %d: %s, %,d events, wall %.2f s, cpu %.2f s (read %.2f s, export %.2f s)%s%n",
                    i, o.status(), o.events(), wall / 1e9, cpu / 1e9, o.readNanos() / 1e9, o.exportNanos() / 1e9,
                    o.failed() ? " " + o.reason() : "");
        }
        try (var walk = Files.walk(root.resolve("run0"))) {
            long files = walk.filter(p -> p.toString().endsWith(".parquet")).count();
            System.out.println("parquet files: " + files);
        }
    }
}
