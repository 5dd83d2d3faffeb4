package org.hetscope.analysis.mining.itemsets;

/**
 * Closed frequent itemsets by LCM (Uno, Kiyomi, Arimura): depth-first prefix-preserving closure extension, so every
 * closed itemset is reached exactly once and no result needs to be remembered. For a closed set P and an item e
 * above its core, Q = closure(P + e) is taken only when Q adds no item below e (checked by intersecting the items
 * below e over Q's transactions, which mostly stops after a few); the items above e present in all of Q's
 * transactions complete the closure. The search itself is {@link ProjectedSearch}.
 */
public final class Lcm {
    private Lcm() {}

    /** Reports every closed itemset whose support is at least {@code minCount}; returns how many there were. */
    public static long mine(TransactionDatabase source, int minCount, ItemsetConsumer out) {
        return new ProjectedSearch(source, Math.max(1, minCount), true, out).run();
    }
}
