package org.hetscope.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import org.duckdb.DuckDBConnection;

/**
 * Computes each slice's nesting depth and enclosing slice on the given tracks: those where the reader could not
 * (depth given as -1) and whose slices did not arrive in start order (the store writer runs the same {@link Sweep}
 * itself on tracks that did). The depth of a slice is the number of slices of its track still open when it starts, with
 * starts taken in (ts, longer first, id) order; a slice that ended at or before that time is closed, except that a
 * zero-length slice stays open until every slice starting at its time has started (so a zero-length marker inside
 * another one nests). Its parent is the latest-starting slice one level up that started no later. Slices that only
 * touch are not nested; on tracks whose slices overlap without nesting (GPU streams), the depth is the number of
 * slices still running.
 *
 * <p>DuckDB sorts the (id, track, ts, dur) columns; the sweep itself runs here, since a running window over a
 * few large partitions (one per track) barely parallelises and spilled to disk on gigabyte traces.
 */
final class SliceNesting {
    private SliceNesting() {}

    /** Creates the temporary table {@code slice_nesting(id, depth, parent_id)} for every slice of {@code tracks}. */
    static void compute(DuckDBConnection connection, BatchLoader loader, java.util.Collection<Long> tracks) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TEMP TABLE slice_nesting(id BIGINT, depth INTEGER, parent_id BIGINT)");
            st.execute("CREATE TEMP TABLE slice_nesting_track(track_id BIGINT)");
        }
        ColumnBatch which = new ColumnBatch("slice_nesting_track",
                List.of(new ColumnBatch.Column("track_id", ColumnBatch.Type.BIGINT)));
        for (long track : tracks) {
            if (which.isFull()) {
                loader.insert(which);
                which.clear();
            }
            which.beginRow().append(track).endRow();
        }
        loader.insert(which);
        ColumnBatch out = new ColumnBatch("slice_nesting", List.of(
                new ColumnBatch.Column("id", ColumnBatch.Type.BIGINT),
                new ColumnBatch.Column("depth", ColumnBatch.Type.INTEGER),
                new ColumnBatch.Column("parent_id", ColumnBatch.Type.BIGINT)));
        Sweep sweep = new Sweep();
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("""
                        SELECT id, track_id, ts, dur FROM slice
                        WHERE track_id IN (SELECT track_id FROM slice_nesting_track)
                        ORDER BY track_id, ts, dur DESC, id""")) {
            long track = Long.MIN_VALUE;
            while (rs.next()) {
                long t = rs.getLong(2);
                if (t != track) {
                    sweep.reset();
                    track = t;
                }
                long id = rs.getLong(1);
                sweep.start(id, rs.getLong(3), rs.getLong(4));
                if (out.isFull()) {
                    loader.insert(out);
                    out.clear();
                }
                out.beginRow().append(id).append(sweep.depth).append(sweep.parent).endRow();
            }
        }
        loader.insert(out);
    }

    /**
     * The sweep over one track's slices, given in start order: a min-heap of the open slices' ends (ends of
     * zero-length slices after other ends at the same time) and the last slice started at each depth.
     */
    static final class Sweep {
        private long[] ends = new long[16];
        private boolean[] zeroLength = new boolean[16];
        private int open;
        private long[] lastAtDepth = new long[16];
        /** Results of the last {@link #start}: its depth, and its parent's id or null. */
        int depth;
        Long parent;

        void reset() {
            open = 0;
        }

        void start(long id, long ts, long dur) {
            // A slice ending at ts is closed when this one starts, unless it is a zero-length one that began at ts.
            while (open > 0 && (ends[0] < ts || (ends[0] == ts && !zeroLength[0]))) {
                pop();
            }
            depth = open;
            parent = depth == 0 ? null : lastAtDepth[depth - 1];
            if (depth == lastAtDepth.length) {
                lastAtDepth = Arrays.copyOf(lastAtDepth, depth * 2);
            }
            lastAtDepth[depth] = id;
            long end = ts + dur;
            push(((ts ^ end) & (dur ^ end)) < 0 ? Long.MAX_VALUE : end, dur == 0);
        }

        private boolean before(int a, int b) {
            return ends[a] < ends[b] || (ends[a] == ends[b] && !zeroLength[a] && zeroLength[b]);
        }

        private void push(long end, boolean zero) {
            if (open == ends.length) {
                ends = Arrays.copyOf(ends, open * 2);
                zeroLength = Arrays.copyOf(zeroLength, open * 2);
            }
            int i = open++;
            ends[i] = end;
            zeroLength[i] = zero;
            while (i > 0) {
                int up = (i - 1) >>> 1;
                if (!before(i, up)) {
                    break;
                }
                swap(i, up);
                i = up;
            }
        }

        private void pop() {
            open--;
            ends[0] = ends[open];
            zeroLength[0] = zeroLength[open];
            int i = 0;
            while (true) {
                int child = 2 * i + 1;
                if (child >= open) {
                    break;
                }
                if (child + 1 < open && before(child + 1, child)) {
                    child++;
                }
                if (!before(child, i)) {
                    break;
                }
                swap(i, child);
                i = child;
            }
        }

        private void swap(int a, int b) {
            long e = ends[a];
            ends[a] = ends[b];
            ends[b] = e;
            boolean z = zeroLength[a];
            zeroLength[a] = zeroLength[b];
            zeroLength[b] = z;
        }
    }
}
