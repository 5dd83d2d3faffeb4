package org.hetscope.store;

import java.sql.SQLException;
import java.sql.Statement;
import org.duckdb.DuckDBConnection;

/**
 * Computes each slice's nesting depth and enclosing slice on its track, for tracks where the reader could not
 * (depth given as -1). Runs inside DuckDB, in parallel: the depth of a slice is the number of slices on its track
 * still open at its start (a running sum over start and end events, ends first at equal times, longer slices first
 * among equal starts); its parent is the latest slice one level up that started no later (an ASOF join). Slices
 * that only touch are not nested; on tracks whose slices overlap without nesting (GPU streams), the depth is the
 * number of slices already running.
 */
final class SliceNesting {
    private SliceNesting() {}

    /** Creates the temporary table {@code slice_nesting(id, depth, parent_id)}. */
    static void compute(DuckDBConnection connection) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute("""
                    CREATE TEMP TABLE slice_depth AS
                    WITH s AS (
                        SELECT id, track_id, ts, dur FROM slice
                        WHERE track_id IN (SELECT DISTINCT track_id FROM slice WHERE depth < 0)),
                    ev AS (
                        SELECT track_id, ts AS t, 1 AS kind, -dur AS order_dur, id, 1 AS delta FROM s
                        UNION ALL
                        SELECT track_id, ts + dur, CASE WHEN dur = 0 THEN 2 ELSE 0 END, 0, id, -1 FROM s),
                    run AS (
                        SELECT id, kind, sum(delta) OVER (PARTITION BY track_id ORDER BY t, kind, order_dur, id
                                                          ROWS UNBOUNDED PRECEDING) - 1 AS depth
                        FROM ev)
                    SELECT run.id, s.track_id, s.ts, CAST(run.depth AS INTEGER) AS depth
                    FROM run JOIN s ON s.id = run.id WHERE run.kind = 1""");
            st.execute("""
                    CREATE TEMP TABLE slice_nesting AS
                    SELECT c.id, c.depth, p.id AS parent_id
                    FROM slice_depth c ASOF LEFT JOIN slice_depth p
                      ON p.track_id = c.track_id AND p.depth = c.depth - 1 AND c.ts >= p.ts""");
            st.execute("DROP TABLE slice_depth");
        }
    }
}
