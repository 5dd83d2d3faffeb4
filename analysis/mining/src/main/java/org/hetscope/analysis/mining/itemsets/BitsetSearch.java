package org.hetscope.analysis.mining.itemsets;

/**
 * The continuation of {@link ProjectedSearch} below a dense node (many transactions, few candidate extensions):
 * Eclat on bitsets. Every extension of the current itemset has one bitset over the node's transactions (its
 * universe); an extension's own extensions are the ANDs with its later siblings, counted by popcount, which costs a
 * few machine words per 64 transactions instead of a scan of every item. When an extension holds clearly fewer
 * transactions than the universe, its children's bitsets are compressed to its own transactions (bit extraction,
 * {@link Long#compress}), so deeper levels work on ever smaller words arrays.
 */
final class BitsetSearch {
    private final CurrentItemset set;
    private final PrefixPreservation prefix;
    private final int minCount;

    /** {@code prefix} is the closed miner's test; {@code null} mines all frequent itemsets. */
    BitsetSearch(CurrentItemset set, PrefixPreservation prefix, int minCount) {
        this.set = set;
        this.prefix = prefix;
        this.minCount = minCount;
    }

    /**
     * Mines every extension {@code items[i]} (ranks, ascending) of the current itemset and what lies below it.
     *
     * @param tids     original transaction of each universe position (closed mining), or {@code null}
     * @param bits     for each extension, the universe positions of the transactions holding it and the itemset
     * @param supports the number of bits of each
     */
    void mine(int universe, int[] tids, int[] items, long[][] bits, int[] supports) {
        int k = items.length;
        int words = (universe + 63) >>> 6;
        long[] scratch = new long[words];
        for (int i = 0; i < k; i++) {
            int e = items[i];
            long[] own = bits[i];
            bits[i] = null;
            int support = supports[i];
            if (prefix != null && !prefix.holds(e, own, tids)) {
                continue;
            }
            int setBase = set.size();
            set.push(e);
            int[] nextItems = new int[k - i - 1];
            long[][] nextBits = new long[k - i - 1][];
            int[] nextSupports = new int[k - i - 1];
            int next = 0;
            for (int j = i + 1; j < k; j++) {
                int count = and(own, bits[j], scratch);
                if (prefix != null && count == support) {
                    set.push(items[j]); // in every transaction of the extension: part of its closure
                } else if (count >= minCount) {
                    nextItems[next] = items[j];
                    nextSupports[next] = count;
                    nextBits[next++] = scratch;
                    scratch = new long[words];
                }
            }
            set.report(support);
            if (next > 0) {
                if (support <= universe - (universe >>> 2)) {
                    for (int q = 0; q < next; q++) {
                        nextBits[q] = compress(nextBits[q], own, support);
                    }
                    mine(support, tids == null ? null : gather(tids, own, support),
                            java.util.Arrays.copyOf(nextItems, next), nextBits, nextSupports);
                } else {
                    mine(universe, tids, java.util.Arrays.copyOf(nextItems, next), nextBits, nextSupports);
                }
            }
            set.truncate(setBase);
        }
    }

    /** {@code into = a AND b}; returns its number of bits. */
    private static int and(long[] a, long[] b, long[] into) {
        int count = 0;
        for (int w = 0; w < a.length; w++) {
            long x = a[w] & b[w];
            into[w] = x;
            count += Long.bitCount(x);
        }
        return count;
    }

    /** The bits of {@code bits} at the positions set in {@code mask}, packed into a universe of {@code size}. */
    static long[] compress(long[] bits, long[] mask, int size) {
        long[] out = new long[(size + 63) >>> 6];
        long acc = 0;
        int fill = 0;
        int o = 0;
        for (int w = 0; w < mask.length; w++) {
            long m = mask[w];
            if (m == 0) {
                continue;
            }
            long v = Long.compress(bits[w], m);
            int n = Long.bitCount(m);
            acc |= v << fill;
            if (fill + n >= 64) {
                out[o++] = acc;
                acc = fill == 0 ? 0 : v >>> (64 - fill);
                fill = fill + n - 64;
            } else {
                fill += n;
            }
        }
        if (fill > 0) {
            out[o] = acc;
        }
        return out;
    }

    /** The entries of {@code tids} at the positions set in {@code mask}, in order. */
    private static int[] gather(int[] tids, long[] mask, int size) {
        int[] out = new int[size];
        int o = 0;
        for (int w = 0; w < mask.length; w++) {
            for (long b = mask[w]; b != 0; b &= b - 1) {
                out[o++] = tids[(w << 6) + Long.numberOfTrailingZeros(b)];
            }
        }
        return out;
    }
}
