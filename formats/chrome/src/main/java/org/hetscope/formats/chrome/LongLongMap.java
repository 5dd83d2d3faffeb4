package org.hetscope.formats.chrome;

import java.util.Arrays;

/** An open-addressing map from long keys to long values, for correlation ids without boxing. */
final class LongLongMap {
    private static final long EMPTY = Long.MIN_VALUE;
    private long[] keys;
    private long[] values;
    private int size;

    LongLongMap() {
        keys = new long[1024];
        values = new long[1024];
        Arrays.fill(keys, EMPTY);
    }

    private static int mix(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    /** Stores the value; keeps the first value when the key is already there, and returns whether it was new. */
    boolean putIfAbsent(long key, long value) {
        if (key == EMPTY) {
            throw new IllegalArgumentException("reserved key");
        }
        if (size * 2 >= keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (keys[i] != EMPTY) {
            if (keys[i] == key) {
                return false;
            }
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        size++;
        return true;
    }

    /** The value for the key, or {@code missing}. */
    long get(long key, long missing) {
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (keys[i] != EMPTY) {
            if (keys[i] == key) {
                return values[i];
            }
            i = (i + 1) & mask;
        }
        return missing;
    }

    int size() {
        return size;
    }

    private void grow() {
        long[] oldKeys = keys;
        long[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new long[oldKeys.length * 2];
        Arrays.fill(keys, EMPTY);
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY) {
                putIfAbsent(oldKeys[i], oldValues[i]);
            }
        }
    }
}
