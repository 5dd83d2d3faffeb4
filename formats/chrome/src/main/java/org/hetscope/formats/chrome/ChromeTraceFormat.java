package org.hetscope.formats.chrome;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceFormatException;
import org.hetscope.model.TraceSink;

/**
 * The Chrome Trace Event JSON format (array or object form, optionally gzip-compressed), with PyTorch/Kineto
 * semantics: runtime API calls, kernels, copies, fills, syncs, correlation flows and device properties.
 */
public final class ChromeTraceFormat implements TraceFormat {
    /** The UTF-8 byte order mark as ISO-8859-1 text. */
    private static final String UTF8_BOM = "\u00ef\u00bb\u00bf";

    @Override
    public String name() {
        return "chrome";
    }

    @Override
    public boolean accepts(Path input) throws IOException {
        if (!Files.isRegularFile(input)) {
            return false;
        }
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(input))) {
            raw.mark(2);
            int b0 = raw.read();
            int b1 = raw.read();
            raw.reset();
            InputStream in = raw;
            if (b0 == 0x1f && b1 == 0x8b) {
                in = new GZIPInputStream(raw);
            }
            byte[] head = in.readNBytes(4096);
            String text = new String(head, java.nio.charset.StandardCharsets.ISO_8859_1);
            if (text.startsWith(UTF8_BOM)) {
                // some Windows tools write one; the JSON reader skips it
                text = text.substring(UTF8_BOM.length());
            }
            text = text.stripLeading();
            if (text.startsWith("[")) {
                String rest = text.substring(1).stripLeading();
                return rest.isEmpty() || rest.startsWith("{") || rest.startsWith("]");
            }
            return text.startsWith("{") && (text.contains("\"traceEvents\"") || text.contains("\"ph\"")
                    || text.contains("\"schemaVersion\"") || text.contains("\"deviceProperties\""));
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void read(Path input, TraceSink sink, Progress progress) throws IOException, TraceFormatException {
        new ChromeTraceReader(input, sink, progress).read();
    }
}
