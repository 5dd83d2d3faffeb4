package org.hetscope.analysis.mining.itemsets;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Transactions of items in compact form: every transaction is a sorted, duplicate-free array of item ids, all of
 * them packed into one array with offsets. Built once from any source (a FIMI file, windows over a trace), then
 * read by the miners.
 */
public final class TransactionDatabase {
    private final ItemDictionary dictionary;
    private final int[] offsets;
    private final int[] items;
    private final int size;

    private TransactionDatabase(ItemDictionary dictionary, int[] offsets, int[] items, int size) {
        this.dictionary = dictionary;
        this.offsets = offsets;
        this.items = items;
        this.size = size;
    }

    public static Builder builder() {
        return new Builder(new ItemDictionary());
    }

    /** A builder sharing an existing dictionary (so item ids agree with another database). */
    public static Builder builder(ItemDictionary dictionary) {
        return new Builder(dictionary);
    }

    /** A database of the given transactions, item names as written. */
    public static TransactionDatabase of(List<? extends Collection<String>> transactions) {
        Builder b = builder();
        transactions.forEach(b::add);
        return b.build();
    }

    public ItemDictionary dictionary() {
        return dictionary;
    }

    /** Number of transactions. */
    public int size() {
        return size;
    }

    /** Number of items in transaction {@code t}. */
    public int length(int t) {
        return offsets[t + 1] - offsets[t];
    }

    /** Position of transaction {@code t}'s first item in {@link #packedItems()}. */
    public int start(int t) {
        return offsets[t];
    }

    /** All items of all transactions, back to back; read with {@link #start} and {@link #length}. */
    int[] packedItems() {
        return items;
    }

    /** A copy of transaction {@code t} (sorted item ids). */
    public int[] transaction(int t) {
        return Arrays.copyOfRange(items, offsets[t], offsets[t + 1]);
    }

    /** Item names of transaction {@code t}. */
    public List<String> names(int t) {
        return Arrays.stream(transaction(t)).mapToObj(dictionary::name).toList();
    }

    /** How many transactions hold each item id. */
    public int[] itemCounts() {
        int[] counts = new int[dictionary.size()];
        for (int i = 0; i < offsets[size]; i++) {
            counts[items[i]]++;
        }
        return counts;
    }

    /** Whether transaction {@code t} holds every item of the sorted array {@code itemset}. */
    public boolean contains(int t, int[] itemset) {
        int p = offsets[t];
        int end = offsets[t + 1];
        for (int item : itemset) {
            while (p < end && items[p] < item) {
                p++;
            }
            if (p == end || items[p] != item) {
                return false;
            }
            p++;
        }
        return true;
    }

    /** Number of transactions holding every item of {@code itemset} (counted directly, for checks). */
    public int support(int[] itemset) {
        int[] sorted = itemset.clone();
        Arrays.sort(sorted);
        int n = 0;
        for (int t = 0; t < size; t++) {
            if (contains(t, sorted)) {
                n++;
            }
        }
        return n;
    }

    /** Number of transactions holding every named item; 0 when a name is unknown. */
    public int support(Collection<String> itemset) {
        int[] ids = new int[itemset.size()];
        int i = 0;
        for (String name : itemset) {
            int id = dictionary.find(name);
            if (id < 0) {
                return 0;
            }
            ids[i++] = id;
        }
        return support(ids);
    }

    /** Collects transactions; each may list items in any order and with repeats. */
    public static final class Builder {
        private final ItemDictionary dictionary;
        private int[] offsets = new int[1024];
        private int[] items = new int[4096];
        private int size;
        private int[] scratch = new int[64];

        private Builder(ItemDictionary dictionary) {
            this.dictionary = dictionary;
        }

        public ItemDictionary dictionary() {
            return dictionary;
        }

        public Builder add(Collection<String> transaction) {
            if (scratch.length < transaction.size()) {
                scratch = new int[transaction.size() * 2];
            }
            int n = 0;
            for (String name : transaction) {
                scratch[n++] = dictionary.id(name);
            }
            return addIds(scratch, n);
        }

        /** Adds a transaction of item ids (ids must come from this builder's dictionary). */
        public Builder addIds(int[] ids, int count) {
            int[] sorted = Arrays.copyOf(ids, count);
            Arrays.sort(sorted);
            int n = 0;
            for (int i = 0; i < count; i++) {
                if (n == 0 || sorted[n - 1] != sorted[i]) {
                    sorted[n++] = sorted[i];
                }
            }
            int start = offsets[size];
            if (start + n > items.length) {
                items = Arrays.copyOf(items, Math.max(items.length * 2, start + n));
            }
            System.arraycopy(sorted, 0, items, start, n);
            if (size + 2 > offsets.length) {
                offsets = Arrays.copyOf(offsets, offsets.length * 2);
            }
            size++;
            offsets[size] = start + n;
            return this;
        }

        public int size() {
            return size;
        }

        public TransactionDatabase build() {
            return new TransactionDatabase(dictionary, Arrays.copyOf(offsets, size + 1),
                    Arrays.copyOf(items, offsets[size]), size);
        }
    }
}
