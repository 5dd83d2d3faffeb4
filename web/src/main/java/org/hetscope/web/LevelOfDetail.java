package org.hetscope.web;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.store.StoreException;

/**
 * Pre-aggregated slices for zoomed-out windows of large stores, kept in a cache file beside the store
 * ({@code STORE.lod}, or in the temp folder when that is not writable) and rebuilt when the store changes.
 *
 * <p>Each level cuts the trace span into a fixed grid of buckets; per (track, depth, bucket) it keeps the count,
 * summed duration, first start and last end of the slices shorter than a bucket, plus the longest one's id, name
 * and category. Slices at least a bucket long are kept individually. A window whose pixel is at least one bucket
 * wide reads whole buckets from here and only its two edges from the store, so the answer is exact (counts and
 * busy time) while reading a fraction of the rows.
 */
public final class LevelOfDetail implements AutoCloseable {
    static final int VERSION = 3;
    /** Buckets per trace span, finest first; each level is a whole multiple of the next finer one. */
    static final int[] BUCKETS = {16_384, 2_048};

    /** One level: bucket width in ns and its table names. */
    public record Level(int buckets, long width, String table, String longTable) {
    }

    private final Connection connection;
    private final List<Level> levels;

    private LevelOfDetail(Connection connection, List<Level> levels) {
        this.connection = connection;
        this.levels = levels;
    }

    /** Opens the cache of a store, building it first when it is missing or stale. */
    public static LevelOfDetail open(Path store, long origin, long span, double slicesPerTrack) throws IOException {
        Path cache = cachePath(store);
        // A level pays only when it holds several slices per bucket; finer ones would be as large as the store.
        int finest = BUCKETS[BUCKETS.length - 1];
        for (int b : BUCKETS) {
            if (b <= slicesPerTrack / 4) {
                finest = b;
                break;
            }
        }
        long fine = Math.max(1, (span + finest - 1) / finest);
        List<Level> levels = new java.util.ArrayList<>();
        for (int b : BUCKETS) {
            if (b <= finest) {
                levels.add(new Level(b, fine * (finest / b), "lod_" + b, "long_" + b));
            }
        }
        String stamp = VERSION + ":" + Files.size(store) + ":" + Files.getLastModifiedTime(store).toMillis() + ":"
                + origin + ":" + span + ":" + fine;
        try {
            Connection c = connect(cache, store);
            if (!stamp.equals(readStamp(c))) {
                c.close();
                Files.deleteIfExists(cache);
                Files.deleteIfExists(cache.resolveSibling(cache.getFileName() + ".wal"));
                c = connect(cache, store);
                build(c, origin, levels, stamp);
            }
            return new LevelOfDetail(c, levels);
        } catch (SQLException e) {
            throw new IOException("cannot build the zoom cache " + cache + ": " + e.getMessage(), e);
        }
    }

    static Path cachePath(Path store) {
        Path abs = store.toAbsolutePath();
        Path dir = abs.getParent();
        if (dir != null && Files.isWritable(dir)) {
            return dir.resolve(abs.getFileName() + ".lod");
        }
        return Path.of(System.getProperty("java.io.tmpdir"))
                .resolve("hetscope-" + Integer.toHexString(abs.toString().hashCode()) + "-" + abs.getFileName() + ".lod");
    }

    private static Connection connect(Path cache, Path store) throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:duckdb:" + cache.toAbsolutePath());
        try (Statement st = c.createStatement()) {
            st.execute("SET memory_limit = '" + System.getProperty("hetscope.duckdb.memory", "2GB").replace("'", "")
                    + "'");
            st.execute("ATTACH '" + store.toAbsolutePath().toString().replace("'", "''") + "' AS src (READ_ONLY)");
        }
        return c;
    }

    private static String readStamp(Connection c) {
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT value FROM lod_meta WHERE key = 'stamp'")) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            return null;
        }
    }

    private static void build(Connection c, long origin, List<Level> levels, String stamp) throws SQLException {
        try (Statement st = c.createStatement()) {
            Level fine = levels.get(0);
            // Rows carry a small code for (name, category): reading integers back is far cheaper than text.
            st.execute("CREATE TABLE lod_names AS SELECT (row_number() OVER (ORDER BY name, category))::BIGINT AS code, "
                    + "name, category FROM (SELECT DISTINCT name, category FROM src.slice)");
            st.execute("""
                    CREATE TABLE %1$s AS
                    SELECT g.track_id, g.depth, g.b, g.n, g.busy, g.first_ts, g.last_end, g.max_dur, g.id, c.code
                    FROM (
                      SELECT track_id, depth, (ts - %2$d) // %3$d AS b, count(*) AS n, sum(dur) AS busy,
                             min(ts) AS first_ts, max(ts + dur) AS last_end, max(dur) AS max_dur,
                             arg_max(id, dur) AS id, arg_max(name, dur) AS name, arg_max(category, dur) AS category
                      FROM src.slice WHERE dur < %3$d GROUP BY ALL) g
                    JOIN lod_names c ON c.name IS NOT DISTINCT FROM g.name
                                    AND c.category IS NOT DISTINCT FROM g.category
                    ORDER BY g.track_id, g.b""".formatted(fine.table(), origin, fine.width()));
            st.execute("CREATE TABLE %s AS SELECT track_id, depth, id, ts, dur, name, category FROM src.slice "
                    .formatted(fine.longTable()) + "WHERE dur >= " + fine.width() + " ORDER BY track_id, ts");
            for (int i = 1; i < levels.size(); i++) {
                Level finer = levels.get(i - 1);
                Level l = levels.get(i);
                long factor = l.width() / finer.width();
                // Coarser buckets from finer ones plus the finer level's long slices that are short here.
                st.execute("""
                        CREATE TABLE %1$s AS
                        SELECT track_id, depth, b, sum(n)::BIGINT AS n, sum(busy)::BIGINT AS busy,
                               min(first_ts) AS first_ts, max(last_end) AS last_end, max(max_dur) AS max_dur,
                               arg_max(id, max_dur) AS id, arg_max(code, max_dur) AS code
                        FROM (
                          SELECT track_id, depth, b // %3$d AS b, n, busy, first_ts, last_end, max_dur, id, code
                          FROM %2$s
                          UNION ALL
                          SELECT l.track_id, l.depth, (l.ts - %5$d) // %6$d, 1, l.dur, l.ts, l.ts + l.dur, l.dur, l.id,
                                 c.code
                          FROM %4$s l JOIN lod_names c ON c.name IS NOT DISTINCT FROM l.name
                                                      AND c.category IS NOT DISTINCT FROM l.category
                          WHERE l.dur < %6$d)
                        GROUP BY ALL ORDER BY track_id, b"""
                        .formatted(l.table(), finer.table(), factor, finer.longTable(), origin, l.width()));
                st.execute("CREATE TABLE %s AS SELECT * FROM %s WHERE dur >= %d ORDER BY track_id, ts"
                        .formatted(l.longTable(), finer.longTable(), l.width()));
            }
            // Where each track's slices of each fine bucket lie in the store (row ids; the slice table is sorted by
            // track and start), so narrow windows read only their rows instead of whole tracks.
            st.execute(("CREATE TABLE lod_rows AS SELECT track_id, (ts - %d) // %d AS b, min(rowid) AS first_row, "
                    + "max(rowid) AS last_row FROM src.slice GROUP BY ALL ORDER BY track_id, b")
                    .formatted(origin, fine.width()));
            st.execute("CREATE TABLE lod_track AS SELECT track_id, max(dur) AS max_dur FROM src.slice GROUP BY ALL");
            st.execute("CREATE TABLE lod_meta(key VARCHAR, value VARCHAR)");
            // Written last: a cache without its stamp is rebuilt.
            st.execute("INSERT INTO lod_meta VALUES ('stamp', '" + stamp + "')");
            st.execute("CHECKPOINT");
        }
    }

    /**
     * The row-id ranges of the store's slice table that hold every slice of these tracks overlapping [a, b)
     * (absolute ns), one per track that has any; empty when none can.
     */
    public List<long[]> rowRanges(long origin, String tracksWhere, long a, long b) {
        long w = levels.get(0).width();
        List<long[]> out = new java.util.ArrayList<>();
        Long maxDur = (Long) rows("SELECT max(max_dur) FROM lod_track WHERE " + tracksWhere).get(0)[0];
        if (maxDur == null) {
            return out;
        }
        long from = Math.floorDiv(a - maxDur - origin, w);
        long to = Math.floorDiv(b - 1 - origin, w);
        for (Object[] r : rows("SELECT min(first_row), max(last_row) FROM lod_rows WHERE " + tracksWhere
                + " AND b BETWEEN ? AND ? GROUP BY track_id ORDER BY 1", from, to)) {
            out.add(new long[] {(Long) r[0], (Long) r[1]});
        }
        return out;
    }

    /** The coarsest level whose buckets are at most {@code pixelNs} wide, or null. */
    public Level levelFor(double pixelNs) {
        Level best = null;
        for (Level l : levels) {
            if (l.width() <= pixelNs && (best == null || l.width() > best.width())) {
                best = l;
            }
        }
        return best;
    }

    private String[][] names;

    /** Name and category of each code used in the level tables. */
    synchronized String[][] names() {
        if (names == null) {
            List<Object[]> rows = rows("SELECT code, name, category FROM lod_names ORDER BY code");
            String[][] n = new String[rows.size() + 1][];
            for (Object[] r : rows) {
                n[((Long) r[0]).intValue()] = new String[] {(String) r[1], (String) r[2]};
            }
            names = n;
        }
        return names;
    }

    public List<Level> levels() {
        return levels;
    }

    /** Rows of a query on the cache: values as the JDBC driver gives them. */
    List<Object[]> rows(String sql, Object... params) {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return TypedRows.read(rs);
            }
        } catch (SQLException e) {
            throw new StoreException("zoom cache query failed: " + e.getMessage(), e);
        }
    }

    /** Sizes of the level tables, for logs and benchmarks. */
    public Map<String, Long> sizes() {
        Map<String, Long> m = new HashMap<>();
        for (Level l : levels) {
            m.put(l.table(), (Long) rows("SELECT count(*) FROM " + l.table()).get(0)[0]);
            m.put(l.longTable(), (Long) rows("SELECT count(*) FROM " + l.longTable()).get(0)[0]);
        }
        return m;
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // read side only
        }
    }
}
