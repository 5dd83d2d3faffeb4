package org.hetscope.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.analysis.profiling.Advisor;
import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * {@code hetscope advise}'s findings (the same {@link Advisor} rows, text unchanged) with where their evidence lies
 * on the timeline: the slices each rule speaks of (a kernel's dispatches, a device's copies, pageable copies, ...)
 * and the window to show. For an idle device the window is its longest idle gap, the evidence itself. Which slices
 * a rule speaks of is read from the rule's own definition in Advisor; the figures stay Advisor's.
 */
final class AdviceEvidence {
    /** Slice ids sent per finding (the count says how many there are). */
    static final int MAX_IDS = 200;

    private AdviceEvidence() {
    }

    static List<Map<String, Object>> of(TraceView view) {
        Store s = view.store();
        List<Map<String, Object>> out = new ArrayList<>();
        for (Advisor.Advice a : new Advisor(s).run()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("rule", a.rule());
            m.put("severity", a.severity());
            m.put("subject", a.subject());
            m.put("advice", a.advice());
            m.put("evidence", a.evidence());
            String where = slicesOf(s, a);
            Object[] params = params(s, a);
            if (where != null) {
                Table ids = s.query(null, "SELECT s.id, s.ts, s.ts + s.dur FROM slice s WHERE " + where
                        + " ORDER BY s.dur DESC, s.id LIMIT " + MAX_IDS, params);
                Table span = s.query(null, "SELECT count(*), min(s.ts), max(s.ts + s.dur) FROM slice s WHERE " + where,
                        params);
                List<Long> list = new ArrayList<>();
                for (Object[] r : ids.rows()) {
                    list.add((Long) r[0]);
                }
                Object[] sp = span.rows().get(0);
                m.put("slices", list);
                m.put("slice_count", sp[0]);
                if (sp[1] != null) {
                    m.put("window", List.of((Long) sp[1] - view.origin(), (Long) sp[2] - view.origin()));
                }
            } else {
                m.put("slices", List.of());
                m.put("slice_count", 0L);
            }
            if (a.rule().equals("gpu-idle")) {
                long[] gap = longestGap(s, deviceId(s, a.subject()));
                if (gap != null) {
                    m.put("window", List.of(gap[0] - view.origin(), gap[1] - view.origin()));
                    m.put("window_is", "the longest idle gap");
                }
            }
            out.add(m);
        }
        return out;
    }

    /** The SQL condition on {@code slice s} of the slices a finding speaks of, or null when it names none. */
    private static String slicesOf(Store s, Advisor.Advice a) {
        return switch (a.rule()) {
            case "workgroup-size" -> "s.category = 'kernel' AND s.name = ?";
            case "low-valu-utilisation" -> "s.name = ? AND s.id IN (SELECT slice_id FROM kernel_counter "
                    + "WHERE lower(name) = 'valuutilization' AND value < " + Advisor.LOW_VALU_PERCENT + ")";
            case "warp-size-unknown" -> "s.id IN (SELECT k.slice_id FROM kernel k WHERE k.device_id = ?)";
            case "gpu-idle", "serialized-streams" -> "s.id IN (SELECT slice_id FROM hs_device_activity "
                    + "WHERE device_id = ?)";
            case "transfer-bound" -> "s.id IN (SELECT slice_id FROM hs_device_activity WHERE device_id = ? "
                    + "AND class = 'copy')";
            case "launch-bound" -> "s.category = 'kernel'";
            case "pageable-memory" -> "s.category = 'memcpy' AND s.args LIKE '%Pageable%'";
            case "profiler-serialised" -> "s.id IN (SELECT slice_id FROM kernel_counter)";
            // Advisor's test of a host call (ProfileData: a profiled category on a track that is not a stream,
            // queue or device) that allocates, frees or copies synchronously.
            case "runtime-bound-host" -> "s.category IN ('api', 'sync', 'kernel', 'memcpy', 'memset') AND "
                    + "s.track_id IN (SELECT id FROM track WHERE coalesce(kind, '') NOT IN ('stream', 'queue', "
                    + "'device')) AND (lower(s.name) LIKE '%malloc%' OR lower(s.name) LIKE '%free%' OR "
                    + "(lower(s.name) LIKE '%memcpy%' AND lower(s.name) NOT LIKE '%async%'))";
            default -> null;
        };
    }

    private static Object[] params(Store s, Advisor.Advice a) {
        return switch (a.rule()) {
            case "workgroup-size", "low-valu-utilisation" -> new Object[] {a.subject()};
            case "warp-size-unknown", "gpu-idle", "serialized-streams", "transfer-bound" ->
                    new Object[] {deviceId(s, a.subject())};
            default -> new Object[0];
        };
    }

    /** The store's device id of a device label as the library names devices (hs_device.device). */
    private static Long deviceId(Store s, String label) {
        return s.scalarLong("SELECT min(device_id) FROM hs_device WHERE device = ?", label);
    }

    /** [end of the activity before, start of the next] of the device's longest idle gap, or null. */
    private static long[] longestGap(Store s, Long device) {
        if (device == null) {
            return null;
        }
        Table t = s.query(null, """
                SELECT prev_end, ts FROM (
                  SELECT ts, max(end_ts) OVER (ORDER BY ts, end_ts ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
                         AS prev_end
                  FROM hs_device_activity WHERE device_id = ?)
                WHERE prev_end < ts ORDER BY ts - prev_end DESC, ts LIMIT 1""", device);
        return t.size() == 0 ? null : new long[] {(Long) t.rows().get(0)[0], (Long) t.rows().get(0)[1]};
    }
}
