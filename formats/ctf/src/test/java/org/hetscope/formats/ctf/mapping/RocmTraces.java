package org.hetscope.formats.ctf.mapping;

import java.nio.file.Path;

/** Gives other test packages the ROCm-shaped test trace. */
public final class RocmTraces {
    public static Path write(Path dir) throws Exception {
        return RocmMappingTest.writeTrace(dir);
    }

    private RocmTraces() {}
}
