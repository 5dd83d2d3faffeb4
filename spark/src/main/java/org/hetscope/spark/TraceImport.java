package org.hetscope.spark;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import org.hetscope.cli.Formats;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceFormatException;
import org.hetscope.store.ParquetExport;
import org.hetscope.store.PipelinedSink;
import org.hetscope.store.StoreWriter;

/**
 * One trace in, one dataset folder out: what a Spark task runs (and nothing of Spark, so that it is tested and timed
 * alone). The trace is imported with hetscope's own readers into an in-memory store ({@link StoreWriter#inMemory}:
 * the same tables, nesting and order as {@code hetscope import} writes, without a store file, its checkpoint and
 * reading it back), whose tables DuckDB then writes as Parquet ({@link ParquetExport#exportDatabase}) into a dataset
 * folder of its own that the driver later merges into the job's dataset ({@link ParquetExport#merge}). Memory is
 * what one {@code hetscope import} needs: the readers stream, DuckDB holds the tables within its limit
 * ({@code -Dhetscope.duckdb.memory}, 512MB) as the import's one transaction does, its temporary files in {@code tmp}.
 */
public final class TraceImport {
    private TraceImport() {
    }

    /** The outcome of one trace: {@code status} is ok, damaged (kept, with damage counted) or failed (nothing kept). */
    public record Outcome(String trace, String name, String status, String format, long bytes, long events,
            long skipped, long damaged, String position, String reason, long nanos, long readNanos,
            long exportNanos, String host) implements Serializable {
        public boolean failed() {
            return status.equals("failed");
        }
    }

    /**
     * Imports {@code trace} as trace {@code name} into the new dataset folder {@code out}, using {@code tmp} for
     * DuckDB's temporary files (removed at the end). Never throws for a bad trace: the outcome says what went wrong, where.
     */
    public static Outcome run(Path trace, String name, Path out, Path tmp) {
        return run(trace, name, out, tmp, 0);
    }

    /** As {@link #run(Path, String, Path, Path)}, DuckDB running at most {@code threads} threads (0: one per core). */
    public static Outcome run(Path trace, String name, Path out, Path tmp, int threads) {
        long t0 = System.nanoTime();
        String host = host();
        long bytes = size(trace);
        Path work = null;
        String format = "";
        try {
            Files.createDirectories(tmp);
            work = Files.createTempDirectory(tmp, "hetscope-task-");
            TraceFormat f = Formats.find(trace, null);
            format = f.name();
            String path = trace.toAbsolutePath().normalize().toString();
            long t1;
            long skipped;
            long damaged;
            ParquetExport.Result r;
            try (StoreWriter writer = StoreWriter.inMemory(path, work, threads)) {
                writer.info("source.0.path", path);
                writer.info("source.0.format", f.name());
                // one source, as `hetscope import` records it: the dataset's source tables match a store's
                writer.beginSource(path, f.name());
                PipelinedSink pipe = new PipelinedSink(writer);
                try {
                    f.read(trace, pipe, Progress.NONE);
                } finally {
                    pipe.finish();
                    writer.endSource();
                }
                skipped = writer.skippedTotal();
                damaged = writer.damagedTotal();
                writer.commit();
                t1 = System.nanoTime();
                // tables without rows get no file: the merge keeps one per table that no trace has a file of
                r = ParquetExport.exportDatabase(writer.database(), out, name, path, true);
            }
            long events = 0;
            for (Map.Entry<String, Long> e : r.tables().entrySet()) {
                if (e.getKey().equals("slice") || e.getKey().equals("instant") || e.getKey().equals("counter")) {
                    events += e.getValue();
                }
            }
            return new Outcome(trace.toString(), name, damaged > 0 ? "damaged" : "ok", format, bytes, events,
                    skipped, damaged, "", damaged > 0 ? damaged + " damaged item(s) skipped, everything intact kept"
                    : "", System.nanoTime() - t0, t1 - t0, System.nanoTime() - t1, host);
        } catch (TraceFormatException e) {
            return failed(trace, name, format, bytes, e.position() == null ? "" : e.position(),
                    reason(e.getMessage(), trace, e.position()), t0, host);
        } catch (IOException | RuntimeException e) {
            return failed(trace, name, format, bytes, "", reason(e.getMessage(), trace, null), t0, host);
        } catch (OutOfMemoryError e) {
            return failed(trace, name, format, bytes, "", "out of memory in the executor (give executors more "
                    + "memory: --executor-memory, see docs/scale.md)", t0, host);
        } catch (Error e) {
            return failed(trace, name, format, bytes, "", "internal error (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")", t0, host);
        } finally {
            if (work != null) {
                deleteTree(work);
            }
        }
    }

    private static Outcome failed(Path trace, String name, String format, long bytes, String position,
            String reason, long t0, String host) {
        return new Outcome(trace.toString(), name, "failed", format, bytes, 0, 0, 0, position, reason,
                System.nanoTime() - t0, 0, 0, host);
    }

    /** The message without the file and position it starts with (reported in their own columns). */
    static String reason(String message, Path trace, String position) {
        String m = message == null ? "unknown error" : message;
        String prefix = trace + (position == null || position.isEmpty() ? "" : " at " + position) + ": ";
        if (m.startsWith(prefix)) {
            return m.substring(prefix.length());
        }
        String bare = trace + ": ";
        return m.startsWith(bare) ? m.substring(bare.length()) : m;
    }

    /** A file's size, or a folder's (CTF, StarPU, OTF2 traces are folders): the bytes a reader reads. */
    static long size(Path p) {
        try (var walk = Files.walk(p)) {
            return walk.filter(Files::isRegularFile).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    return 0;
                }
            }).sum();
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** Once per executor: the name look-up may take a DNS round trip. */
    private static volatile String host;

    private static String host() {
        String h = host;
        if (h == null) {
            h = lookUpHost();
            host = h;
        }
        return h;
    }

    private static String lookUpHost() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName() + "/" + ProcessHandle.current().pid();
        } catch (IOException e) {
            return "pid " + ProcessHandle.current().pid();
        }
    }

    static void deleteTree(Path root) {
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | RuntimeException ignored) {
            // a temporary folder left behind
        }
    }
}
