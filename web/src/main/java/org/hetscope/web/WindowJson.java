package org.hetscope.web;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The window response: items are arrays {@code [depth, start, end, count, busy, id, name, category, matches]}
 * where name and category are indexes into the response's {@code names} and {@code categories} lists (long kernel
 * names would otherwise repeat thousands of times).
 *
 * <p>The response is almost all integers, so it is written directly as bytes: a general JSON generator spends
 * most of its time on per-token bookkeeping here. Strings go through Jackson's escaping.
 */
public final class WindowJson {
    private static final String[] COLUMNS = {"depth", "start", "end", "count", "busy", "id", "name", "category",
        "matches"};

    private byte[] buf = new byte[64 * 1024];
    private int size;
    private final StringIndex names = new StringIndex();
    private final StringIndex categories = new StringIndex();

    private WindowJson() {
    }

    public static byte[] write(long t0, long t1, int px, Map<Long, List<WindowItem>> window) {
        return new WindowJson().response(t0, t1, px, window);
    }

    private byte[] response(long t0, long t1, int px, Map<Long, List<WindowItem>> window) {
        ascii("{\"t0\":").number(t0).ascii(",\"t1\":").number(t1).ascii(",\"px\":").number(px).ascii(",\"columns\":");
        strings(Arrays.asList(COLUMNS));
        ascii(",\"tracks\":[");
        boolean firstTrack = true;
        for (Map.Entry<Long, List<WindowItem>> e : window.entrySet()) {
            ascii(firstTrack ? "{\"track\":" : ",{\"track\":").number(e.getKey()).ascii(",\"items\":[");
            firstTrack = false;
            boolean firstItem = true;
            for (WindowItem it : e.getValue()) {
                if (!firstItem) {
                    put(',');
                }
                firstItem = false;
                put('[');
                number(it.depth()).put(',').number(it.start()).put(',').number(it.end()).put(',')
                        .number(it.count()).put(',').number(it.busy()).put(',').number(it.id()).put(',')
                        .number(names.index(it.name())).put(',')
                        .number(categories.index(it.category())).put(',').number(it.matches())
                        .put(']');
            }
            ascii("]}");
        }
        ascii("],\"names\":");
        strings(names.values());
        ascii(",\"categories\":");
        strings(categories.values());
        ascii("}");
        return Arrays.copyOf(buf, size);
    }

    private void strings(List<String> values) {
        ascii("[");
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                put(',');
            }
            byte[] quoted = JsonStringEncoder.getInstance().quoteAsUTF8(values.get(i));
            ensure(quoted.length + 2);
            buf[size++] = '"';
            System.arraycopy(quoted, 0, buf, size, quoted.length);
            size += quoted.length;
            buf[size++] = '"';
        }
        ascii("]");
    }

    private WindowJson ascii(String s) {
        ensure(s.length());
        for (int i = 0; i < s.length(); i++) {
            buf[size++] = (byte) s.charAt(i);
        }
        return this;
    }

    private WindowJson put(char c) {
        ensure(1);
        buf[size++] = (byte) c;
        return this;
    }

    /** "00" to "99": two digits per division. */
    private static final byte[] PAIRS = new byte[200];

    static {
        for (int i = 0; i < 100; i++) {
            PAIRS[2 * i] = (byte) ('0' + i / 10);
            PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
        }
    }

    private WindowJson number(long v) {
        ensure(20);
        if (v == Long.MIN_VALUE) {
            return ascii(Long.toString(v));
        }
        if (v < 0) {
            buf[size++] = '-';
            v = -v;
        }
        int digits = 1;
        for (long p = 10; digits < 19 && v >= p; p *= 10) {
            digits++;
        }
        int at = size + digits;
        while (v >= 100) {
            long q = v / 100;
            int r = (int) (v - q * 100);
            buf[--at] = PAIRS[2 * r + 1];
            buf[--at] = PAIRS[2 * r];
            v = q;
        }
        if (v >= 10) {
            buf[--at] = PAIRS[2 * (int) v + 1];
            buf[--at] = PAIRS[2 * (int) v];
        } else {
            buf[--at] = (byte) ('0' + v);
        }
        size += digits;
        return this;
    }

    private void ensure(int more) {
        if (size + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
        }
    }
}
