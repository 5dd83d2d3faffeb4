package org.hetscope.analysis.mining.sequences;

import java.util.List;

/**
 * An itemset that recurs at a fixed period: it is in transactions {@code start}, {@code start + period}, ...,
 * {@code length} times in a row (transaction numbers from 1, as t1, t2, ... in the thesis), and the cycle cannot be
 * extended at either end.
 */
public record PeriodicPattern(List<String> items, int start, int period, int length) {
    public PeriodicPattern {
        items = List.copyOf(items);
    }

    @Override
    public String toString() {
        return "{" + String.join(", ", items) + "} from t" + start + " period " + period + " length " + length;
    }
}
