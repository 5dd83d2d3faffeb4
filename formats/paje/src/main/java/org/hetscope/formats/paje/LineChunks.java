package org.hetscope.formats.paje;

import java.io.IOException;
import java.io.InputStream;

/** Cuts a stream into chunks of whole lines (the last chunk ends where the stream ends, newline or not). */
final class LineChunks {
    /** A chunk: {@code buf[0, length)}. */
    record Chunk(byte[] buf, int length, boolean endsFile) {}

    private final InputStream in;
    private final int size;
    private byte[] rest = new byte[0];
    private int restLength;
    private boolean eof;
    private long consumed;

    LineChunks(InputStream in, int size) {
        this.in = in;
        this.size = size;
    }

    /** Bytes handed out in chunks so far. */
    long consumed() {
        return consumed;
    }

    /** The next chunk, or null at the end of the stream. */
    Chunk next() throws IOException {
        return next(null);
    }

    /** The next chunk, read into {@code spare} when it is large enough (a chunk already used up), or null. */
    Chunk next(byte[] spare) throws IOException {
        if (eof && restLength == 0) {
            return null;
        }
        int want = Math.max(size, restLength * 2);
        byte[] buf = spare != null && spare.length >= want ? spare : new byte[want];
        System.arraycopy(rest, 0, buf, 0, restLength);
        int len = restLength;
        int searched = 0;
        while (true) {
            if (!eof) {
                int n = in.readNBytes(buf, len, buf.length - len);
                len += n;
                eof = len < buf.length;
            }
            int cut = lastNewline(buf, searched, len);
            if (cut >= 0 && !eof) {
                restLength = len - cut - 1;
                rest = java.util.Arrays.copyOfRange(buf, cut + 1, len);
                consumed += cut + 1;
                return new Chunk(buf, cut + 1, false);
            }
            if (eof) {
                restLength = 0;
                consumed += len;
                return len == 0 ? null : new Chunk(buf, len, true);
            }
            // A line longer than the chunk: read on into a larger one.
            searched = len;
            buf = java.util.Arrays.copyOf(buf, buf.length * 2);
        }
    }

    private static int lastNewline(byte[] buf, int from, int to) {
        for (int i = to - 1; i >= from; i--) {
            if (buf[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
