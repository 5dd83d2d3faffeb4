package org.hetscope.cli.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hetscope.formats.paje.PajeFormat;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormatException;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;

/**
 * Opens the FILE argument of the task-runtime commands: a store made by {@code hetscope import}, or directly a
 * Paje/StarPU trace, which is then imported into a temporary store first.
 */
public final class StoreInput {
    private StoreInput() {}

    public static Store open(Path file) throws IOException, TraceFormatException {
        if (!Files.exists(file)) {
            throw new IOException(file + ": no such file or folder");
        }
        PajeFormat paje = new PajeFormat();
        if (!paje.accepts(file)) {
            // a store, or a trace of any other format: the same inputs as report, plot and serve
            return org.hetscope.cli.web.StoreOpener.open(file);
        }
        Path tmp = Files.createTempFile("hetscope-", ".hets");
        Files.delete(tmp);
        tmp.toFile().deleteOnExit();
        StoreWriter w = StoreWriter.create(tmp);
        try {
            paje.read(file, w, Progress.NONE);
            w.commit();
        } catch (IOException | TraceFormatException | RuntimeException e) {
            w.abort();
            throw e;
        }
        return Store.open(tmp);
    }
}
