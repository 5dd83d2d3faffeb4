package org.hetscope.cli.web;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceFormatException;
import org.hetscope.store.Store;

/**
 * Opens what the web commands are given: a store file as it is, or a trace file of a known format, imported first
 * into a temporary store next to the system's temp files (deleted when the JVM exits) as {@code import} reads it
 * ({@link org.hetscope.cli.TemporaryImport}).
 */
public final class StoreOpener {
    private StoreOpener() {
    }

    public static Store open(Path file) throws IOException {
        // a folder is a trace too (StarPU, CTF, OTF2), as for import, memory and tasks
        if (!Files.exists(file)) {
            throw new IOException(file + ": no such file or folder");
        }
        if (Files.isRegularFile(file) && isDuckDb(file)) {
            return Store.open(file);
        }
        for (TraceFormat f : ServiceLoader.load(TraceFormat.class)) {
            if (f.accepts(file)) {
                try {
                    return org.hetscope.cli.TemporaryImport.open(file, f, true);
                } catch (TraceFormatException e) {
                    throw new IOException(e.getMessage(), e);
                }
            }
        }
        throw new IOException(file + ": neither a hetscope store nor a trace format hetscope knows");
    }

    private static boolean isDuckDb(Path file) throws IOException {
        byte[] head = new byte[16];
        try (var in = Files.newInputStream(file)) {
            int n = in.readNBytes(head, 0, head.length);
            // DuckDB files carry the magic "DUCK" at offset 8.
            return n >= 12 && head[8] == 'D' && head[9] == 'U' && head[10] == 'C' && head[11] == 'K';
        }
    }
}
