package org.hetscope.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.analysis.gpu.diff.TraceDiff;
import org.hetscope.store.Table;

/**
 * Two of the server's traces compared (issue 29's web part): {@code hetscope diff A B}'s three tables (TraceDiff
 * with the CLI's default significance level, rows unchanged) and what the page needs to show both timelines side by
 * side on one time axis aligned on the first iteration: each trace's alignment point and the tracks to draw.
 */
final class DiffView {
    /** The CLI's default --alpha. */
    static final double ALPHA = 0.05;
    /** Tracks of each trace drawn side by side. */
    static final int MAX_TRACKS = 12;

    private DiffView() {
    }

    static Map<String, Object> of(TraceView a, TraceView b) {
        Map<String, Object> m = new LinkedHashMap<>();
        TraceDiff diff = new TraceDiff(a.store(), b.store(), ALPHA);
        m.put("operations", TraceServer.tableJson("operations", diff.operations()));
        m.put("iterations", TraceServer.tableJson("iterations", diff.iterations()));
        m.put("utilisation", TraceServer.tableJson("utilisation", diff.utilisation()));
        m.put("a", side(a));
        m.put("b", side(b));
        return m;
    }

    /**
     * Where a trace's first iteration (the earliest ProfilerStep#N on the host, from the library's hs_iterations)
     * starts, in ns from its origin (0 and {@code aligned_on: "trace start"} when it marks none), and its tracks
     * to draw: those holding the iteration marks, then the device units (streams, queues, workers).
     */
    static Map<String, Object> side(TraceView t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", t.name());
        m.put("span", t.span());
        Table first = t.store().query(null, "SELECT iteration, ts FROM hs_iterations ORDER BY ts, iteration LIMIT 1");
        if (first.size() > 0) {
            m.put("align_ns", (Long) first.get(0, "ts") - t.origin());
            m.put("aligned_on", "ProfilerStep#" + first.get(0, "iteration"));
        } else {
            m.put("align_ns", 0L);
            m.put("aligned_on", "trace start");
        }
        List<Long> tracks = new ArrayList<>();
        for (Object[] r : t.store().query(null, """
                SELECT track_id FROM (
                  SELECT s.track_id, 0 AS kind_order, min(t.sort_index) AS o FROM slice s JOIN track t ON t.id = s.track_id
                  WHERE regexp_matches(s.name, '^ProfilerStep#[0-9]+$') GROUP BY s.track_id
                  UNION ALL
                  SELECT u.unit_track_id, 1, min(u.sort_index) FROM hs_device_unit u GROUP BY u.unit_track_id)
                GROUP BY track_id ORDER BY min(kind_order), min(o), track_id LIMIT ?""", MAX_TRACKS).rows()) {
            tracks.add((Long) r[0]);
        }
        m.put("tracks", tracks);
        return m;
    }
}
