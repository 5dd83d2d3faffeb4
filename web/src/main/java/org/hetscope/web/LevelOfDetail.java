package org.hetscope.web;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Pre-aggregated and re-ordered slices for the windows of large stores, kept in a cache file beside the store
 * ({@code STORE.lod}, or in the temp folder when that is not writable) and rebuilt when the store changes.
 *
 * <p>Each level cuts the trace span into a fixed grid of buckets; per (track, depth, bucket) it keeps the count,
 * summed duration, first and last start and last end of the slices shorter than a bucket, plus the longest one's
 * id and name code. Slices at least a bucket long are kept individually. A window whose pixel is at least one
 * bucket wide takes the buckets whose slices all lie inside it from here, and only the slices of the buckets its
 * edges cut one by one, so the answer is exact (counts and busy time) while reading a fraction of the rows.
 *
 * <p>Windows narrower than that need the single slices. The store keeps them sorted by track and time, so a short
 * window over a screenful of tracks still scans every row of those tracks; the cache therefore also holds a copy of
 * the slices' drawing columns in time order ({@code lod_slices}, sorted by time slab, track and start), where a
 * short window is a few contiguous row groups that DuckDB's zone maps find directly.
 *
 * <p>Names travel as small integer codes ({@code lod_names}): integers are far cheaper to read back than text.
 */
public final class LevelOfDetail implements AutoCloseable {
    static final int VERSION = 6;

    /**
     * How a cache is cut.
     *
     * @param buckets buckets per trace span of each level, finest first; each a whole multiple of the next
     * @param slabSlices slices per time slab of {@code lod_slices} on average (about one DuckDB row group)
     * @param sortSlices slices sorted per statement while building {@code lod_slices} (keeps each sort in memory)
     * @param groupHereBelow reads of {@code lod_slices} expected to return fewer slices than this fetch the slices
     *     and group them in Java; larger ones let DuckDB group them (see {@link SliceWindow})
     */
    record Settings(int[] buckets, long slabSlices, long sortSlices, long groupHereBelow) {
    }

    static final Settings DEFAULT = new Settings(new int[] {16_384, 2_048}, 100_000, 8_000_000, 50_000);

    /** One level: bucket width in ns and its table names. */
    public record Level(int buckets, long width, String table, String longTable) {
    }

    private final Connection connection;
    private final Settings settings;
    private final List<Level> levels;
    private final long slab;
    private final long slabs;
    private final String[][] names;
    private final Map<Long, Long> maxDurations;

    private LevelOfDetail(Connection connection, Settings settings, List<Level> levels, long slab, long slabs) {
        this.connection = connection;
        this.settings = settings;
        this.levels = levels;
        this.slab = slab;
        this.slabs = slabs;
        this.names = loadNames();
        this.maxDurations = new HashMap<>();
        Columns t = query("SELECT track_id, max_dur FROM lod_track");
        for (int i = 0; i < t.rows(); i++) {
            maxDurations.put(t.longs(0)[i], t.longs(1)[i]);
        }
    }

    /**
     * Opens the cache of a store, building it first when it is missing or stale.
     *
     * @param slices slices in the store
     * @param tracksWithSlices tracks holding at least one slice
     */
    public static LevelOfDetail open(Path store, long origin, long span, long slices, long tracksWithSlices)
            throws IOException {
        return open(store, origin, span, slices, tracksWithSlices, DEFAULT, null);
    }

    /** @param drawn the rows slices are drawn in where not their depth (device sub-lanes), or null: depth */
    static LevelOfDetail open(Path store, long origin, long span, long slices, long tracksWithSlices,
                              Settings settings, DrawnLanes drawn) throws IOException {
        Path cache = cachePath(store);
        int[] bucketCounts = settings.buckets();
        double slicesPerTrack = (double) slices / Math.max(1, tracksWithSlices);
        // A level pays only when it holds several slices per bucket; finer ones would be as large as the store.
        int finest = bucketCounts[bucketCounts.length - 1];
        for (int b : bucketCounts) {
            if (b <= slicesPerTrack / 4) {
                finest = b;
                break;
            }
        }
        long fine = Math.max(1, (span + finest - 1) / finest);
        List<Level> levels = new ArrayList<>();
        for (int b : bucketCounts) {
            if (b <= finest) {
                levels.add(new Level(b, fine * (finest / b), "lod_" + b, "long_" + b));
            }
        }
        long slabs = Math.max(1, Math.min(1L << 20, slices / settings.slabSlices()));
        long slab = Math.max(1, (span + slabs - 1) / slabs);
        String stamp = VERSION + ":" + Files.size(store) + ":" + Files.getLastModifiedTime(store).toMillis() + ":"
                + origin + ":" + span + ":" + fine + ":" + slab + ":" + java.util.Arrays.toString(bucketCounts);
        try {
            Connection c = connect(cache, store);
            if (!stamp.equals(readStamp(c))) {
                c.close();
                Files.deleteIfExists(cache);
                Files.deleteIfExists(cache.resolveSibling(cache.getFileName() + ".wal"));
                c = connect(cache, store);
                long sortRuns = Math.max(1, (slices + settings.sortSlices() - 1) / settings.sortSlices());
                build(c, origin, levels, slab, sortRuns, stamp, drawn);
            }
            return new LevelOfDetail(c, settings, levels, slab, (span + slab - 1) / slab + 1);
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
            // The cache reads the store's tables, which may be views: from here on, like every connection that
            // reads a store (Store.open), no other files, no extensions, and no changing that.
            boolean locked;
            try (ResultSet rs = st.executeQuery("SELECT current_setting('lock_configuration')")) {
                locked = rs.next() && rs.getBoolean(1);
            }
            if (!locked) {
                st.execute("SET enable_external_access = false");
                st.execute("SET autoinstall_known_extensions = false");
                st.execute("SET autoload_known_extensions = false");
                st.execute("SET lock_configuration = true");
            }
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

    /** The store's slices with the code of their (name, category) in place of the two texts. */
    private static final String CODED_SLICES = """
            (SELECT s.track_id, s.depth, s.id, s.ts, s.dur, c.code
             FROM drawn_slice s JOIN lod_names c ON c.name IS NOT DISTINCT FROM s.name
                                              AND c.category IS NOT DISTINCT FROM s.category)""";

    private static void build(Connection c, long origin, List<Level> levels, long slab, long sortRuns,
                              String stamp, DrawnLanes drawn) throws SQLException {
        // Every level keeps the row a slice is drawn in (its sub-lane on device tracks) in the depth column.
        String source = "src.slice";
        if (drawn != null && drawn.any()) {
            drawn.write(c, "lod_lane", false);
            source = drawn.slicesAsDrawn("src.slice", "lod_lane");
        }
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TEMP VIEW drawn_slice AS SELECT * FROM " + source);
            Level fine = levels.get(0);
            st.execute("CREATE TABLE lod_names AS SELECT (row_number() OVER (ORDER BY name, category))::BIGINT AS code, "
                    + "name, category FROM (SELECT DISTINCT name, category FROM src.slice)");
            // Rows sorted by track, lane and bucket: a track's rows are read back in drawing order.
            st.execute("""
                    CREATE TABLE %1$s AS
                    SELECT track_id, depth, (ts - %2$d) // %3$d AS b, count(*)::BIGINT AS n, sum(dur)::BIGINT AS busy,
                           min(ts) AS first_ts, max(ts) AS last_ts, max(ts + dur) AS last_end, max(dur) AS max_dur,
                           arg_max(id, dur) AS id, arg_max(code, dur) AS code
                    FROM %4$s WHERE dur < %3$d GROUP BY ALL
                    ORDER BY track_id, depth, b""".formatted(fine.table(), origin, fine.width(), CODED_SLICES));
            st.execute("CREATE TABLE %s AS SELECT * FROM %s WHERE dur >= %d ORDER BY track_id, depth, ts"
                    .formatted(fine.longTable(), CODED_SLICES, fine.width()));
            for (int i = 1; i < levels.size(); i++) {
                Level finer = levels.get(i - 1);
                Level l = levels.get(i);
                long factor = l.width() / finer.width();
                // Coarser buckets from finer ones plus the finer level's long slices that are short here.
                st.execute("""
                        CREATE TABLE %1$s AS
                        SELECT track_id, depth, b, sum(n)::BIGINT AS n, sum(busy)::BIGINT AS busy,
                               min(first_ts) AS first_ts, max(last_ts) AS last_ts, max(last_end) AS last_end,
                               max(max_dur) AS max_dur, arg_max(id, max_dur) AS id, arg_max(code, max_dur) AS code
                        FROM (
                          SELECT track_id, depth, b // %3$d AS b, n, busy, first_ts, last_ts, last_end, max_dur, id,
                                 code
                          FROM %2$s
                          UNION ALL
                          SELECT track_id, depth, (ts - %5$d) // %6$d, 1, dur, ts, ts, ts + dur, dur, id, code
                          FROM %4$s WHERE dur < %6$d)
                        GROUP BY ALL ORDER BY track_id, depth, b"""
                        .formatted(l.table(), finer.table(), factor, finer.longTable(), origin, l.width()));
                st.execute("CREATE TABLE %s AS SELECT * FROM %s WHERE dur >= %d ORDER BY track_id, depth, ts"
                        .formatted(l.longTable(), finer.longTable(), l.width()));
            }
            buildTimeOrder(st, origin, slab, sortRuns);
            st.execute("CREATE TABLE lod_track AS SELECT track_id, max(dur) AS max_dur FROM src.slice GROUP BY ALL");
            st.execute("CREATE TABLE lod_meta(key VARCHAR, value VARCHAR)");
            // Written last: a cache without its stamp is rebuilt.
            st.execute("INSERT INTO lod_meta VALUES ('stamp', '" + stamp + "')");
            st.execute("CHECKPOINT");
        }
    }

    /**
     * The slices in (slab, track, start) order. Sorting them all at once would spill to disk on large stores, so
     * they are sorted a run of slabs at a time; the runs follow each other in time, so the table ends up in order.
     */
    private static void buildTimeOrder(Statement st, long origin, long slab, long runs) throws SQLException {
        st.execute("CREATE TABLE lod_slices(s BIGINT, track_id BIGINT, depth INTEGER, id BIGINT, ts BIGINT, "
                + "dur BIGINT, code BIGINT)");
        long lastSlab;
        try (ResultSet rs = st.executeQuery("SELECT coalesce(max(ts), " + origin + ") FROM src.slice")) {
            rs.next();
            lastSlab = Math.floorDiv(rs.getLong(1) - origin, slab);
        }
        long perRun = Math.max(1, (lastSlab + runs) / runs);
        for (long from = 0; from <= lastSlab; from += perRun) {
            String lower = from == 0 ? "" : " AND ts >= " + (origin + from * slab);
            String upper = from + perRun > lastSlab ? "" : " AND ts < " + (origin + (from + perRun) * slab);
            st.execute(("INSERT INTO lod_slices SELECT (ts - %d) // %d AS s, track_id, depth, id, ts, dur, code "
                    + "FROM %s WHERE true%s%s ORDER BY s, track_id, ts").formatted(origin, slab, CODED_SLICES, lower,
                    upper));
        }
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

    Settings settings() {
        return settings;
    }

    /** The level with the widest buckets. */
    public Level coarsest() {
        return levels.get(levels.size() - 1);
    }

    public List<Level> levels() {
        return levels;
    }

    /** Width in ns of the time slabs that order {@code lod_slices}. */
    long slab() {
        return slab;
    }

    /** Number of slabs over the trace span. */
    long slabs() {
        return slabs;
    }

    /** Name and category of each code used in the cache tables (index = code). */
    String[][] names() {
        return names;
    }

    /** The longest slice of a track, or 0 when it has none. */
    long maxDuration(long trackId) {
        return maxDurations.getOrDefault(trackId, 0L);
    }

    private String[][] loadNames() {
        try (Statement st = connection.createStatement();
             ResultSet rs = st.executeQuery("SELECT code, name, category FROM lod_names ORDER BY code")) {
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {null, null});
            while (rs.next()) {
                rows.add(new String[] {rs.getString(2), rs.getString(3)});
            }
            return rows.toArray(String[][]::new);
        } catch (SQLException e) {
            throw new org.hetscope.store.StoreException("zoom cache names: " + e.getMessage(), e);
        }
    }

    /**
     * The buckets of a level for some tracks, bucket indexes in [i0, i1), sorted by track, depth and bucket:
     * columns track_id, depth, b, n, busy, first_ts, last_ts, last_end, id, code.
     */
    Columns buckets(Level level, String tracksWhere, long i0, long i1) {
        return query("SELECT track_id, depth, b, n, busy, first_ts, last_ts, last_end, id, code FROM " + level.table()
                + " WHERE " + tracksWhere + " AND b >= ? AND b < ? ORDER BY track_id, depth, b", i0, i1);
    }

    /** The slices of a level that are at least one bucket long and overlap [a, b) (absolute ns): columns
     * track_id, depth, id, ts, dur, code. */
    Columns longSlices(Level level, String tracksWhere, long a, long b) {
        return query("SELECT track_id, depth, id, ts, dur, code FROM " + level.longTable() + " WHERE " + tracksWhere
                + " AND ts < ? AND ts + dur >= ? ORDER BY track_id, depth, ts", b, a);
    }

    private final Map<String, java.sql.PreparedStatement> prepared = new HashMap<>();

    /**
     * The slices of {@code lod_slices} in slabs [s0, s1] of the given tracks that start in [from, to), are shorter
     * than {@code shorterThan} and overlap [a, b) (absolute ns): columns track_id, depth, id, ts, dur, code, by
     * slab, track and start.
     *
     * <p>The statement is prepared once and reused: planning costs more than running it for a short window. A
     * track list that is not one contiguous run of ids goes in as an array parameter: a constant IN list makes
     * the query several times as costly.
     */
    Columns slices(long s0, long s1, List<Long> trackIds, long from, long to, long shorterThan, long a, long b) {
        long lo = trackIds.stream().mapToLong(Long::longValue).min().orElseThrow();
        long hi = trackIds.stream().mapToLong(Long::longValue).max().orElseThrow();
        boolean contiguous = hi - lo + 1 == trackIds.stream().distinct().count();
        String sql = "SELECT track_id, depth, id, ts, dur, code FROM lod_slices WHERE s BETWEEN ? AND ? "
                + "AND track_id BETWEEN ? AND ? AND ts >= ? AND ts < ? AND dur < ? AND ts < ? AND ts + dur >= ?"
                + (contiguous ? "" : " AND track_id IN (SELECT unnest(?::BIGINT[]))");
        try {
            java.sql.PreparedStatement ps = prepared.get(sql);
            if (ps == null) {
                ps = connection.prepareStatement(sql);
                prepared.put(sql, ps);
            }
            Object[] params = {s0, s1, lo, hi, from, to, shorterThan, b, a};
            if (!contiguous) {
                params = java.util.Arrays.copyOf(params, params.length + 1);
                params[params.length - 1] = connection.createArrayOf("BIGINT", trackIds.toArray());
            }
            return Columns.read(ps, params);
        } catch (SQLException e) {
            throw new org.hetscope.store.StoreException("zoom cache query failed: " + e.getMessage(), e);
        }
    }

    /** Another connection to the cache (and the store it attaches), for a thread of its own. */
    Connection newConnection() throws SQLException {
        return connection.unwrap(org.duckdb.DuckDBConnection.class).duplicate();
    }

    /** Rows of a query on the cache, read column-wise. */
    Columns query(String sql, Object... params) {
        return Columns.read(connection, sql, params);
    }

    /** Sizes of the cache tables, for logs and benchmarks. */
    public Map<String, Long> sizes() {
        Map<String, Long> m = new HashMap<>();
        for (Level l : levels) {
            m.put(l.table(), query("SELECT count(*) FROM " + l.table()).longs(0)[0]);
            m.put(l.longTable(), query("SELECT count(*) FROM " + l.longTable()).longs(0)[0]);
        }
        m.put("lod_slices", query("SELECT count(*) FROM lod_slices").longs(0)[0]);
        return m;
    }

    @Override
    public void close() {
        try {
            for (java.sql.PreparedStatement ps : prepared.values()) {
                ps.close();
            }
            connection.close();
        } catch (SQLException ignored) {
            // read side only
        }
    }
}
