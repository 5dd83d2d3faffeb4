package org.hetscope.formats.opencl;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Tells whether a folder is a trace written by hetscope's OpenCL capture agent: a CTF folder whose plain-text
 * metadata declares {@code tracer_name = "hetscope-opencl-agent"} in its {@code env} block.
 */
public final class AgentTraceDetector {
    private AgentTraceDetector() {}

    public static final String TRACER_NAME = "hetscope-opencl-agent";

    /** The trace folder for {@code input} (the folder itself, or the folder of a metadata file), or null. */
    public static Path traceDir(Path input) throws IOException {
        Path dir = Files.isDirectory(input) ? input
                : input.getFileName() != null && input.getFileName().toString().equals("metadata")
                ? input.getParent() : null;
        if (dir == null) {
            return null;
        }
        Path meta = dir.resolve("metadata");
        if (!Files.isRegularFile(meta)) {
            return null;
        }
        byte[] head = new byte[64 * 1024];
        int n;
        try (InputStream in = Files.newInputStream(meta)) {
            n = in.readNBytes(head, 0, head.length);
        }
        String text = new String(head, 0, n, StandardCharsets.UTF_8);
        if (!text.startsWith("/* CTF 1.8")) {
            return null;
        }
        return text.contains("tracer_name = \"" + TRACER_NAME + "\"") ? dir : null;
    }
}
