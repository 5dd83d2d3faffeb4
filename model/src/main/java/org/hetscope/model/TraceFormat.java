package org.hetscope.model;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A trace format that hetscope can import. Implementations live in the {@code formats} modules and are found
 * through {@link java.util.ServiceLoader}, so a front end imports any format without knowing it.
 */
public interface TraceFormat {

    /** A short name used on the command line ({@code --format chrome}). */
    String name();

    /**
     * Order among formats that accept the same input: a format that refines a generic one (the OpenCL capture
     * agent's CTF traces against plain CTF) returns a higher value and is asked first. Generic readers keep 0.
     */
    default int priority() {
        return 0;
    }

    /** Whether {@code input} looks like this format; must be cheap (peek at a few bytes or file names). */
    boolean accepts(Path input) throws IOException;

    /**
     * Decodes {@code input} into {@code sink}. Damage that can be stepped over is reported through
     * {@link TraceSink#skipped}; damage that ends the read throws, after everything intact was emitted.
     */
    void read(Path input, TraceSink sink, Progress progress) throws IOException, TraceFormatException;
}
