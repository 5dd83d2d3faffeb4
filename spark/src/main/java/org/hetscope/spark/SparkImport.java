package org.hetscope.spark;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.hetscope.cli.Formats;
import org.hetscope.cli.TablePrinter;
import org.hetscope.store.ParquetDataset;
import org.hetscope.store.ParquetExport;
import org.hetscope.store.Table;

/**
 * The driver of {@code hetscope spark import}: one Spark task per trace ({@link TraceImport}), largest first, each
 * writing its trace into a dataset folder of its own under {@code DATASET/.hetscope-job-ID/}; the driver then moves
 * the traces that were imported into the dataset and writes its manifest ({@link ParquetExport#merge}). A trace
 * that fails is reported and leaves nothing behind; the others are kept.
 */
public final class SparkImport {
    private SparkImport() {
    }

    /**
     * The traces the arguments name: files, folders that a reader accepts (a CTF, StarPU or OTF2 trace), the entries
     * of other folders, and globs ({@code *}, {@code ?}, {@code [..]}, {@code {a,b}} in the last part of a path).
     * Null (with a message) when an argument names nothing.
     */
    static List<Path> expand(List<String> args, PrintStream err) throws IOException {
        List<Path> out = new ArrayList<>();
        for (String a : args) {
            Path p = Paths.get(a);
            String last = p.getFileName() == null ? "" : p.getFileName().toString();
            if (!Files.exists(p) && last.matches(".*[*?\\[{].*")) {
                Path dir = p.getParent() == null ? Paths.get(".") : p.getParent();
                PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + last);
                List<Path> hits = new ArrayList<>();
                if (Files.isDirectory(dir)) {
                    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
                        for (Path f : ds) {
                            if (m.matches(f.getFileName())) {
                                hits.add(f);
                            }
                        }
                    }
                }
                if (hits.isEmpty()) {
                    err.println("hetscope: " + a + ": matches no file");
                    return null;
                }
                hits.sort(Comparator.naturalOrder());
                out.addAll(hits);
            } else if (!Files.exists(p)) {
                err.println("hetscope: " + a + ": no such file or folder");
                return null;
            } else if (Files.isDirectory(p) && !isTrace(p)) {
                List<Path> entries = new ArrayList<>();
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
                    for (Path f : ds) {
                        if (!f.getFileName().toString().startsWith(".")) {
                            entries.add(f);
                        }
                    }
                }
                entries.sort(Comparator.naturalOrder());
                out.addAll(entries);
            } else {
                out.add(p);
            }
        }
        return out;
    }

    private static boolean isTrace(Path dir) {
        try {
            Formats.find(dir, null);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The trace name of each path in the dataset: its file name without compression and format extensions
     * ({@code rank3.json.gz} -> {@code rank3}), characters outside the dataset's names as '_', made unique with
     * {@code -2}, {@code -3}, ... in argument order.
     */
    static Map<Path, String> names(List<Path> traces) {
        Map<Path, String> out = new LinkedHashMap<>();
        Set<String> used = new HashSet<>();
        for (Path p : traces) {
            String n = p.toAbsolutePath().normalize().getFileName().toString();
            n = n.replaceFirst("\\.(gz|zst|bz2|xz)$", "");
            n = n.replaceFirst("\\.(json|sqlite|sqlite3|db|otf2|trace|paje|rpd|nsys-rep)$", "");
            n = n.replaceAll("[^A-Za-z0-9._-]", "_");
            if (n.isEmpty() || !Character.isLetterOrDigit(n.charAt(0))) {
                n = "t" + n;
            }
            if (n.length() > 190) {
                n = n.substring(0, 190);
            }
            String name = n;
            for (int i = 2; !used.add(name.toLowerCase(java.util.Locale.ROOT)); i++) {
                name = n + "-" + i;
            }
            out.put(p, name);
        }
        return out;
    }

    /** Runs the job and prints its report; returns the exit code (0 all imported, 3 some not, 1 none). */
    static int run(SparkSession spark, List<Path> traces, Path dataset, String tmp, boolean force,
            TablePrinter.Style style, PrintStream out, PrintStream err) throws IOException {
        if (Files.exists(dataset) && !Files.isDirectory(dataset)) {
            err.println("hetscope: " + dataset + ": exists and is not a folder; name a dataset folder");
            return 2;
        }
        Map<Path, String> names = names(traces);
        if (ParquetDataset.isDataset(dataset) && !force) {
            List<String> there;
            try (ParquetDataset d = ParquetDataset.open(dataset, null)) {
                there = d.traces();
            }
            List<String> clash = names.values().stream().filter(there::contains).toList();
            if (!clash.isEmpty()) {
                err.println("hetscope: " + dataset + ": already holds trace(s) " + String.join(", ", clash)
                        + "; --force replaces them");
                return 2;
            }
        }
        Files.createDirectories(dataset);
        Path base = dataset.toRealPath();
        Path job = base.resolve(ParquetExport.JOB_PREFIX + UUID.randomUUID());
        Files.createDirectory(job);
        long t0 = System.nanoTime();
        try {
            // largest first: the long tasks start at once instead of last, on an idle cluster
            List<String[]> items = new ArrayList<>();
            for (var e : names.entrySet()) {
                items.add(new String[] {e.getKey().toAbsolutePath().normalize().toString(), e.getValue(),
                        Long.toString(TraceImport.size(e.getKey()))});
            }
            items.sort(Comparator.comparingLong((String[] i) -> -Long.parseLong(i[2])).thenComparing(i -> i[1]));
            String jobDir = job.toString();
            String tmpDir = tmp;
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            List<TraceImport.Outcome> outcomes = new ArrayList<>(jsc.parallelize(items, Math.max(1, items.size()))
                    .map(i -> TraceImport.run(Paths.get(i[0]), i[1], Paths.get(jobDir, i[1]),
                            Paths.get(tmpDir != null ? tmpDir : System.getProperty("java.io.tmpdir")), taskCores()))
                    .collect());
            outcomes.sort(Comparator.comparing(TraceImport.Outcome::name));
            List<Path> done = new ArrayList<>();
            for (TraceImport.Outcome o : outcomes) {
                if (!o.failed()) {
                    done.add(job.resolve(o.name()));
                }
            }
            if (!done.isEmpty()) {
                ParquetExport.merge(base, done, force);
            }
            long wall = System.nanoTime() - t0;
            report(outcomes, wall, dataset, style, out, err);
            if (done.isEmpty()) {
                err.println("hetscope: no trace imported; nothing written to " + dataset);
                return 1;
            }
            boolean clean = outcomes.stream().allMatch(o -> o.status().equals("ok"));
            return clean ? 0 : 3;
        } finally {
            TraceImport.deleteTree(job);
        }
    }

    /**
     * The cores Spark gave the running task (spark.task.cpus): DuckDB runs that many threads, so that an executor of
     * N cores running N tasks does not start N x cores threads of DuckDB's.
     */
    static int taskCores() {
        org.apache.spark.TaskContext tc = org.apache.spark.TaskContext.get();
        return tc == null ? 0 : Math.max(1, tc.cpus());
    }

    private static void report(List<TraceImport.Outcome> outcomes, long wall, Path dataset, TablePrinter.Style style,
            PrintStream out, PrintStream err) {
        Table.Builder b = Table.builder("Traces imported into " + dataset, "trace", "file", "format", "status",
                "size_bytes", "events", "skipped", "damaged", "import_ns", "read_ns", "export_ns", "position", "reason",
                "executor");
        long bytes = 0;
        long events = 0;
        long skipped = 0;
        int failed = 0;
        int damaged = 0;
        for (TraceImport.Outcome o : outcomes) {
            b.row(o.name(), o.trace(), o.format(), o.status(), o.bytes(), o.events(), o.skipped(), o.damaged(),
                    o.nanos(), o.readNanos(), o.exportNanos(), o.position(), o.reason(), o.host());
            bytes += o.bytes();
            events += o.events();
            skipped += o.skipped();
            if (o.failed()) {
                failed++;
                err.println("hetscope: " + o.trace() + (o.position().isEmpty() ? "" : " at " + o.position()) + ": "
                        + o.reason() + " (not imported; the other traces are)");
            } else if (o.status().equals("damaged")) {
                damaged++;
                err.println("hetscope: " + o.trace() + ": " + o.reason());
            }
        }
        TablePrinter.print(out, style, b.build());
        if (style == TablePrinter.Style.TEXT) {
            out.printf(java.util.Locale.ROOT, "%d traces: %d imported (%d with damage skipped), %d failed; "
                    + "%,d events, %,d skipped items; %.1f MB in %.1f s%n", outcomes.size(), outcomes.size() - failed,
                    damaged, failed, events, skipped, bytes / 1e6, wall / 1e9);
        }
    }
}
