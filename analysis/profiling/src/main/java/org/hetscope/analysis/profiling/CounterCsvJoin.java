package org.hetscope.analysis.profiling;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.formats.rocprof.RocprofCsv;
import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * Joins a rocprof v1/v2 {@code results.csv} to the kernels of a store of the same run: by time when the CSV has
 * timestamps (the kernel of the same name whose interval contains the dispatch's midpoint), otherwise by order
 * (the k-th dispatch of a kernel name is the k-th kernel of that name in time order).
 */
public final class CounterCsvJoin {
    /** One dispatch and the kernel slice it was joined to ({@code sliceId} null when none matched). */
    public record Joined(RocprofCsv.Dispatch dispatch, Long sliceId, String rule) {}

    private CounterCsvJoin() {
    }

    public static List<Joined> join(Store store, List<RocprofCsv.Dispatch> dispatches) {
        Map<String, List<long[]>> kernels = new LinkedHashMap<>(); // name -> {id, ts, end}
        for (Object[] r : store.query("SELECT s.id, s.name, s.ts, s.ts + s.dur FROM slice s "
                + "WHERE s.category = 'kernel' ORDER BY s.ts, s.id").rows()) {
            kernels.computeIfAbsent(RocprofCsv.baseName((String) r[1]), k -> new ArrayList<>())
                    .add(new long[] {(Long) r[0], (Long) r[2], (Long) r[3]});
        }
        Map<String, Deque<long[]>> inOrder = new LinkedHashMap<>();
        kernels.forEach((k, v) -> inOrder.put(k, new ArrayDeque<>(v)));
        List<Joined> out = new ArrayList<>();
        for (RocprofCsv.Dispatch d : dispatches) {
            String name = RocprofCsv.baseName(d.kernelName());
            List<long[]> candidates = kernels.getOrDefault(name, List.of());
            Long slice = null;
            String rule = null;
            if (d.begin() != null && d.end() != null) {
                long mid = d.begin() + (d.end() - d.begin()) / 2;
                for (long[] k : candidates) {
                    if (k[1] <= mid && mid < k[2]) {
                        slice = k[0];
                        rule = "time";
                        break;
                    }
                }
            }
            if (slice == null) {
                Deque<long[]> q = inOrder.get(name);
                if (q != null && !q.isEmpty()) {
                    slice = q.pollFirst()[0];
                    rule = "order";
                }
            } else {
                Deque<long[]> q = inOrder.get(name);
                long s = slice;
                if (q != null) {
                    q.removeIf(k -> k[0] == s);
                }
            }
            out.add(new Joined(d, slice, rule));
        }
        return out;
    }

    /** The joined dispatches with their counters, as one wide table. */
    public static Table table(List<Joined> joined) {
        List<String> counters = new ArrayList<>();
        for (Joined j : joined) {
            for (String c : j.dispatch().counters().keySet()) {
                if (!counters.contains(c)) {
                    counters.add(c);
                }
            }
        }
        List<String> cols = new ArrayList<>(List.of("index", "kernel", "slice_id", "rule"));
        cols.addAll(counters);
        List<Object[]> rows = new ArrayList<>();
        for (Joined j : joined) {
            Object[] row = new Object[cols.size()];
            row[0] = j.dispatch().index();
            row[1] = RocprofCsv.baseName(j.dispatch().kernelName());
            row[2] = j.sliceId();
            row[3] = j.rule();
            for (int i = 0; i < counters.size(); i++) {
                row[4 + i] = j.dispatch().counters().get(counters.get(i));
            }
            rows.add(row);
        }
        return new Table("rocprof counters joined to the trace", cols, rows);
    }
}
