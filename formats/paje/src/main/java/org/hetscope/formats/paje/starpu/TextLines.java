package org.hetscope.formats.paje.starpu;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hetscope.model.SkipReason;
import org.hetscope.model.InputLimits;

/**
 * The lines of a text file of the StarPU set (tasks.rec, data.rec, dag.dot), as UTF-8 with bytes that are not
 * UTF-8 replaced by U+FFFD, and none held longer than {@link InputLimits#maxTokenBytes}: a longer line is read
 * past, counted as damage and given as an empty line, so that one damaged spot does not fill the heap and the
 * line numbers after it stay right.
 */
final class TextLines implements Closeable {
    private final Path file;
    private final InputStream in;
    private final StarpuProblems problems;
    private final int max = InputLimits.maxTokenBytes();
    private final byte[] buf = new byte[1 << 16];
    private int pos;
    private int len;
    private byte[] line = new byte[256];
    private long number;
    /** Whether the file ended with a '\n' (or is empty). */
    private boolean endedWithNewline = true;

    TextLines(Path file, StarpuProblems problems) throws IOException {
        this.file = file;
        this.in = Files.newInputStream(file);
        this.problems = problems;
    }

    /** Line number of the line {@link #next} returned last (from 1). */
    long number() {
        return number;
    }

    /** Whether the last line ended with '\n': false when the file stops inside a line. */
    boolean endedWithNewline() {
        return endedWithNewline;
    }

    /** The next line without its '\n' (and '\r'), or null at the end of the file. */
    String next() throws IOException {
        int n = 0;
        boolean tooLong = false;
        boolean any = false;
        while (true) {
            if (pos == len) {
                len = in.read(buf, 0, buf.length);
                pos = 0;
                if (len <= 0) {
                    len = 0;
                    if (!any) {
                        return null;
                    }
                    endedWithNewline = false;
                    break;
                }
            }
            any = true;
            int start = pos;
            while (pos < len && buf[pos] != '\n') {
                pos++;
            }
            int chunk = pos - start;
            if (!tooLong) {
                if ((long) n + chunk > max) {
                    tooLong = true;
                } else {
                    if (n + chunk > line.length) {
                        line = java.util.Arrays.copyOf(line, Math.max(n + chunk, Math.min(max, 2 * line.length)));
                    }
                    System.arraycopy(buf, start, line, n, chunk);
                    n += chunk;
                }
            }
            if (pos < len) {
                pos++; // the '\n'
                endedWithNewline = true;
                break;
            }
        }
        number++;
        if (tooLong) {
            problems.add(SkipReason.LINE_TOO_LONG, "line longer than " + max + " bytes (the limit: -D"
                    + InputLimits.MAX_TOKEN_PROPERTY + "=N)", file, number, null);
            if (line.length > 1 << 20) {
                line = new byte[256];
            }
            return "";
        }
        if (n > 0 && line[n - 1] == '\r') {
            n--;
        }
        String text = new String(line, 0, n, StandardCharsets.UTF_8);
        problems.checkText(file, number, text);
        return text;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
