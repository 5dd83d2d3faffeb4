package org.hetscope.formats.paje;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Cuts a byte source into lines. A range [from, to) of a file holds the lines that start in it, so that ranges
 * cut on any offsets share out the lines of the file, each line once and whole, however long it is. One cutter
 * per thread: it owns its buffer.
 */
final class LineCutter {
    /** Bytes of the source from a position; returns -1 at its end. */
    interface Source {
        int read(ByteBuffer into, long position) throws IOException;

        /** A file, read at any position (thread-safe). */
        static Source of(FileChannel channel) {
            return channel::read;
        }

        /** A stream, read from its start in order only. */
        static Source of(InputStream in) {
            return (into, position) -> {
                int n = in.read(into.array(), into.arrayOffset() + into.position(), into.remaining());
                if (n > 0) {
                    into.position(into.position() + n);
                }
                return n;
            };
        }
    }

    /** Receives each line. */
    interface LineHandler {
        /**
         * @param end    index after the line's last byte, without its '\n'
         * @param last   the line ends the source without a '\n'
         * @param offset where the line starts in the source
         * @return false to stop before this line
         */
        boolean line(byte[] buf, int start, int end, boolean last, long offset) throws IOException;
    }

    private byte[] buf;
    /** Longest line held; a longer one is read past and handed on empty, with {@link #overlong} set. */
    private final int maxLine = org.hetscope.model.InputLimits.maxTokenBytes();
    /** Set while the handler gets a line that was longer than the limit (it gets it empty). */
    boolean overlong;
    /** The length of that line, in bytes. */
    long overlongBytes;

    LineCutter(int bufferSize) {
        buf = new byte[bufferSize];
    }

    private static final long ONES = 0x0101010101010101L;
    private static final long NEWLINES = ONES * '\n';
    private static final long HIGHS = ONES << 7;

    /** The first '\n' in buf[from, to), or -1; eight bytes at a time. */
    private int newline(int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long w = ByteWords.at(buf, i) ^ NEWLINES;
            // a zero byte of w is a '\n'; the lowest flagged byte is always a true one (borrows only go upwards)
            long zero = (w - ONES) & ~w & HIGHS;
            if (zero != 0) {
                return i + (Long.numberOfTrailingZeros(zero) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (buf[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** Hands the handler a line that was too long to hold, as an empty line with {@link #overlong} set. */
    private boolean overlongLine(LineHandler handler, boolean last, long start, long end) throws IOException {
        overlong = true;
        overlongBytes = end - start;
        try {
            return handler.line(buf, 0, 0, last, start);
        } finally {
            overlong = false;
        }
    }

    /**
     * Hands every line that starts in [from, to) to the handler, in order.
     * @return the offset of the line the handler stopped before, or -1 when it took them all
     */
    long cut(Source source, long from, long to, LineHandler handler) throws IOException {
        // A line that starts before `from` belongs to the range before: begin one byte early to see whether
        // `from` starts a line, and skip to the first '\n' otherwise.
        long base = from > 0 ? from - 1 : 0;
        boolean skipping = from > 0;
        int pos = 0;
        int len = 0;
        int scan = 0;
        boolean eof = false;
        // Where the line being read past (too long to hold) starts, or -1.
        long dropped = -1;
        while (true) {
            int nl = newline(scan, len);
            if (nl < 0) {
                if (eof) {
                    if (dropped >= 0) {
                        return dropped < to && !overlongLine(handler, true, dropped, base + len) ? dropped : -1;
                    }
                    if (pos < len && !skipping && base + pos < to && !(len - pos > maxLine
                            ? overlongLine(handler, true, base + pos, base + len)
                            : handler.line(buf, pos, len, true, base + pos))) {
                        return base + pos;
                    }
                    return -1;
                }
                if (skipping && base + len >= to) {
                    return -1; // no line starts in the range: it lies inside one line that began before it
                }
                if (pos > 0) {
                    System.arraycopy(buf, pos, buf, 0, len - pos);
                    base += pos;
                    len -= pos;
                    pos = 0;
                } else if (len == buf.length && (skipping || dropped >= 0 || len >= maxLine)) {
                    // A line that starts in an earlier range, or one too long to hold: only its end is wanted.
                    if (!skipping && dropped < 0) {
                        dropped = base;
                    }
                    base += len;
                    len = 0;
                } else if (len == buf.length) {
                    buf = java.util.Arrays.copyOf(buf, (int) Math.min((long) buf.length * 2, maxLine));
                }
                scan = len;
                // Past `to` only the end of one line is wanted: read a little at a time there.
                long ahead = to - (base + len);
                long wanted = dropped >= 0 ? buf.length : ahead > 0 ? Math.min(ahead, Integer.MAX_VALUE) + 4096 : 4096;
                int n = source.read(ByteBuffer.wrap(buf, len, (int) Math.min(buf.length - len, wanted)), base + len);
                if (n < 0) {
                    eof = true;
                } else {
                    len += n;
                }
                continue;
            }
            scan = nl + 1;
            if (skipping) {
                skipping = false;
                pos = nl + 1;
                continue;
            }
            if (dropped >= 0) {
                long start = dropped;
                dropped = -1;
                pos = nl + 1;
                if (start >= to) {
                    return -1;
                }
                if (!overlongLine(handler, false, start, base + nl)) {
                    return start;
                }
                continue;
            }
            long offset = base + pos;
            if (offset >= to) {
                return -1;
            }
            if (nl - pos > maxLine ? !overlongLine(handler, false, offset, base + nl)
                    : !handler.line(buf, pos, nl, false, offset)) {
                return offset;
            }
            pos = nl + 1;
        }
    }
}
