package org.hetscope.analysis.mining.itemsets;

import java.util.Comparator;
import java.util.List;

/** A mined itemset: its item names in lexicographic order and its absolute support (transaction count). */
public record Itemset(List<String> items, int support) {
    /**
     * The report order of spec section 3: support descending, size descending, then lexicographic order of the
     * sorted items.
     */
    public static final Comparator<Itemset> REPORT_ORDER = Comparator.comparingInt(Itemset::support).reversed()
            .thenComparing(Comparator.comparingInt((Itemset s) -> s.items.size()).reversed())
            .thenComparing(Itemset::items, Itemset::compareLists);

    public Itemset {
        items = List.copyOf(items);
    }

    /** Support as a share of {@code transactions}, in [0, 1]. */
    public double ratio(int transactions) {
        return transactions == 0 ? 0 : (double) support / transactions;
    }

    static int compareLists(List<String> a, List<String> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    @Override
    public String toString() {
        return String.join(" ", items) + " (" + support + ")";
    }
}
