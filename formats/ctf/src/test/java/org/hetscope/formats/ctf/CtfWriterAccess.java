package org.hetscope.formats.ctf;

import java.nio.file.Path;
import java.util.Map;
import org.hetscope.formats.ctf.meta.TraceClass;

/** Opens the test CTF writer to tests in other packages. */
public final class CtfWriterAccess {
    private final CtfWriter w;

    public CtfWriterAccess(TraceClass meta, int eventsPerPacket) {
        w = new CtfWriter(meta, eventsPerPacket);
    }

    /** Makes the written stream look as if two packets were lost after packet {@code n}. */
    public void losePacketsAfter(int n) {
        w.losePacketsAfter = n;
    }

    public void event(String name, long ts, Map<String, Object> values) {
        w.event(name, ts, values);
    }

    public void write(Path dir, String metadata) throws java.io.IOException {
        w.write(dir, metadata);
    }
}
