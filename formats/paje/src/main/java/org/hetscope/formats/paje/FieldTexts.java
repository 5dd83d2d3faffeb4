package org.hetscope.formats.paje;

import java.nio.charset.StandardCharsets;

/**
 * Turns the fields of body lines into Strings: shared through a {@link ByteStrings} table for the fields whose
 * texts repeat (containers, types, values), plain new Strings for the fields whose texts are mostly unique
 * (StarPU's JobIds, handles, link keys). Which is which is watched per (event id, field), by windows of texts:
 * a field whose window brought mostly new texts is not shared from then on, since unique texts would only grow
 * the table, and a large table makes every lookup a cache miss. The Strings are equal either way; only their
 * sharing differs.
 */
final class FieldTexts {
    /** Texts per window of a (event id, field). */
    private static final int SAMPLE = 1024;
    private static final int PLAIN = -1;

    private final ByteStrings shared = new ByteStrings();
    /** Per event id and field: texts looked up in the current window (PLAIN once decided against sharing). */
    private int[][] looked = new int[64][];
    /** Per event id and field: of those, how many were new to the table. */
    private int[][] added = new int[64][];

    String get(int id, int field, byte[] buf, int off, int len) {
        if (id >= looked.length) {
            looked = java.util.Arrays.copyOf(looked, Math.max(id + 1, looked.length * 2));
            added = java.util.Arrays.copyOf(added, looked.length);
        }
        int[] l = looked[id];
        if (l == null || field >= l.length) {
            l = looked[id] = l == null ? new int[field + 8] : java.util.Arrays.copyOf(l, field + 8);
            added[id] = added[id] == null ? new int[l.length] : java.util.Arrays.copyOf(added[id], l.length);
        }
        int n = l[field];
        if (n == PLAIN) {
            return new String(buf, off, len, StandardCharsets.UTF_8);
        }
        int before = shared.size();
        String s = shared.get(buf, off, len);
        int[] a = added[id];
        a[field] += shared.size() - before;
        if (n + 1 < SAMPLE) {
            l[field] = n + 1;
        } else {
            l[field] = a[field] * 2 > SAMPLE ? PLAIN : 0;
            a[field] = 0;
        }
        return s;
    }
}
