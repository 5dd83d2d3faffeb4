package org.hetscope.formats.paje;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hetscope.formats.paje.starpu.StarpuImport;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceFormatException;
import org.hetscope.model.TraceSink;

/**
 * The {@code paje} trace format: a Paje file ({@code .trace}/{@code .paje} starting with {@code %EventDef}), or a
 * StarPU folder holding {@code paje.trace} with tasks.rec, data.rec and dag.dot, read together. StarPU's dialect
 * is recognised from the header (memory-manager events with a Handle field, task states with a JobId field) and
 * mapped onto tasks, memory nodes and blocks; any other producer is read generically.
 */
public final class PajeFormat implements TraceFormat {

    @Override
    public String name() {
        return "paje";
    }

    @Override
    public boolean accepts(Path input) throws IOException {
        if (Files.isDirectory(input)) {
            return startsWithEventDef(input.resolve("paje.trace"));
        }
        return startsWithEventDef(input);
    }

    private static boolean startsWithEventDef(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return false;
        }
        byte[] head = new byte[256];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        }
        String s = new String(head, 0, n, StandardCharsets.ISO_8859_1);
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        // Comment lines may come before the header.
        while (s.startsWith("#", i)) {
            int nl = s.indexOf('\n', i);
            if (nl < 0) {
                return false;
            }
            i = nl + 1;
        }
        return s.startsWith("%EventDef", i) || s.startsWith("% EventDef", i);
    }

    @Override
    public void read(Path input, TraceSink sink, Progress progress) throws IOException, TraceFormatException {
        Path file = Files.isDirectory(input) ? input.resolve("paje.trace") : input;
        if (!Files.isRegularFile(file)) {
            throw new TraceFormatException(input, null, "no paje.trace in this folder");
        }
        if (PajeDialect.isStarpu(file)) {
            StarpuImport.read(file, file.toAbsolutePath().getParent(), sink, progress);
            sink.info("paje.dialect", "starpu");
        } else {
            GenericPajeImport.read(file, sink, progress, null);
            sink.info("paje.dialect", "generic");
        }
    }
}
