package org.hetscope.analysis.profiling;

import java.nio.file.Path;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;

/** Imports fixtures into store files for the analysis tests. */
final class Stores {
    static final Path ROOT = Path.of(System.getProperty("hetscope.root", "."));

    private Stores() {
    }

    static Path fixture(String relative) {
        return ROOT.resolve("../shared/fixtures").resolve(relative);
    }

    static Store importInto(Path dir, String name, TraceFormat format, Path... inputs) throws Exception {
        Path file = dir.resolve(name + ".duckdb");
        StoreWriter w = StoreWriter.create(file);
        try {
            for (Path in : inputs) {
                format.read(in, w, Progress.NONE);
            }
            w.commit();
        } catch (Exception e) {
            w.abort();
            throw e;
        }
        return Store.open(file);
    }
}
