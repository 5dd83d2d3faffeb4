package org.hetscope.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceFormatException;
import org.hetscope.store.PipelinedSink;
import org.hetscope.store.StoreWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hetscope import TRACE... -o FILE}: decodes traces into one store file. */
@Command(name = "import", description = "Import one or more traces into a store file (DuckDB).")
public final class ImportCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "TRACE", description = "Trace files or folders.")
    List<Path> inputs;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE", description = "Store file to write.")
    Path output;

    @Option(names = "--keep-partial", description = "On input damaged so that reading must stop, keep what was read "
            + "before the damage: the store is written, the error recorded in it, and the exit code is 3. (Damage "
            + "the reader can step over, such as a corrupt packet, is always kept past, counted, and also ends "
            + "with exit code 3.)")
    boolean keepPartial;

    @Option(names = "--format", description = "Input format (default: detected). One of the known format names.")
    String format;

    @Override
    public Integer call() throws Exception {
        for (Path in : inputs) {
            if (!Files.exists(in)) {
                System.err.println("hetscope: " + in + ": no such file or folder");
                return 2;
            }
        }
        StoreWriter writer = StoreWriter.create(output);
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
                // Decoding and storing run on two threads; the pipe is drained before anything else happens.
                PipelinedSink pipe = new PipelinedSink(writer);
                try {
                    f.read(in, pipe, progress);
                } finally {
                    progress.finish();
                    pipe.finish();
                }
            }
            reading = null;
            progress.start("finishing store (nesting, sorting, compressing)", -1);
            try {
                writer.commit();
            } finally {
                progress.finish();
            }
        } catch (TraceFormatException e) {
            System.err.println("hetscope: " + e.getMessage());
            if (keepPartial) {
                writer.info("import_error", e.getMessage());
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

    private static void printSkipped(StoreWriter writer) {
        Map<String, Long> skipped = writer.skippedCounts();
        if (!skipped.isEmpty()) {
            System.err.println("hetscope: kept generically or skipped (see 'hetscope info'):");
            skipped.forEach((k, v) -> System.err.println("  " + v + " x " + k));
        }
    }
}
