package org.hetscope.formats.paje;

import java.nio.charset.StandardCharsets;

/**
 * Turns byte ranges of the input into Strings, giving the same String for the same bytes, so that the millions of
 * repeated container aliases, type aliases and values of a trace cost one object each. Stops remembering new
 * texts past a bound so that traces full of unique values do not fill memory.
 */
final class ByteStrings {
    private static final int MAX_ENTRIES = 1 << 20;
    private byte[][] keys = new byte[1 << 12][];
    private String[] values = new String[1 << 12];
    private int[] hashes = new int[1 << 12];
    private int size;

    String get(byte[] buf, int off, int len) {
        int h = hash(buf, off, len);
        int mask = keys.length - 1;
        int i = h & mask;
        while (true) {
            byte[] k = keys[i];
            if (k == null) {
                String s = new String(buf, off, len, StandardCharsets.UTF_8);
                if (size < MAX_ENTRIES) {
                    keys[i] = java.util.Arrays.copyOfRange(buf, off, off + len);
                    values[i] = s;
                    hashes[i] = h;
                    if (++size * 2 > keys.length) {
                        grow();
                    }
                }
                return s;
            }
            if (hashes[i] == h && k.length == len && same(k, buf, off, len)) {
                return values[i];
            }
            i = (i + 1) & mask;
        }
    }

    /** Plain loop: the fields are short, where the vectorised Arrays.equals costs more than it saves. */
    private static boolean same(byte[] k, byte[] buf, int off, int len) {
        if (len > 32) {
            return java.util.Arrays.equals(k, 0, len, buf, off, off + len);
        }
        for (int j = 0; j < len; j++) {
            if (k[j] != buf[off + j]) {
                return false;
            }
        }
        return true;
    }

    private static int hash(byte[] buf, int off, int len) {
        int h = 0x811c9dc5;
        for (int i = off; i < off + len; i++) {
            h = (h ^ buf[i]) * 0x01000193;
        }
        return h ^ (h >>> 16);
    }

    private void grow() {
        byte[][] oldKeys = keys;
        String[] oldValues = values;
        int[] oldHashes = hashes;
        keys = new byte[oldKeys.length * 2][];
        values = new String[oldKeys.length * 2];
        hashes = new int[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            byte[] k = oldKeys[j];
            if (k != null) {
                int i = oldHashes[j] & mask;
                while (keys[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = k;
                values[i] = oldValues[j];
                hashes[i] = oldHashes[j];
            }
        }
    }
}
