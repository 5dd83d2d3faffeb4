package org.hetscope.analysis.mining.itemsets;

/**
 * LCM's prefix-preservation test for closure(set + e): the items below e outside the current set, intersected over
 * the full (ranked) transactions that hold set + e, must be empty. The intersection usually empties after a few
 * transactions, so the test rarely reads many.
 */
final class PrefixPreservation {
    private final RankedDatabase base;
    private final CurrentItemset set;
    private final int[] buffer;
    private int length;

    PrefixPreservation(RankedDatabase base, CurrentItemset set) {
        this.base = base;
        this.set = set;
        this.buffer = new int[base.items()];
    }

    /** The test over the transactions {@code tids} (at least one). */
    boolean holds(int e, int[] tids) {
        start(e, tids[0]);
        for (int k = 1; k < tids.length && length > 0; k++) {
            narrow(tids[k]);
        }
        return length == 0;
    }

    /**
     * The test over the transactions {@code tids[i]} for every bit {@code i} set in {@code bits} (at least one).
     */
    boolean holds(int e, long[] bits, int[] tids) {
        boolean first = true;
        for (int w = 0; w < bits.length; w++) {
            for (long b = bits[w]; b != 0; b &= b - 1) {
                int t = tids[(w << 6) + Long.numberOfTrailingZeros(b)];
                if (first) {
                    start(e, t);
                    first = false;
                } else {
                    narrow(t);
                }
                if (length == 0) {
                    return true;
                }
            }
        }
        return length == 0;
    }

    private void start(int e, int t) {
        int[] offsets = base.offsets;
        int[] ranks = base.ranks;
        length = 0;
        for (int i = offsets[t]; i < offsets[t + 1] && ranks[i] < e; i++) {
            if (!set.contains(ranks[i])) {
                buffer[length++] = ranks[i];
            }
        }
    }

    private void narrow(int t) {
        int[] ranks = base.ranks;
        int i = base.offsets[t];
        int end = base.offsets[t + 1];
        int kept = 0;
        for (int b = 0; b < length; b++) {
            int want = buffer[b];
            while (i < end && ranks[i] < want) {
                i++;
            }
            if (i < end && ranks[i] == want) {
                buffer[kept++] = want;
            }
        }
        length = kept;
    }
}
