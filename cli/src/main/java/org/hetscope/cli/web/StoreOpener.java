package org.hetscope.cli.web;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceFormatException;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;

/**
 * Opens what the web commands are given: a store file as it is, or a trace file of a known format, imported first
 * into a temporary store next to the system's temp files (deleted when the JVM exits).
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
                Path tmp = Files.createTempFile("hetscope-", ".duckdb");
                Files.delete(tmp);
                tmp.toFile().deleteOnExit();
                StoreWriter w = StoreWriter.create(tmp);
                try {
                    w.info("source.0.path", file.toAbsolutePath().normalize().toString());
                    w.info("source.0.format", f.name());
                    w.beginSource(file.toAbsolutePath().normalize().toString(), f.name());
                    f.read(file, w, Progress.NONE);
                    w.endSource();
                    w.commit();
                } catch (IOException | RuntimeException e) {
                    w.abort();
                    throw e;
                } catch (TraceFormatException e) {
                    w.abort();
                    throw new IOException(e.getMessage(), e);
                }
                System.err.println("hetscope: imported " + file + " (" + f.name() + ") into a temporary store");
                return Store.open(tmp);
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
