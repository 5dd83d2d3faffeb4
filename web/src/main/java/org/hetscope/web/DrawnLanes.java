package org.hetscope.web;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.hetscope.analysis.profiling.SubLanes;

/**
 * The row of its track each slice is drawn in, by the rule of the CLI's lane tree ({@code hetscope lanes}): on
 * device tracks (streams, queues) the sub-lane of {@link SubLanes.Sweep}, so that a kernel partly overlapping
 * another gets a row of its own; elsewhere the store's nesting depth (a call stack). The store's depth on a device
 * track counts the slices still running, which can put two overlapping kernels on one row (spec
 * gpu-runtime-tracing §2.1 example: [5,15] and [10,12] both at depth 1).
 *
 * <p>Only the slices whose row differs from their depth are kept (usually none or few), sorted by id; window
 * queries join them as {@link #TABLE} and the zoom cache folds them in when it is built.
 */
final class DrawnLanes {
    /** Temporary table (slice_id, lane) of the slices drawn off their depth, on each connection that draws. */
    static final String TABLE = "hs_drawn_lane";

    private final long[] ids;
    private final int[] lanes;
    private final Map<Long, Integer> rowsPerTrack;

    private DrawnLanes(long[] ids, int[] lanes, Map<Long, Integer> rowsPerTrack) {
        this.ids = ids;
        this.lanes = lanes;
        this.rowsPerTrack = rowsPerTrack;
    }

    /**
     * Places the slices of the sub-laned tracks: one sorted scan of those tracks' slices, O(log lanes) per slice.
     *
     * @param trackKinds kind of every track that may need placing (some slices nest or overlap), by id
     */
    static DrawnLanes compute(Connection store, Map<Long, String> trackKinds) {
        Collection<Long> subLaned = trackKinds.entrySet().stream().filter(e -> SubLanes.subLaned(e.getValue()))
                .map(Map.Entry::getKey).sorted().toList();
        Map<Long, Integer> rows = new HashMap<>();
        if (subLaned.isEmpty()) {
            return new DrawnLanes(new long[0], new int[0], rows);
        }
        long[] ids = new long[64];
        int[] lanes = new int[64];
        int n = 0;
        String in = subLaned.stream().map(String::valueOf).collect(Collectors.joining(","));
        // The order of the lane tree's sort: (start, end, id) within each track.
        String sql = "SELECT track_id, id, ts, ts + dur, depth FROM slice WHERE track_id IN (" + in + ") "
                + "ORDER BY track_id, ts, ts + dur, id";
        SubLanes.Sweep sweep = new SubLanes.Sweep();
        try (Statement st = store.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            long track = Long.MIN_VALUE;
            while (rs.next()) {
                long t = rs.getLong(1);
                if (t != track) {
                    if (track != Long.MIN_VALUE) {
                        rows.put(track, sweep.lanes());
                    }
                    sweep.reset();
                    track = t;
                }
                int lane = sweep.place(rs.getLong(3), rs.getLong(4));
                if (lane != rs.getInt(5)) {
                    if (n == ids.length) {
                        ids = Arrays.copyOf(ids, n * 2);
                        lanes = Arrays.copyOf(lanes, n * 2);
                    }
                    ids[n] = rs.getLong(2);
                    lanes[n++] = lane;
                }
            }
            if (track != Long.MIN_VALUE) {
                rows.put(track, sweep.lanes());
            }
        } catch (SQLException e) {
            throw new org.hetscope.store.StoreException("cannot place the device slices in sub-lanes: "
                    + e.getMessage(), e);
        }
        // Sorted by id for the look-ups of single slices (details, flows).
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        long[] unsortedIds = ids;
        Arrays.sort(order, (a, b) -> Long.compare(unsortedIds[a], unsortedIds[b]));
        long[] sortedIds = new long[n];
        int[] sortedLanes = new int[n];
        for (int i = 0; i < n; i++) {
            sortedIds[i] = ids[order[i]];
            sortedLanes[i] = lanes[order[i]];
        }
        return new DrawnLanes(sortedIds, sortedLanes, rows);
    }

    /** True when some slice is drawn off its depth (windows then join {@link #TABLE}). */
    boolean any() {
        return ids.length > 0;
    }

    /** How many slices are drawn off their depth. */
    int moved() {
        return ids.length;
    }

    /** The row a slice is drawn in, given its depth. */
    int laneOf(long sliceId, int depth) {
        int i = Arrays.binarySearch(ids, sliceId);
        return i >= 0 ? lanes[i] : depth;
    }

    /** Rows of a sub-laned track (its sub-lanes), or null for a track drawn by depth. */
    Integer rows(long trackId) {
        return rowsPerTrack.get(trackId);
    }

    /** Creates {@code table(slice_id BIGINT, lane INTEGER)} on a connection (TEMP or not) and fills it. */
    void write(Connection c, String table, boolean temporary) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE " + (temporary ? "TEMP " : "") + "TABLE " + table
                    + "(slice_id BIGINT, lane INTEGER)");
            // Integers only, written in chunks: no text of the trace goes into the statement.
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < ids.length; i++) {
                if (sb.isEmpty()) {
                    sb.append("INSERT INTO ").append(table).append(" VALUES ");
                } else {
                    sb.append(',');
                }
                sb.append('(').append(ids[i]).append(',').append(lanes[i]).append(')');
                if (i % 20_000 == 19_999 || i == ids.length - 1) {
                    st.execute(sb.toString());
                    sb.setLength(0);
                }
            }
        }
    }

    /** The store's slices as drawn: {@code depth} replaced by the row, for queries that read slice rows. */
    String slicesAsDrawn(String source, String laneTable) {
        if (!any()) {
            return source;
        }
        return "(SELECT s.* REPLACE (coalesce(l.lane, s.depth) AS depth) FROM " + source + " s LEFT JOIN "
                + laneTable + " l ON l.slice_id = s.id)";
    }
}
