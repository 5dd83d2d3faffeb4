package org.hetscope.web;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The window response as the page reads it ({@code /window.bin}): the same items as {@link WindowJson}, in a third
 * of the bytes and without text to parse. A zoomed-in window at 100 M slices is 50,000-90,000 items; as JSON that
 * is 2-4 MB that the browser receives, decodes as UTF-8 and parses into arrays on the page's main thread.
 *
 * <p>Layout: the ASCII magic {@code HSW1}; a little-endian u32 length and that many bytes of UTF-8 JSON
 * {@code {"t0","t1","px","names":[...],"categories":[...],"tracks":[[id, items], ...]}}; then, per track in that
 * order and per item, nine LEB128 varints (signed ones zigzag-encoded): depth, start minus the previous item's
 * start (0 before the first item of a track; zigzag), end minus start (zigzag), count (zigzag), busy (zigzag), id
 * minus the previous item's id (0 before the first; zigzag), name index, category index, matches (zigzag). The
 * page reads numbers as doubles, as it reads the JSON form: exact while they stay within 2^53.
 */
public final class WindowBinary {
    static final byte[] MAGIC = {'H', 'S', 'W', '1'};

    private byte[] buf = new byte[64 * 1024];
    private int size;
    private final StringIndex names = new StringIndex();
    private final StringIndex categories = new StringIndex();

    private WindowBinary() {
    }

    public static byte[] write(long t0, long t1, int px, Map<Long, List<WindowItem>> window) {
        return new WindowBinary().response(t0, t1, px, window);
    }

    private byte[] response(long t0, long t1, int px, Map<Long, List<WindowItem>> window) {
        // Items first (they fill the name lists), behind room for the magic and header length; the header is put in
        // front at the end.
        size = 8;
        StringBuilder tracks = new StringBuilder();
        for (Map.Entry<Long, List<WindowItem>> e : window.entrySet()) {
            tracks.append(tracks.isEmpty() ? "" : ",").append('[').append(e.getKey()).append(',')
                    .append(e.getValue().size()).append(']');
            long start = 0;
            long id = 0;
            for (WindowItem it : e.getValue()) {
                ensure(9 * 10);
                unsigned(it.depth());
                signed(it.start() - start);
                signed(it.end() - it.start());
                signed(it.count());
                signed(it.busy());
                signed(it.id() - id);
                unsigned(names.index(it.name()));
                unsigned(categories.index(it.category()));
                signed(it.matches());
                start = it.start();
                id = it.id();
            }
        }
        byte[] header = ("{\"t0\":" + t0 + ",\"t1\":" + t1 + ",\"px\":" + px + ",\"names\":" + strings(names.values())
                + ",\"categories\":" + strings(categories.values()) + ",\"tracks\":[" + tracks + "]}")
                .getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[8 + header.length + size - 8];
        System.arraycopy(MAGIC, 0, out, 0, 4);
        out[4] = (byte) header.length;
        out[5] = (byte) (header.length >>> 8);
        out[6] = (byte) (header.length >>> 16);
        out[7] = (byte) (header.length >>> 24);
        System.arraycopy(header, 0, out, 8, header.length);
        System.arraycopy(buf, 8, out, 8 + header.length, size - 8);
        return out;
    }

    private static String strings(List<String> values) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < values.size(); i++) {
            sb.append(i > 0 ? ",\"" : "\"").append(JsonStringEncoder.getInstance().quoteAsString(values.get(i)))
                    .append('"');
        }
        return sb.append(']').toString();
    }

    private void signed(long v) {
        unsigned((v << 1) ^ (v >> 63));
    }

    /** LEB128: seven bits a byte, low first, the high bit set on all but the last. */
    private void unsigned(long v) {
        while ((v & ~0x7FL) != 0) {
            buf[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[size++] = (byte) v;
    }

    private void ensure(int more) {
        if (size + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
        }
    }
}
