package org.hetscope.analysis.mining.contention;

import java.util.Comparator;
import java.util.List;
import org.hetscope.analysis.mining.itemsets.Itemset;

/**
 * A closed pattern found by a contention method: its items (unfolded), the windows that hold it ({@code support}),
 * the trace time those windows cover, and for method I the windows whose utilisation exceeds the bound and the
 * largest utilisation seen (NaN for method II).
 */
public record ContentionPattern(Itemset itemset, int support, int windows, long timeCovered,
                                int contendedWindows, double maxUtilisation) {
    public static final Comparator<ContentionPattern> BY_SUPPORT =
            Comparator.comparing(ContentionPattern::itemset, Itemset.REPORT_ORDER);
    public static final Comparator<ContentionPattern> BY_TIME =
            Comparator.comparingLong(ContentionPattern::timeCovered).reversed().thenComparing(BY_SUPPORT);

    /** Support as a share of all windows. */
    public double ratio() {
        return windows == 0 ? 0 : (double) support / windows;
    }

    public List<String> items() {
        return itemset.items();
    }
}
