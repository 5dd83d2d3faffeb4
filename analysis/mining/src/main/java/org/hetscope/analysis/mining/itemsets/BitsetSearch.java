package org.hetscope.analysis.mining.itemsets;

/**
 * The continuation of {@link ProjectedSearch} below a dense node (many transactions, few candidate extensions):
 * Eclat on bitsets. Every extension of the current itemset has one bitset over the node's transactions (its
 * universe); an extension's own extensions are the ANDs with its later siblings, counted by popcount, which costs a
 * few machine words per 64 transactions instead of a scan of every item. When an extension holds clearly fewer
 * transactions than the universe, its children's bitsets are compressed to its own transactions (bit extraction,
 * {@link Long#compress}), so deeper levels work on ever smaller words arrays. For closed mining, a later sibling
 * in all of an extension's transactions joins its closure (equal counts), and LCM's prefix-preservation test
 * decides whether the extension is explored at all (see {@link #prefixPreserving}).
 */
final class BitsetSearch {
    /** Words between two checks of whether a count can still reach the threshold. */
    private static final int BLOCK = 64;
    /**
     * Fewest extensions worth compressing for: packing a word costs about ten ANDs of one (bit extraction and
     * shifts against a vectorised AND), which a few extensions' pairwise ANDs do not repay.
     */
    private static final int COMPRESS_FROM = 8;

    /** Transactions of the prefix test read before the survivors are confirmed on bitsets. */
    private static final int FEW = 8;

    private final CurrentItemset set;
    private final PrefixPreservation prefix;
    private final int minCount;
    /** For the search under way: each entry item's bitset over the entry universe, by rank (closed mining). */
    private final long[][] entryBits;
    /** For the search under way: the transaction of each entry universe position (closed mining). */
    private int[] entryTids;

    /** {@code prefix} is the closed miner's test; {@code null} mines all frequent itemsets. */
    BitsetSearch(CurrentItemset set, PrefixPreservation prefix, int minCount, int items) {
        this.set = set;
        this.prefix = prefix;
        this.minCount = minCount;
        this.entryBits = prefix == null ? null : new long[items][];
    }

    /**
     * Mines every extension {@code items[i]} (ranks, ascending) of the current itemset and what lies below it, on
     * the universe of the {@code universe} transactions of the current node (the entry universe).
     *
     * @param tids     the transaction of each universe position (closed mining), or {@code null}
     * @param bits     for each extension, the universe positions of the transactions holding it and the itemset
     * @param supports the number of bits of each
     */
    void search(int universe, int[] tids, int[] items, long[][] bits, int[] supports) {
        if (prefix != null) {
            entryTids = tids;
            for (int i = 0; i < items.length; i++) {
                entryBits[items[i]] = bits[i];
            }
        }
        mine(universe, null, items, bits, supports);
        if (prefix != null) {
            for (int item : items) {
                entryBits[item] = null;
            }
            entryTids = null;
        }
    }

    /**
     * The search below one node: {@code positions} maps this universe to the entry universe ({@code null}: the
     * same).
     */
    private void mine(int universe, int[] positions, int[] items, long[][] bits, int[] supports) {
        int k = items.length;
        for (int i = 0; i < k; i++) {
            int e = items[i];
            long[] own = bits[i];
            int support = supports[i];
            if (prefix != null && !prefixPreserving(e, own, positions)) {
                continue;
            }
            int setBase = set.size();
            set.push(e);
            int[] nextItems = new int[k - i - 1];
            int[] nextSupports = new int[k - i - 1];
            int[] nextFrom = new int[k - i - 1];
            int next = 0;
            int[] ownAfter = k - i > 1 ? blockSuffixCounts(own) : null;
            for (int j = i + 1; j < k; j++) {
                // Most pairs turn out infrequent, so they are only counted; the kept ones are built below.
                int count = andCount(own, bits[j], ownAfter);
                if (prefix != null && count == support) {
                    set.push(items[j]); // in every transaction of the extension: part of its closure
                } else if (count >= minCount) {
                    nextItems[next] = items[j];
                    nextSupports[next] = count;
                    nextFrom[next++] = j;
                }
            }
            set.report(support);
            if (next > 0) {
                long[][] nextBits = new long[next][];
                int[] kept = java.util.Arrays.copyOf(nextItems, next);
                if (next >= COMPRESS_FROM && support <= universe - (universe >>> 2)) {
                    for (int q = 0; q < next; q++) {
                        nextBits[q] = compress(bits[nextFrom[q]], own, support);
                    }
                    mine(support, prefix == null ? null : gather(positions, own, support), kept, nextBits,
                            nextSupports);
                } else {
                    for (int q = 0; q < next; q++) {
                        nextBits[q] = and(own, bits[nextFrom[q]]);
                    }
                    mine(universe, positions, kept, nextBits, nextSupports);
                }
            }
            set.truncate(setBase);
        }
    }

    /**
     * LCM's prefix-preservation test for the extension {@code own} (item {@code e}): no item below {@code e} outside
     * the set may be in all its transactions. The items below {@code e} of its first transactions are intersected
     * (this nearly always empties after a few); the few survivors that were entry items are then confirmed or
     * dropped on their entry bitsets, a cache-friendly walk over the extension's positions, and any others by
     * reading the rest of the transactions.
     */
    private boolean prefixPreserving(int e, long[] own, int[] positions) {
        int read = 0;
        outer:
        for (int w = 0; w < own.length; w++) {
            for (long b = own[w]; b != 0; b &= b - 1) {
                int t = entryTids[entry(positions, (w << 6) + Long.numberOfTrailingZeros(b))];
                if (read++ == 0) {
                    prefix.begin(e, t);
                } else {
                    prefix.narrow(t);
                }
                if (prefix.left() == 0) {
                    return true;
                }
                if (read == FEW) {
                    break outer;
                }
            }
        }
        for (int q = prefix.left() - 1; q >= 0; q--) {
            long[] itemBits = entryBits[prefix.item(q)];
            if (itemBits != null) {
                if (holdsAll(itemBits, own, positions)) {
                    return false;
                }
                prefix.drop(q);
            }
        }
        for (int w = 0; w < own.length && prefix.left() > 0; w++) {
            for (long b = own[w]; b != 0 && prefix.left() > 0; b &= b - 1) {
                prefix.narrow(entryTids[entry(positions, (w << 6) + Long.numberOfTrailingZeros(b))]);
            }
        }
        return prefix.left() == 0;
    }

    private static int entry(int[] positions, int position) {
        return positions == null ? position : positions[position];
    }

    /** Whether {@code itemBits} (entry universe) has every position of {@code own}. */
    private static boolean holdsAll(long[] itemBits, long[] own, int[] positions) {
        if (positions == null) {
            return isSubset(own, itemBits);
        }
        for (int w = 0; w < own.length; w++) {
            for (long b = own[w]; b != 0; b &= b - 1) {
                int p = positions[(w << 6) + Long.numberOfTrailingZeros(b)];
                if ((itemBits[p >>> 6] & (1L << p)) == 0) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean isSubset(long[] a, long[] b) {
        for (int w = 0; w < a.length; w++) {
            if ((a[w] & ~b[w]) != 0) {
                return false;
            }
        }
        return true;
    }

    /** For each block of {@link #BLOCK} words, the number of bits of {@code bits} from that block on. */
    private static int[] blockSuffixCounts(long[] bits) {
        int blocks = (bits.length + BLOCK - 1) / BLOCK;
        int[] after = new int[blocks + 1];
        for (int b = blocks - 1; b >= 0; b--) {
            int count = 0;
            for (int w = b * BLOCK, end = Math.min(bits.length, w + BLOCK); w < end; w++) {
                count += Long.bitCount(bits[w]);
            }
            after[b] = after[b + 1] + count;
        }
        return after;
    }

    /**
     * The number of bits of {@code own AND other}, or some number below {@link #minCount} as soon as the bits of
     * {@code own} left ({@code ownAfter}) cannot lift it to {@code minCount}: most pairs are infrequent, and deep
     * in the search the extensions' supports lie close to the threshold, so this usually stops early.
     */
    private int andCount(long[] own, long[] other, int[] ownAfter) {
        int count = 0;
        for (int b = 0, start = 0; start < own.length; b++, start += BLOCK) {
            for (int w = start, end = Math.min(own.length, start + BLOCK); w < end; w++) {
                count += Long.bitCount(own[w] & other[w]);
            }
            if (count + ownAfter[b + 1] < minCount) {
                return count;
            }
        }
        return count;
    }

    private static long[] and(long[] a, long[] b) {
        long[] out = new long[a.length];
        for (int w = 0; w < a.length; w++) {
            out[w] = a[w] & b[w];
        }
        return out;
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

    /** The entry positions of the positions set in {@code mask} ({@code positions} {@code null}: identity). */
    private static int[] gather(int[] positions, long[] mask, int size) {
        int[] out = new int[size];
        int o = 0;
        for (int w = 0; w < mask.length; w++) {
            for (long b = mask[w]; b != 0; b &= b - 1) {
                out[o++] = entry(positions, (w << 6) + Long.numberOfTrailingZeros(b));
            }
        }
        return out;
    }
}
