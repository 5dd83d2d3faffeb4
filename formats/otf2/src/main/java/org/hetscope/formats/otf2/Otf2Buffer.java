package org.hetscope.formats.otf2;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.hetscope.model.TraceFormatException;

/**
 * Decodes OTF2's elementary types from one file's bytes: fixed-size values in the file's byte order, and the
 * compressed integers (a length byte, 0 meaning zero and 0xFF meaning all ones, then that many bytes).
 */
final class Otf2Buffer {
    static final int LITTLE_ENDIAN = 0x42;
    static final int BIG_ENDIAN = 0x23;

    final Path file;
    final byte[] data;
    int pos;
    boolean bigEndian;

    Otf2Buffer(Path file, byte[] data) {
        this.file = file;
        this.data = data;
    }

    boolean atEnd() {
        return pos >= data.length;
    }

    TraceFormatException error(String reason) {
        return new TraceFormatException(file, "offset " + pos, reason);
    }

    private void need(int n) throws TraceFormatException {
        if (pos + n > data.length) {
            throw error("record runs past the end of the file (" + n + " more bytes needed)");
        }
    }

    void setByteOrder(int marker) throws TraceFormatException {
        if (marker == LITTLE_ENDIAN) {
            bigEndian = false;
        } else if (marker == BIG_ENDIAN) {
            bigEndian = true;
        } else {
            throw error(String.format("unknown byte-order marker 0x%02x", marker));
        }
    }

    int u8() throws TraceFormatException {
        need(1);
        return data[pos++] & 0xFF;
    }

    /** A fixed-width unsigned value of {@code n} bytes in the file's byte order. */
    long fixed(int n) throws TraceFormatException {
        need(n);
        long v = 0;
        if (bigEndian) {
            for (int i = 0; i < n; i++) {
                v = (v << 8) | (data[pos + i] & 0xFF);
            }
        } else {
            for (int i = n - 1; i >= 0; i--) {
                v = (v << 8) | (data[pos + i] & 0xFF);
            }
        }
        pos += n;
        return v;
    }

    long u64full() throws TraceFormatException {
        return fixed(8);
    }

    double f64() throws TraceFormatException {
        return Double.longBitsToDouble(fixed(8));
    }

    /** A compressed unsigned integer of at most {@code maxBytes} bytes; all ones when the marker is 0xFF. */
    private long compressed(int maxBytes) throws TraceFormatException {
        int size = u8();
        if (size == 0) {
            return 0;
        }
        if (size == 0xFF) {
            return maxBytes == 8 ? -1L : (1L << (8 * maxBytes)) - 1;
        }
        if (size > maxBytes) {
            pos--;
            throw error("invalid size " + size + " in compressed integer (at most " + maxBytes + ")");
        }
        // big-endian files keep the low-order bytes, most significant first
        return fixed(size);
    }

    long u32() throws TraceFormatException {
        return compressed(4);
    }

    long u64() throws TraceFormatException {
        return compressed(8);
    }

    int i32() throws TraceFormatException {
        return (int) compressed(4);
    }

    long i64() throws TraceFormatException {
        return compressed(8);
    }

    String string() throws TraceFormatException {
        int start = pos;
        while (pos < data.length && data[pos] != 0) {
            pos++;
        }
        if (pos >= data.length) {
            pos = start;
            throw error("unterminated string");
        }
        String s = new String(data, start, pos - start, StandardCharsets.UTF_8);
        pos++;
        return s;
    }
}
