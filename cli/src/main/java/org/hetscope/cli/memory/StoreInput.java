package org.hetscope.cli.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hetscope.formats.paje.PajeFormat;
import org.hetscope.model.TraceFormatException;
import org.hetscope.store.Store;

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
        return org.hetscope.cli.TemporaryImport.open(file, paje, false);
    }
}
