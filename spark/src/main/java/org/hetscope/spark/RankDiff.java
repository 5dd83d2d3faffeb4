package org.hetscope.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hetscope.store.Table;

/**
 * Two runs compared per rank (issue 29 over datasets): the ranks analysis of each ({@code ranks.sql}), paired by
 * trace name; a rank in one run only has the other's figures empty. Changes are B - A in ns and in % of A.
 */
final class RankDiff {
    static final List<String> FIGURES = List.of("busy_ns", "kernel_ns", "compute_ns", "comm_ns");

    private RankDiff() {
    }

    static Table diff(Table a, Table b) {
        Map<String, Object[][]> pairs = new TreeMap<>();
        for (Object[] r : a.rows()) {
            pairs.computeIfAbsent((String) r[a.column("trace")], k -> new Object[2][])[0] = r;
        }
        for (Object[] r : b.rows()) {
            pairs.computeIfAbsent((String) r[b.column("trace")], k -> new Object[2][])[1] = r;
        }
        List<String> cols = new ArrayList<>(List.of("trace"));
        for (String f : FIGURES) {
            String base = f.substring(0, f.length() - 3);
            cols.addAll(List.of(base + "_a_ns", base + "_b_ns", base + "_change_ns", base + "_change_pct"));
        }
        List<Object[]> rows = new ArrayList<>();
        for (var e : pairs.entrySet()) {
            List<Object> row = new ArrayList<>(List.of(e.getKey()));
            for (String f : FIGURES) {
                Long va = e.getValue()[0] == null ? null : (Long) e.getValue()[0][a.column(f)];
                Long vb = e.getValue()[1] == null ? null : (Long) e.getValue()[1][b.column(f)];
                row.add(va);
                row.add(vb);
                row.add(va == null || vb == null ? null : vb - va);
                row.add(va == null || vb == null || va == 0 ? null : 100.0 * (vb - va) / va);
            }
            rows.add(row.toArray());
        }
        return new Table("Ranks of A and B: busy, kernel, compute and NCCL/RCCL time, change B - A", cols, rows);
    }
}
