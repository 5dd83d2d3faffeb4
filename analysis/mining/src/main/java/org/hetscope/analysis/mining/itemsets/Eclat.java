package org.hetscope.analysis.mining.itemsets;

/**
 * All frequent itemsets, depth first in the Eclat manner: each itemset's extensions are counted over the
 * transactions that hold it (kept as a packed projection of their higher items, see {@link ProjectedSearch}), which
 * gives the same supports as Eclat's tid-list intersections with sequential memory access.
 */
public final class Eclat {
    private Eclat() {}

    /** Reports every itemset whose support is at least {@code minCount}; returns how many there were. */
    public static long mine(TransactionDatabase source, int minCount, ItemsetConsumer out) {
        return new ProjectedSearch(source, Math.max(1, minCount), false, out).run();
    }
}
