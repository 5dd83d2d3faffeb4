package org.hetscope.formats.ctf.mapping;

import java.nio.file.Path;

/** The ROCm CTF trace the CTF reader's tests write with the exact rocprofv3 metadata (shared fixture rocm/). */
public final class RocmTrace {
    private RocmTrace() {
    }

    public static Path write(Path dir) throws Exception {
        return RocmMappingTest.writeTrace(dir);
    }
}
