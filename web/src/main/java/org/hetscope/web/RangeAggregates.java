package org.hetscope.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * What an area selection (a time range over some tracks) holds beyond per-name totals, each table straight from the
 * standard library (docs/stdlib.md, "Time ranges"): CPU time per thread and per process ({@code hs_thread_time},
 * {@code hs_process_time}), busy time per device ({@code hs_utilisation}), counters over the range
 * ({@code hs_counter_range}) and the call tree of the selected tracks' slices ({@code hs_call_tree}, drawn by the
 * page as a flame graph). Times in and out relative to the trace origin; the library's are absolute.
 */
final class RangeAggregates {
    /** Call paths sent at most; the widest first, so the flame graph loses only the thinnest frames. */
    static final int MAX_PATHS = 5_000;

    private RangeAggregates() {
    }

    static Map<String, Object> of(TraceView view, List<Long> tracks, long t0, long t1) {
        view.checkWindow(t0, t1, 1);
        view.checkTracks(tracks);
        long a = view.origin() + t0;
        long b = view.origin() + t1;
        Store store = view.store();
        String list = "[" + tracks.stream().map(String::valueOf).collect(Collectors.joining(",")) + "]::BIGINT[]";
        Map<String, Object> out = new LinkedHashMap<>();
        synchronized (view) {
            out.put("threads", TraceServer.tableJson("threads", store.query("CPU time per thread", """
                    SELECT process, pid, thread, tid, slices, cpu_ns FROM hs_thread_time(?, ?)
                    ORDER BY cpu_ns DESC, pid, tid LIMIT 500""", a, b)));
            out.put("processes", TraceServer.tableJson("processes", store.query("CPU time per process", """
                    SELECT process, pid, threads, cpu_ns FROM hs_process_time(?, ?) ORDER BY cpu_ns DESC, pid""",
                    a, b)));
            out.put("devices", TraceServer.tableJson("devices", store.query("Busy time per device", """
                    SELECT device, busy_ns, busy_pct, compute_ns, copy_ns, idle_ns FROM hs_utilisation(?, ?)
                    WHERE level = 'device' ORDER BY device_id""", a, b)));
            out.put("counters", TraceServer.tableJson("counters", store.query("Counters over the range", """
                    SELECT counter, unit, samples, min, max, mean, time_mean, value_at_start, track_id
                    FROM hs_counter_range(?, ?) ORDER BY counter, track_id""", a, b)));
            Table tree = tracks.isEmpty() ? null : store.query("Call tree", """
                    SELECT path, depth, name, slices, total_ns, self_ns FROM hs_call_tree(?, ?, %s)
                    ORDER BY total_ns DESC, path LIMIT %d""".formatted(list, MAX_PATHS), a, b);
            out.put("calltree", tree == null ? null : TraceServer.tableJson("calltree", tree));
        }
        return out;
    }
}
