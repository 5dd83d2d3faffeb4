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

    /**
     * Closed itemsets at a support raised as little as needed for there to be at most {@code maxPatterns} of them.
     *
     * @param itemsets       the closed itemsets at {@code usedCount}, in report order
     * @param requestedCount the support asked for, as a count of transactions
     * @param usedCount      the support used: the requested one, or the smallest count above it with at most
     *                       {@code maxPatterns} closed itemsets
     */
    public record Bounded(List<Itemset> itemsets, int requestedCount, int usedCount) {
        /** Whether the requested support gave more than the maximum, so that a higher one was used. */
        public boolean raised() {
            return usedCount != requestedCount;
        }
    }

    /** Thrown by a consumer to stop a search that found more itemsets than wanted. */
    private static final class TooMany extends RuntimeException {
        TooMany() {
            super(null, null, false, false);
        }
    }

    /**
     * Closed itemsets with at least {@code min} support, or, when there are more than {@code maxPatterns} of them,
     * those at the smallest higher support that has at most {@code maxPatterns}. Each try stops as soon as it finds
     * one itemset too many, and the support is found by bisection over the counts (the number of closed itemsets
     * only falls as the support rises; at a support of every transaction there is at most one), so a database with
     * millions of closed itemsets costs about log2(transactions) searches of at most {@code maxPatterns} results.
     * {@code maxPatterns <= 0}: no maximum.
     */
    public static Bounded closedAtMost(TransactionDatabase db, MinSupport min, int maxPatterns) {
        int requested = Math.max(1, min.count(db.size()));
        if (maxPatterns <= 0) {
            return new Bounded(mine(db, Kind.CLOSED, min, Algorithm.FAST), requested, requested);
        }
        List<Itemset> atRequested = closedUpTo(db, requested, maxPatterns);
        if (atRequested != null) {
            return new Bounded(atRequested, requested, requested);
        }
        int lo = requested; // too many
        int hi = Math.max(requested + 1, db.size()); // at most one closed itemset: fits
        List<Itemset> atHi = null;
        while (hi - lo > 1) {
            int mid = lo + (hi - lo) / 2;
            List<Itemset> got = closedUpTo(db, mid, maxPatterns);
            if (got == null) {
                lo = mid;
            } else {
                hi = mid;
                atHi = got;
            }
        }
        if (atHi == null) {
            atHi = closedUpTo(db, hi, maxPatterns);
        }
        return new Bounded(atHi, requested, hi);
    }

    /** The closed itemsets with support >= count, or null when there are more than {@code max}. */
    private static List<Itemset> closedUpTo(TransactionDatabase db, int count, int max) {
        List<Itemset> out = new ArrayList<>();
        try {
            Lcm.mine(db, count, (items, size, support) -> {
                if (out.size() == max) {
                    throw new TooMany();
                }
                out.add(named(db.dictionary(), items, size, support));
            });
        } catch (TooMany e) {
            return null;
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
