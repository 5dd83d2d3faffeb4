package org.hetscope.formats.paje;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Turns byte ranges of the input into Strings, giving the same String for the same bytes, so that the millions of
 * repeated container aliases, type aliases and values of a trace cost one object each. The reader keeps one table
 * per field of each event definition: a field's few distinct texts then stay in a small table that lives in the
 * processor's cache, instead of sharing one large table with the fields whose every value is new (StarPU's job
 * ids, sizes and link keys). Each entry can carry what the reader resolved the text to (a type, a container), so
 * that a repeated text is resolved once.
 *
 * <p>A table whose texts are mostly new stops looking once it has {@value #SETTLE_ENTRIES} of them and from then
 * on only builds Strings; all the tables of one reader share an {@link Allowance} of {@value #MAX_ENTRIES} texts
 * (divided among its decoding threads), so that traces full of distinct values do not fill memory.
 */
final class ByteStrings {
    static final int MAX_ENTRIES = 1 << 20;
    static final int SETTLE_ENTRIES = 1 << 14;

    /** How many more texts the tables sharing it may remember. */
    static final class Allowance {
        int entries;

        Allowance() {
            this(MAX_ENTRIES);
        }

        Allowance(int entries) {
            this.entries = entries;
        }
    }

    private final Allowance allowance;
    // Open addressing over parallel arrays: the first 8 bytes of a text packed into a long (zero padded) are
    // compared without touching the heap; only longer texts keep their other bytes in an array.
    private long[] words = new long[16];
    private byte[][] tails = new byte[16][];
    /** Length + 1 of each entry's text; 0 marks a free slot. */
    private int[] lengths = new int[16];
    private int[] hashes = new int[16];
    private String[] values = new String[16];
    private Object[] meanings = new Object[16];
    private int size;
    private long lookups;
    private long misses;
    private boolean forgetting;
    private String unremembered;

    ByteStrings(Allowance allowance) {
        this.allowance = allowance;
    }

    /** A table with an allowance of its own. */
    ByteStrings() {
        this(new Allowance());
    }

    /** The String for these bytes (shared when the table remembers them). */
    String get(byte[] buf, int off, int len) {
        return string(slot(buf, off, len));
    }

    /**
     * The entry for these bytes, added if new; -1 when the table does not remember them (then {@link #string}
     * of -1 is their String). A slot stays valid until the next call of this method.
     */
    int slot(byte[] buf, int off, int len) {
        if (forgetting) {
            unremembered = new String(buf, off, len, StandardCharsets.UTF_8);
            return -1;
        }
        lookups++;
        long word = word(buf, off, len);
        int h = hash(word, buf, off, len);
        int mask = words.length - 1;
        int i = h & mask;
        while (true) {
            int l = lengths[i];
            if (l == 0) {
                break;
            }
            if (hashes[i] == h && l == len + 1 && words[i] == word
                    && (len <= 8 || Arrays.equals(tails[i], 0, len - 8, buf, off + 8, off + len))) {
                return i;
            }
            i = (i + 1) & mask;
        }
        misses++;
        String s = new String(buf, off, len, StandardCharsets.UTF_8);
        if (size >= SETTLE_ENTRIES && misses * 2 > lookups) {
            forget();
        }
        if (forgetting || allowance.entries <= 0) {
            unremembered = s;
            return -1;
        }
        allowance.entries--;
        words[i] = word;
        tails[i] = len > 8 ? Arrays.copyOfRange(buf, off + 8, off + len) : null;
        lengths[i] = len + 1;
        hashes[i] = h;
        values[i] = s;
        if (++size * 2 > words.length) {
            grow();
            return slotOf(h, s);
        }
        return i;
    }

    /** The String of an entry; of slot -1, the String of the last {@link #slot} call, which returned -1. */
    String string(int slot) {
        return slot >= 0 ? values[slot] : unremembered;
    }

    /** What the caller resolved this entry's text to, or null. */
    Object meaning(int slot) {
        return meanings[slot];
    }

    void mean(int slot, Object meaning) {
        meanings[slot] = meaning;
    }

    /** Most of the texts were new: stop remembering, and let the entries go. */
    private void forget() {
        forgetting = true;
        allowance.entries += size;
        words = null;
        tails = null;
        lengths = null;
        hashes = null;
        values = null;
        meanings = null;
    }

    private static long word(byte[] buf, int off, int len) {
        int n = Math.min(len, 8);
        if (buf.length >= 8) {
            // Near the end of the buffer the 8 bytes are read from further back and shifted into place: one path
            // for every text, so that a text at the very end does not make the JIT recompile its callers.
            int at = Math.min(off, buf.length - 8);
            long w = ByteWords.at(buf, at) >>> ((off - at) << 3);
            return n == 8 ? w : w & ((1L << (n << 3)) - 1);
        }
        long w = 0;
        for (int k = n - 1; k >= 0; k--) {
            w = (w << 8) | (buf[off + k] & 0xff);
        }
        return w;
    }

    private static int hash(long word, byte[] buf, int off, int len) {
        long h = (word ^ len) * 0x9E3779B97F4A7C15L;
        for (int k = 8; k < len; k += 8) {
            h = (h ^ word(buf, off + k, len - k)) * 0x9E3779B97F4A7C15L;
        }
        return (int) (h >>> 32) ^ (int) h;
    }

    /** Where the String just added went when the table grew. */
    private int slotOf(int h, String s) {
        int mask = words.length - 1;
        int i = h & mask;
        while (values[i] != s) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private void grow() {
        long[] oldWords = words;
        byte[][] oldTails = tails;
        int[] oldLengths = lengths;
        int[] oldHashes = hashes;
        String[] oldValues = values;
        Object[] oldMeanings = meanings;
        int cap = oldWords.length * 2;
        words = new long[cap];
        tails = new byte[cap][];
        lengths = new int[cap];
        hashes = new int[cap];
        values = new String[cap];
        meanings = new Object[cap];
        int mask = cap - 1;
        for (int j = 0; j < oldWords.length; j++) {
            if (oldLengths[j] != 0) {
                int i = oldHashes[j] & mask;
                while (lengths[i] != 0) {
                    i = (i + 1) & mask;
                }
                words[i] = oldWords[j];
                tails[i] = oldTails[j];
                lengths[i] = oldLengths[j];
                hashes[i] = oldHashes[j];
                values[i] = oldValues[j];
                meanings[i] = oldMeanings[j];
            }
        }
    }
}
