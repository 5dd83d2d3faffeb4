package org.hetscope.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.hetscope.model.SkipReason;
import org.hetscope.model.SkipTally;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceFormatException;
import org.hetscope.store.ClockAlignment;
import org.hetscope.store.PipelinedSink;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hetscope import TRACE... -o FILE}: decodes traces into one store file. */
@Command(name = "import", description = "Import one or more traces into a store file (DuckDB).")
public final class ImportCommand implements Callable<Integer> {
    @Parameters(arity = "0..*", paramLabel = "TRACE", description = "Trace files or folders (or none, with "
            + "--clock-manifest naming them).")
    List<Path> inputs = new java.util.ArrayList<>();

    @Option(names = "--clock", paramLabel = "SOURCE=SPEC", description = "How one trace's clock is put on the "
            + "store's timeline (the first trace's clock). SOURCE: its number (1 for the first), path or file "
            + "name. SPEC: a signed offset added to its times (+1.5ms, -200ns), optionally ,drift=20ppm; or "
            + "auto (default: clock facts of the formats, then matching MPI messages), facts, messages, none, "
            + "marker:NAME (the first slice or instant NAME lines up with the aligned traces'). Repeatable.")
    List<String> clocks = new java.util.ArrayList<>();

    @Option(names = "--clock-manifest", paramLabel = "JSON", description = "A manifest naming traces (relative to "
            + "its folder) with their offset, drift or align SPEC: "
            + "{\"traces\": [{\"path\": \"a.json\"}, {\"path\": \"b.json\", \"offset\": \"+1.5ms\"}]}; "
            + "its traces are read after those given as arguments.")
    Path clockManifest;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE", description = "Store file to write; "
            + "not one of the inputs, and an existing file is replaced only if it is a store (or with --force). One "
            + "import at a time writes it; files left by a killed import to it are removed.")
    Path output;

    @Option(names = "--keep-partial", description = "On input damaged so that reading must stop, keep what was read "
            + "before the damage: the store is written, the error recorded in it, and the exit code is 3. (Damage "
            + "the reader can step over, such as a corrupt packet, is always kept past, counted, and also ends "
            + "with exit code 3.)")
    boolean keepPartial;

    @Option(names = "--force", description = "Replace an existing output file even if it is not a complete "
            + "hetscope store (an existing store is always replaced).")
    boolean force;

    @Option(names = "--format", description = "Input format (default: detected). One of the known format names.")
    String format;

    @Override
    public Integer call() throws Exception {
        Map<Integer, ClockAlignment.Request> requests = new java.util.HashMap<>();
        try {
            if (clockManifest != null) {
                ClockOptions.Manifest m = ClockOptions.readManifest(clockManifest);
                inputs.addAll(m.traces());
                m.requests().forEach((trace, r) -> requests.put(ClockOptions.resolve(trace, inputs), r));
            }
            if (inputs.isEmpty()) {
                System.err.println("hetscope: import: no trace given (name traces, or a --clock-manifest)");
                return 2;
            }
            for (String c : clocks) {
                Map.Entry<String, ClockAlignment.Request> e = ClockOptions.parseOption(c);
                requests.put(ClockOptions.resolve(e.getKey(), inputs), e.getValue());
            }
        } catch (IllegalArgumentException | java.io.IOException e) {
            System.err.println("hetscope: " + ErrorText.of(e));
            return 2;
        }
        for (Path in : inputs) {
            if (!Files.exists(in)) {
                System.err.println("hetscope: " + in + ": no such file or folder");
                return 2;
            }
        }
        String refused = checkOutput();
        if (refused != null) {
            System.err.println("hetscope: " + output + ": " + refused);
            return 2;
        }
        StoreWriter writer;
        try {
            writer = StoreWriter.create(output);
        } catch (java.nio.file.FileSystemException e) {
            // the store's lock or partial file beside it could not be made: name the store and the reason
            System.err.println("hetscope: " + output + ": cannot be written (" + ErrorText.of(e) + ")");
            return 1;
        } catch (java.io.IOException e) {
            System.err.println("hetscope: " + e.getMessage());
            return 1;
        }
        for (Path stale : writer.removedStale()) {
            System.err.println("hetscope: removed " + stale + ", left by an import to " + output + " that did not "
                    + "finish");
        }
        // Checked again under the lock: an import that finished meanwhile leaves a store, which may be replaced.
        if (!force && Files.exists(output) && !Store.isCompleteStore(output)) {
            writer.abort();
            System.err.println("hetscope: " + output + ": exists and is not a complete hetscope store; not replacing "
                    + "it (use --force to replace it)");
            return 2;
        }
        Thread cleanup = new Thread(writer::abort, "hetscope-import-abort");
        Runtime.getRuntime().addShutdownHook(cleanup);
        ReadPosition progress = new ReadPosition(TerminalProgress.forStderr());
        Path reading = null;
        try {
            int n = 0;
            for (Path in : inputs) {
                reading = in;
                TraceFormat f = Formats.find(in, format);
                writer.info("source." + n + ".path", in.toAbsolutePath().normalize().toString());
                writer.info("source." + n + ".format", f.name());
                n++;
                writer.beginSource(in.toAbsolutePath().normalize().toString(), f.name());
                // Decoding and storing run on two threads; the pipe is drained before anything else happens.
                PipelinedSink pipe = new PipelinedSink(writer);
                try {
                    f.read(in, pipe, progress);
                } finally {
                    progress.finish();
                    pipe.finish();
                    writer.endSource();
                }
            }
            reading = null;
            Map<Integer, ClockAlignment.Adjustment> clocks;
            try {
                clocks = ClockAlignment.align(writer, requests);
            } catch (org.hetscope.store.StoreException e) {
                // e.g. an offset that takes times beyond the ns range
                writer.abort();
                System.err.println("hetscope: " + e.getMessage() + (e.getCause() == null ? ""
                        : ": " + e.getCause().getMessage()) + "; no store written");
                return 1;
            }
            if (clocks.size() > 1 || !requests.isEmpty()) {
                clocks.forEach((id, a) -> System.err.println("hetscope: source " + id + " (" + inputs.get(id - 1)
                        + "): clock " + (a.offsetNs() >= 0 ? "+" : "") + Units.duration(a.offsetNs(), true)
                        + (a.drift() != 0 ? ", drift " + a.drift() * 1e6 + " ppm" : "") + " by " + a.method()
                        + (a.residualNs() != null && a.method().equals(ClockAlignment.MESSAGES)
                                ? " (residual " + Units.duration(a.residualNs(), true) + ")" : "")));
            }
            progress.start("finishing store (nesting, sorting, compressing)", -1);
            try {
                writer.commit();
            } finally {
                progress.finish();
            }
        } catch (TraceFormatException e) {
            System.err.println("hetscope: " + e.getMessage());
            if (keepPartial) {
                writer.info(Store.PARTIAL_KEY, "true");
                writer.info(Store.ERROR_KEY, e.getMessage());
                // counted, so that info's skipped items and the exit code agree with the warning
                writer.skipped(SkipReason.READING_STOPPED, reading == null ? "" : reading.toString(), 1);
                try {
                    ClockAlignment.align(writer, requests);
                } catch (org.hetscope.store.StoreException ignored) {
                    // what was read stays on its own clocks; the source table says so
                }
                writer.commit();
                System.err.println("hetscope: kept what was read before the damage in " + output);
                printSkipped(writer);
                return 3;
            }
            writer.abort();
            System.err.println("hetscope: no store written (use --keep-partial to keep what was read)");
            return 1;
        } catch (OutOfMemoryError e) {
            // What the reader held is unreachable once its frames are gone: there is room again to say why.
            writer.abort();
            String where = reading != null ? progress.describe() : "while finishing the store";
            System.err.println("hetscope: " + (reading != null ? reading : output) + ": out of memory"
                    + (where.isEmpty() ? "" : " " + where) + "; no store written.");
            System.err.println("hetscope: " + OutOfMemory.advice(reading));
            return 1;
        } catch (Exception e) {
            writer.abort();
            throw e;
        } catch (Error e) {
            // Any other Error (a StackOverflowError on absurdly deep input, a linkage error): no half store, and
            // one line instead of a thousand lines of stack.
            writer.abort();
            String where = reading != null ? progress.describe() : "while finishing the store";
            System.err.println("hetscope: " + (reading != null ? reading : output) + ": internal error ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")"
                    + (where.isEmpty() ? "" : " " + where) + "; no store written.");
            if (Boolean.getBoolean("hetscope.debug")) {
                e.printStackTrace();
            }
            return 1;
        } finally {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
        printSkipped(writer);
        long damaged = writer.damagedTotal();
        if (damaged > 0) {
            System.err.println("hetscope: the input is damaged (" + damaged + " item(s) lost, listed above); everything "
                    + "intact is stored in " + output);
            return 3;
        }
        return 0;
    }

    /** Why the output may not be written, checked before anything is read; null if it may. */
    private String checkOutput() {
        if (Files.isDirectory(output)) {
            return "is a folder; name the store file to write (e.g. " + output.resolve("trace.hets") + ")";
        }
        Path dir = output.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            return "no such folder " + dir;
        }
        for (Path in : inputs) {
            if (sameFile(in, output)) {
                return "is one of the inputs (" + in + "); the store would replace the trace it is read from";
            }
        }
        return null;
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            if (Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b)) { // same inode, also through links
                return true;
            }
            return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
        } catch (java.io.IOException e) {
            return false;
        }
    }

    static void printSkipped(StoreWriter writer) {
        List<SkipTally.Entry> skipped = writer.skips();
        if (!skipped.isEmpty()) {
            System.err.println("hetscope: kept generically or skipped (see 'hetscope info'):");
            // the first place of each reason, so that damage is found without opening the store
            for (SkipTally.Entry e : skipped) {
                String where = e.where();
                System.err.println("  " + e.count() + " x " + e.label() + (where == null || where.isBlank()
                        ? "" : " (first at " + where + ")"));
            }
        }
    }
}
