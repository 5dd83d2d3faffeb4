package org.hetscope.analysis.profiling;

import java.util.List;
import org.hetscope.store.Store;
import org.hetscope.store.Table;

/** The API -> GPU activity arrows of a store as a table, with the rule that produced each (spec §2.4). */
public final class ActivityFlows {
    private final Store store;
    private final long tolerance;

    public ActivityFlows(Store store, long toleranceNs) {
        this.store = store;
        this.tolerance = toleranceNs;
    }

    public List<FlowMatcher.Match> matches() {
        // Every rule links a host call to something: a store without host calls (a GPU-only export) has no
        // arrows, and its possibly millions of activities are not loaded at all.
        if (!ProfileData.hasHostCalls(store)) {
            return List.of();
        }
        ProfileData d = ProfileData.load(store);
        FlowMatcher m = new FlowMatcher(tolerance);
        List<FlowMatcher.Match> out = new java.util.ArrayList<>(m.match(d.calls, d.activities, d.collectiveLaunches));
        out.addAll(m.matchRecords(d.calls, d.deviceSyncs));
        return out;
    }

    /**
     * One row per arrow. The rows are made from the matches when read, not held: a trace of millions of kernels has
     * millions of arrows, and eleven boxed cells per arrow held at once cost several times the matches themselves.
     */
    public Table table() {
        List<FlowMatcher.Match> matches = matches();
        List<Object[]> rows = new java.util.AbstractList<>() {
            @Override
            public Object[] get(int i) {
                FlowMatcher.Match m = matches.get(i);
                return new Object[] {m.call().id(), m.call().name(), m.call().ts(), m.activity().id(),
                    m.activity().name(), m.activity().category(), m.activity().ts(),
                    m.activity().ts() - m.call().ts(), m.activity().correlationId(), m.rule().name(),
                    m.rule().guess()};
            }

            @Override
            public int size() {
                return matches.size();
            }
        };
        return new Table("API -> GPU activity flows", List.of("call_id", "call", "call_ts", "activity_id",
                "activity", "activity_category", "activity_ts", "launch_lag_ns", "correlation_id", "rule", "guess"),
                rows);
    }

    /** Counts per rule: how many arrows are facts and how many are guesses. */
    public Table summary() {
        List<FlowMatcher.Match> ms = matches();
        Table.Builder t = Table.builder("Flow rules", "rule", "flows");
        for (org.hetscope.model.FlowRule r : org.hetscope.model.FlowRule.values()) {
            long n = ms.stream().filter(m -> m.rule() == r).count();
            if (n > 0) {
                t.row(r.name(), n);
            }
        }
        return t.build();
    }
}
