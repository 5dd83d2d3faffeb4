package org.hetscope.formats.paje;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the Paje and StarPU readers put what they cannot keep in memory until the end of a trace: temporary files
 * in the folder named by {@code hetscope.spill.dir}, else {@code java.io.tmpdir}, deleted after the read.
 */
public final class SpillFiles {
    private SpillFiles() {}

    /** The folder spill files go to. */
    public static Path folder() {
        return Path.of(System.getProperty("hetscope.spill.dir", System.getProperty("java.io.tmpdir")));
    }

    /**
     * A new temporary file whose name starts with {@code prefix}; {@code what} says in the error what it was for.
     */
    public static Path create(String prefix, String what) throws IOException {
        Path f;
        try {
            f = Files.createTempFile(folder(), prefix, ".spill");
        } catch (IOException e) {
            throw new IOException("cannot create a spill file for " + what + " in " + folder() + ": " + e, e);
        }
        f.toFile().deleteOnExit();
        return f;
    }
}
