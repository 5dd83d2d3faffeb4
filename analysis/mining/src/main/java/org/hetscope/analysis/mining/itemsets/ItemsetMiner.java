package org.hetscope.analysis.mining.itemsets;

import java.util.ArrayList;
import java.util.List;

/** Entry points that mine a database and return itemsets by name, in report order. */
public final class ItemsetMiner {
    /** Which itemsets to report. */
    public enum Kind { FREQUENT, CLOSED }

    /** Which algorithm mines them ({@code APRIORI} is the slow reference, for checks). */
    public enum Algorithm { FAST, APRIORI }

    private ItemsetMiner() {}

    public static List<Itemset> frequent(TransactionDatabase db, MinSupport min) {
        return mine(db, Kind.FREQUENT, min, Algorithm.FAST);
    }

    public static List<Itemset> closed(TransactionDatabase db, MinSupport min) {
        return mine(db, Kind.CLOSED, min, Algorithm.FAST);
    }

    public static List<Itemset> mine(TransactionDatabase db, Kind kind, MinSupport min, Algorithm algorithm) {
        int count = min.count(db.size());
        List<Itemset> out = new ArrayList<>();
        ItemsetConsumer collect = (items, size, support) -> out.add(named(db.dictionary(), items, size, support));
        if (algorithm == Algorithm.APRIORI) {
            Apriori.mine(db, count, kind == Kind.CLOSED, collect);
        } else if (kind == Kind.CLOSED) {
            Lcm.mine(db, count, collect);
        } else {
            Eclat.mine(db, count, collect);
        }
        out.sort(Itemset.REPORT_ORDER);
        return out;
    }

    static Itemset named(ItemDictionary dictionary, int[] items, int size, int support) {
        List<String> names = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            names.add(dictionary.name(items[i]));
        }
        names.sort(null);
        return new Itemset(names, support);
    }
}
