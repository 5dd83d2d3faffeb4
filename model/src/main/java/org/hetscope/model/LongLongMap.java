package org.hetscope.model;

import java.util.Arrays;

/**
 * An open-addressing map from long keys to long values, for readers that match correlation ids: ten million ids
 * do not become ten million boxed map entries.
 */
public final class LongLongMap {
    private static final long EMPTY = Long.MIN_VALUE;
    private long[] keys;
    private long[] values;
    private int size;

    public LongLongMap() {
        this(512);
    }

    public LongLongMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[cap];
        values = new long[cap];
        Arrays.fill(keys, EMPTY);
    }

    /** Stores {@code value} for {@code key}; returns false (and keeps the old value) when the key was present. */
    public boolean putIfAbsent(long key, long value) {
        int i = slotFor(key);
        if (keys[i] == key) {
            return false;
        }
        insert(i, key, value);
        return true;
    }

    /** Stores {@code value} for {@code key}, replacing any; returns the value it replaced, or {@code missing}. */
    public long put(long key, long value, long missing) {
        int i = slotFor(key);
        if (keys[i] == key) {
            long old = values[i];
            values[i] = value;
            return old;
        }
        insert(i, key, value);
        return missing;
    }

    /** The slot holding {@code key}, or the empty slot where it goes (the table grown first if it must). */
    private int slotFor(long key) {
        if (key == EMPTY) {
            throw new IllegalArgumentException("reserved key");
        }
        if ((size + 1) * 2L > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        int i = slot(key, mask);
        while (keys[i] != EMPTY && keys[i] != key) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private void insert(int i, long key, long value) {
        keys[i] = key;
        values[i] = value;
        size++;
    }

    /** The value for {@code key}, or {@code missing}. */
    public long get(long key, long missing) {
        int mask = keys.length - 1;
        int i = slot(key, mask);
        while (keys[i] != EMPTY) {
            if (keys[i] == key) {
                return values[i];
            }
            i = (i + 1) & mask;
        }
        return missing;
    }

    public int size() {
        return size;
    }

    private static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
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
