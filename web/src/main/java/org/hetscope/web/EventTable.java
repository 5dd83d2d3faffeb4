package org.hetscope.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * The event table under the timeline (Trace Compass's events view): the slices overlapping a window, optionally of
 * some tracks, filtered by text in name, category or arguments, sorted by a column, one page at a time, so that a
 * window of millions of slices costs one sorted page (DuckDB's top-N) and a count. A slice id to find gives the page
 * holding it in that order, so selecting a slice on the timeline scrolls the table to its row.
 */
final class EventTable {
    static final int MAX_LIMIT = 1000;
    static final int MAX_TEXT = 500;
    /** The sortable columns and the expression each sorts by. */
    private static final Map<String, String> SORTS = Map.of("ts", "ts", "dur", "dur", "name", "name",
            "category", "category", "track", "track_id", "id", "id");

    /** What the page asks for; times relative to the trace origin, tracks empty for every track. */
    record Query(long t0, long t1, List<Long> tracks, String name, String category, String args, String sort,
                 boolean descending, long offset, int limit, Long find) {
    }

    private EventTable() {
    }

    static Map<String, Object> page(TraceView view, Query q) {
        if (!SORTS.containsKey(q.sort())) {
            throw new BadQueryException("sort must be one of " + SORTS.keySet().stream().sorted().toList());
        }
        if (q.limit() < 1 || q.limit() > MAX_LIMIT) {
            throw new BadQueryException("limit=" + q.limit() + " outside 1.." + MAX_LIMIT);
        }
        if (q.offset() < 0) {
            throw new BadQueryException("offset must not be negative");
        }
        for (String text : new String[] {q.name(), q.category(), q.args()}) {
            if (text != null && text.length() > MAX_TEXT) {
                throw new BadQueryException("filter text longer than " + MAX_TEXT + " characters");
            }
        }
        List<Object> params = new ArrayList<>();
        StringBuilder where = new StringBuilder("ts < ? AND ts + dur >= ?");
        params.add(view.origin() + q.t1());
        params.add(view.origin() + q.t0());
        if (!q.tracks().isEmpty()) {
            where.append(" AND track_id IN (")
                    .append(q.tracks().stream().map(String::valueOf).collect(Collectors.joining(","))).append(')');
        }
        filter(where, params, "name", q.name());
        filter(where, params, "category", q.category());
        filter(where, params, "coalesce(args, '')", q.args());
        String order = SORTS.get(q.sort()) + (q.descending() ? " DESC" : " ASC") + ", id ASC";
        Store store = view.store();
        Object[] p = params.toArray();
        long total;
        long offset = q.offset();
        Long found = null;
        Table rows;
        synchronized (view) {
            total = (Long) store.query(null, "SELECT count(*) FROM slice WHERE " + where, p).rows().get(0)[0];
            if (q.find() != null) {
                Object[] fp = new Object[p.length + 1];
                System.arraycopy(p, 0, fp, 0, p.length);
                fp[p.length] = q.find();
                Table pos = store.query(null, "SELECT pos FROM (SELECT id, row_number() OVER (ORDER BY " + order
                        + ") - 1 AS pos FROM slice WHERE " + where + ") WHERE id = ?", fp);
                if (pos.size() > 0) {
                    found = (Long) pos.rows().get(0)[0];
                    offset = found / q.limit() * q.limit();
                }
            }
            Object[] pp = new Object[p.length + 2];
            System.arraycopy(p, 0, pp, 0, p.length);
            pp[p.length] = (long) q.limit();
            pp[p.length + 1] = offset;
            rows = store.query(null, "SELECT id, ts - " + view.origin() + " AS ts, dur, name, category, track_id, "
                    + "args FROM slice WHERE " + where + " ORDER BY " + order + " LIMIT ? OFFSET ?", pp);
        }
        List<Object[]> out = new ArrayList<>();
        for (Object[] r : rows.rows()) {
            TraceView.TrackInfo t = view.track((Long) r[5]);
            out.add(new Object[] {r[0], r[1], r[2], r[3], r[4], r[5], t == null ? null : t.name(), r[6]});
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("total", total);
        m.put("offset", offset);
        m.put("found", found);
        m.put("columns", List.of("id", "ts", "dur_ns", "name", "category", "track_id", "track", "args"));
        m.put("rows", out);
        return m;
    }

    /**
     * The next (or previous) slice whose name contains {@code text}, in (start, id) order after (before) the point
     * (ts relative to the origin, id), wrapping around at the ends; with its 1-based place among all matches.
     */
    static Map<String, Object> find(TraceView view, String text, Long ts, Long id, boolean previous) {
        if (text == null || text.isBlank()) {
            throw new BadQueryException("find needs a non-empty 'q'");
        }
        if (text.length() > MAX_TEXT) {
            throw new BadQueryException("search text longer than " + MAX_TEXT + " characters");
        }
        String match = "contains(lower(name), lower(?))";
        String cols = "SELECT id, ts - " + view.origin() + " AS ts, dur, track_id, name FROM slice WHERE " + match;
        String order = previous ? " ORDER BY ts DESC, id DESC LIMIT 1" : " ORDER BY ts ASC, id ASC LIMIT 1";
        Store store = view.store();
        Map<String, Object> out = new LinkedHashMap<>();
        synchronized (view) {
            long total = (Long) store.query(null, "SELECT count(*) FROM slice WHERE " + match, text).rows().get(0)[0];
            out.put("total", total);
            Table t = null;
            boolean wrapped = false;
            if (ts != null && id != null) {
                long at = view.origin() + ts;
                t = store.query(null, cols + (previous ? " AND (ts < ? OR (ts = ? AND id < ?))"
                        : " AND (ts > ? OR (ts = ? AND id > ?))") + order, text, at, at, id);
                wrapped = t.size() == 0;
            }
            if (t == null || t.size() == 0) {
                t = store.query(null, cols + order, text);
            }
            if (t.size() == 0) {
                out.put("match", null);
                out.put("index", null);
                return out;
            }
            Object[] r = t.rows().get(0);
            long abs = view.origin() + (Long) r[1];
            long before = (Long) store.query(null, "SELECT count(*) FROM slice WHERE " + match
                    + " AND (ts < ? OR (ts = ? AND id < ?))", text, abs, abs, r[0]).rows().get(0)[0];
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", r[0]);
            m.put("ts", r[1]);
            m.put("dur", r[2]);
            m.put("track_id", r[3]);
            m.put("name", r[4]);
            out.put("match", m);
            out.put("index", before + 1);
            out.put("wrapped", wrapped);
        }
        return out;
    }

    private static void filter(StringBuilder where, List<Object> params, String column, String text) {
        if (text != null && !text.isEmpty()) {
            where.append(" AND contains(lower(").append(column).append("), lower(?))");
            params.add(text);
        }
    }
}
