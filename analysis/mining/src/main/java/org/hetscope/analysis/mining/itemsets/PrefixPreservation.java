package org.hetscope.analysis.mining.itemsets;

/**
 * LCM's prefix-preservation test for closure(set + e): the items below e outside the current set, intersected over
 * the full (ranked) transactions that hold set + e, must be empty. The intersection usually empties after a few
 * transactions, so the test rarely reads many. Used whole on a list of transactions, or step by step ({@link #begin},
 * {@link #narrow}, {@link #drop}) by a caller that can settle the last candidates another way.
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
        begin(e, tids[0]);
        for (int k = 1; k < tids.length && length > 0; k++) {
            narrow(tids[k]);
        }
        return length == 0;
    }

    /** Starts a test for extension {@code e}: the items below it outside the set that transaction {@code t} holds. */
    void begin(int e, int t) {
        int[] offsets = base.offsets;
        int[] ranks = base.ranks;
        length = 0;
        for (int i = offsets[t]; i < offsets[t + 1] && ranks[i] < e; i++) {
            if (!set.contains(ranks[i])) {
                buffer[length++] = ranks[i];
            }
        }
    }

    /** Items of the test still held by every transaction read. */
    int left() {
        return length;
    }

    /** The {@code k}-th item still held ({@code k < left()}). */
    int item(int k) {
        return buffer[k];
    }

    /** Drops the {@code k}-th item; the items after it move down by one. */
    void drop(int k) {
        System.arraycopy(buffer, k + 1, buffer, k, length - k - 1);
        length--;
    }

    /** Keeps the items that transaction {@code t} holds too. */
    void narrow(int t) {
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
