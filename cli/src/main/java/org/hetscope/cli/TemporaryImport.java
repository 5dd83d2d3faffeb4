package org.hetscope.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceFormatException;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;

/**
 * A trace given to a command that reads stores ({@code report}, {@code plot}, {@code diff}, {@code serve},
 * {@code memory}, {@code tasks}), imported into a temporary store the way {@code import} reads it: with the progress
 * bar on a terminal, the list of what was kept generically or skipped, and exit code 3 for the command when the
 * input was damaged (it then works on everything intact), so that a damaged trace is never analysed in silence.
 */
public final class TemporaryImport {
    /** Set when an input of the running command was damaged; {@link Main#run} turns a clean exit into 3. */
    private static volatile boolean damaged;

    private TemporaryImport() {
    }

    static void reset() {
        damaged = false;
    }

    static boolean damaged() {
        return damaged;
    }

    /**
     * Reads {@code file} with {@code format} into a new temporary store (deleted when the JVM exits) and opens it;
     * {@code describeSource} records the source in the store as {@code import} does.
     */
    public static Store open(Path file, TraceFormat format, boolean describeSource)
            throws IOException, TraceFormatException {
        Path tmp = Files.createTempFile("hetscope-", ".duckdb");
        Files.delete(tmp);
        tmp.toFile().deleteOnExit();
        StoreWriter w = StoreWriter.create(tmp);
        Progress progress = TerminalProgress.forStderr();
        try {
            String source = file.toAbsolutePath().normalize().toString();
            if (describeSource) {
                w.info("source.0.path", source);
                w.info("source.0.format", format.name());
                w.beginSource(source, format.name());
            }
            try {
                format.read(file, w, progress);
            } finally {
                progress.finish();
            }
            if (describeSource) {
                w.endSource();
            }
            progress.start("finishing temporary store", -1);
            try {
                w.commit();
            } finally {
                progress.finish();
            }
        } catch (IOException | TraceFormatException | RuntimeException e) {
            w.abort();
            throw e;
        }
        System.err.println("hetscope: imported " + file + " (" + format.name() + ") into a temporary store");
        ImportCommand.printSkipped(w);
        long lost = w.damagedTotal();
        if (lost > 0) {
            damaged = true;
            System.err.println("hetscope: " + file + ": the input is damaged (" + lost + " item(s) lost, listed "
                    + "above); what follows uses everything intact (exit code 3)");
        }
        return Store.open(tmp);
    }
}
