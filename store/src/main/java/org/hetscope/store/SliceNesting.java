package org.hetscope.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Computes each slice's nesting depth and enclosing slice on its track, for tracks where the reader could not
 * (depth given as -1). A slice lies inside the nearest earlier slice that has not ended by its start; slices that
 * only touch are not nested.
 */
final class SliceNesting {
    private SliceNesting() {}

    static void compute(DuckDBConnection connection) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TEMP TABLE slice_nesting(id BIGINT, depth INTEGER, parent_id BIGINT)");
        }
        try (Statement st = connection.createStatement();
             DuckDBAppender out = connection.createAppender("temp", "main", "slice_nesting")) {
            st.setFetchSize(65536);
            try (ResultSet rs = st.executeQuery(
                    "SELECT id, track_id, ts, dur FROM slice WHERE track_id IN "
                            + "(SELECT DISTINCT track_id FROM slice WHERE depth < 0) "
                            + "ORDER BY track_id, ts, dur DESC, id")) {
                long track = Long.MIN_VALUE;
                long[] ends = new long[64];
                long[] ids = new long[64];
                int top = 0;
                while (rs.next()) {
                    long id = rs.getLong(1);
                    long t = rs.getLong(2);
                    long ts = rs.getLong(3);
                    long end = ts + rs.getLong(4);
                    if (t != track) {
                        track = t;
                        top = 0;
                    }
                    while (top > 0 && ends[top - 1] <= ts) {
                        top--;
                    }
                    out.beginRow().append(id).append(top);
                    if (top == 0) {
                        out.appendNull();
                    } else {
                        out.append(ids[top - 1]);
                    }
                    out.endRow();
                    if (top == ends.length) {
                        ends = java.util.Arrays.copyOf(ends, top * 2);
                        ids = java.util.Arrays.copyOf(ids, top * 2);
                    }
                    ends[top] = end;
                    ids[top] = id;
                    top++;
                }
            }
        }
        try (Statement st = connection.createStatement()) {
            st.execute("UPDATE slice SET depth = n.depth, parent_id = n.parent_id FROM slice_nesting n "
                    + "WHERE slice.id = n.id");
            st.execute("DROP TABLE slice_nesting");
        }
    }
}
