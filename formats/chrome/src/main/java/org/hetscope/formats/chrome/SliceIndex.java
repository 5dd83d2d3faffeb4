package org.hetscope.formats.chrome;

import java.util.HashMap;
import java.util.Map;

/**
 * Slices per Chrome (pid, tid) row, to bind flow events to the slice that encloses (or, for 'f' without
 * {@code bp: e}, follows) their timestamp, as the Trace Event format specifies.
 */
final class SliceIndex {
    /** Slices of one row as parallel arrays, sorted by start once all are in. */
    private static final class Row {
        GrowableLongs starts = new GrowableLongs();
        GrowableLongs ends = new GrowableLongs();
        GrowableLongs ids = new GrowableLongs();
        long[] s;
        long[] e;
        long[] id;
    }

    private final Map<String, Row> rows = new HashMap<>();
    private String lastKey;
    private Row lastRow;

    void add(String rowKey, long ts, long dur, long id) {
        Row r;
        if (rowKey.equals(lastKey)) {
            r = lastRow;
        } else {
            r = rows.computeIfAbsent(rowKey, k -> new Row());
            lastKey = rowKey;
            lastRow = r;
        }
        r.starts.add(ts);
        r.ends.add(ts + dur);
        r.ids.add(id);
    }

    void sort() {
        for (Row r : rows.values()) {
            int n = r.starts.size();
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            // by start, then longest first so that the enclosing slice comes before what it encloses
            java.util.Arrays.sort(order, (a, b) -> {
                int c = Long.compare(r.starts.get(a), r.starts.get(b));
                return c != 0 ? c : Long.compare(r.ends.get(b), r.ends.get(a));
            });
            r.s = new long[n];
            r.e = new long[n];
            r.id = new long[n];
            for (int i = 0; i < n; i++) {
                r.s[i] = r.starts.get(order[i]);
                r.e[i] = r.ends.get(order[i]);
                r.id[i] = r.ids.get(order[i]);
            }
            r.starts = null;
            r.ends = null;
            r.ids = null;
        }
    }

    /**
     * The innermost slice on the row containing {@code ts} when {@code enclosing}, else the first slice starting
     * at or after {@code ts}; -1 if none.
     */
    long find(String rowKey, long ts, boolean enclosing) {
        Row r = rows.get(rowKey);
        if (r == null || r.s.length == 0) {
            return -1;
        }
        // last index with start <= ts
        int lo = 0;
        int hi = r.s.length - 1;
        int last = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (r.s[mid] <= ts) {
                last = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (enclosing) {
            // Walk back to the innermost slice that still covers ts; nested slices start later, so the first
            // covering one found going backwards is the innermost.
            for (int i = last; i >= 0; i--) {
                if (r.e[i] > ts || (r.s[i] == ts && r.e[i] == ts)) {
                    return r.id[i];
                }
                if (ts - r.s[i] > 3_600_000_000_000L) {
                    break;
                }
            }
            return -1;
        }
        int next = last + 1;
        if (last >= 0 && r.s[last] == ts) {
            // several slices may start at ts: take the first of them (the outermost)
            int i = last;
            while (i > 0 && r.s[i - 1] == ts) {
                i--;
            }
            return r.id[i];
        }
        return next < r.s.length ? r.id[next] : -1;
    }
}
