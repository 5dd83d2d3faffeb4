package org.hetscope.formats.chrome;

import java.util.Arrays;

/** An append-only list of longs without boxing. */
final class GrowableLongs {
    private long[] values = new long[256];
    private int size;

    void add(long v) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = v;
    }

    int size() {
        return size;
    }

    long get(int i) {
        return values[i];
    }

    long[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
