package org.hetscope.analysis.mining.itemsets;

/**
 * The itemset at the current node of a depth-first search, as ranks on a stack with a membership table, and the
 * reporting of it (ranks turned back into item ids).
 */
final class CurrentItemset {
    private final int[] itemOfRank;
    private final ItemsetConsumer out;
    private final boolean[] member;
    private final int[] stack;
    private final int[] emitted;
    private int size;
    private long reported;

    CurrentItemset(int[] itemOfRank, ItemsetConsumer out) {
        this.itemOfRank = itemOfRank;
        this.out = out;
        int m = itemOfRank.length;
        this.member = new boolean[m];
        this.stack = new int[m + 1];
        this.emitted = new int[m + 1];
    }

    int size() {
        return size;
    }

    boolean contains(int rank) {
        return member[rank];
    }

    void push(int rank) {
        member[rank] = true;
        stack[size++] = rank;
    }

    /** Pops items until {@code newSize} are left. */
    void truncate(int newSize) {
        while (size > newSize) {
            member[stack[--size]] = false;
        }
    }

    /** Reports the current itemset with {@code support}. */
    void report(int support) {
        reported++;
        for (int i = 0; i < size; i++) {
            emitted[i] = itemOfRank[stack[i]];
        }
        out.accept(emitted, size, support);
    }

    long reported() {
        return reported;
    }
}
