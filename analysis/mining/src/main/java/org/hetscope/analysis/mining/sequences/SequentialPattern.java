package org.hetscope.analysis.mining.sequences;

import java.util.Comparator;
import java.util.List;

/** A frequent subsequence and the number of sequences holding it. */
public record SequentialPattern(List<String> events, int support) {
    /** Support descending, length descending, then the events in order. */
    public static final Comparator<SequentialPattern> REPORT_ORDER =
            Comparator.comparingInt(SequentialPattern::support).reversed()
                    .thenComparing(Comparator.comparingInt((SequentialPattern p) -> p.events.size()).reversed())
                    .thenComparing(p -> String.join("\u0000", p.events));

    public SequentialPattern {
        events = List.copyOf(events);
    }

    @Override
    public String toString() {
        return "<" + String.join(", ", events) + "> (" + support + ")";
    }
}
