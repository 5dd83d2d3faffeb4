package org.hetscope.analysis.mining.itemsets;

/** Receives mined itemsets as they are found; {@code items} is only valid during the call (copy it to keep it). */
@FunctionalInterface
public interface ItemsetConsumer {
    /**
     * @param items   item ids of the itemset, {@code items[0..size)}, in no particular order
     * @param size    number of items
     * @param support number of transactions holding all of them
     */
    void accept(int[] items, int size, int support);
}
