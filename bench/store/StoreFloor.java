import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The least time DuckDB itself needs to write a store's rows: no reader, no Java record, no Arrow batch in the way.
 * Every table of a finished store is copied into in-memory TEMP tables first (not timed; the slices in id order,
 * the order they arrived in), then, timed, inserted into a fresh store file in one transaction as the import does,
 * the slices sorted by (track, ts, id) as the schema promises, committed and checkpointed. A second variant leaves
 * the slices unsorted (the checkpoint then writes them instead). Any import into this store takes at least the
 * faster of the two; the figure is a floor, measured with more memory than the import is given (DuckDB spills
 * less), so it errs low.
 *
 * <p>usage: java -cp duckdb_jdbc.jar bench/store/StoreFloor.java STORE [REPS] (prints one line per phase)
 */
public class StoreFloor {
    public static void main(String[] args) throws Exception {
        Path source = Path.of(args[0]).toAbsolutePath();
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        String memory = System.getProperty("floor.memory", "8GB");
        Path work = Files.createTempDirectory("store-floor");
        List<String[]> tables = new ArrayList<>(); // name, create statement, order
        long rows = 0;
        long t0 = System.nanoTime();
        // TEMP tables belong to the connection; each variant's target store is attached to the same connection
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             Statement st = c.createStatement()) {
            st.execute("SET preserve_insertion_order = false");
            st.execute("SET memory_limit = '" + memory + "'");
            st.execute("SET temp_directory = '" + work.resolve("spill") + "'");
            st.execute("ATTACH '" + source + "' AS src (READ_ONLY)");
            try (ResultSet r = st.executeQuery("""
                    SELECT t.table_name, t.sql, t.estimated_size,
                           EXISTS (SELECT 1 FROM duckdb_columns() k WHERE k.database_name = 'src'
                                   AND k.table_name = t.table_name AND k.column_name = 'id') AS has_id
                    FROM duckdb_tables() t WHERE t.database_name = 'src' AND t.schema_name = 'main'
                    ORDER BY t.estimated_size DESC""")) {
                while (r.next()) {
                    tables.add(new String[] {r.getString(1), r.getString(2), r.getBoolean(4) ? " ORDER BY id" : ""});
                }
            }
            for (String[] t : tables) {
                st.execute("CREATE TEMP TABLE \"copy_" + t[0] + "\" AS SELECT * FROM src.\"" + t[0] + "\"" + t[2]);
                rows += count(st, "temp.\"copy_" + t[0] + "\"");
            }
            st.execute("DETACH src");
            System.out.printf("copied %d tables, %d rows, into memory in %.2f s (not timed)%n", tables.size(), rows,
                    (System.nanoTime() - t0) / 1e9);
            for (int rep = 0; rep < reps; rep++) {
                for (boolean sort : new boolean[] {true, false}) {
                    variant(c, st, work.resolve("floor-" + rep + "-" + sort + ".duckdb"), tables, sort);
                }
            }
        } finally {
            try (var files = Files.walk(work)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static final long CHUNK = Long.getLong("floor.chunk", Long.MAX_VALUE);

    /** CPU time of the whole process (DuckDB's worker threads included), in ns. */
    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static long count(Statement st, String table) throws SQLException {
        try (ResultSet r = st.executeQuery("SELECT count(*) FROM " + table)) {
            r.next();
            return r.getLong(1);
        }
    }

    private static void variant(Connection c, Statement st, Path target, List<String[]> tables, boolean sort)
            throws SQLException {
        st.execute("ATTACH '" + target + "' AS dst");
        st.execute("USE dst");
        for (String[] t : tables) {
            st.execute(t[1]);
        }
        long cpu0 = cpu();
        long t0 = System.nanoTime();
        c.setAutoCommit(false);
        for (String[] t : tables) {
            String from = "temp.\"copy_" + t[0] + "\"";
            long n = count(st, from);
            // -Dfloor.chunk=N: N rows per INSERT, as an import hands its rows over in batches
            for (long lo = 0; lo < n; lo += CHUNK) {
                st.execute("INSERT INTO dst.\"" + t[0] + "\" SELECT * FROM " + from
                        + (CHUNK >= n ? "" : " WHERE rowid >= " + lo + " AND rowid < " + (lo + CHUNK)));
            }
        }
        long t1 = System.nanoTime();
        if (sort) {
            st.execute("CREATE TABLE dst.slice_sorted AS SELECT * FROM dst.slice ORDER BY track_id, ts, id");
            st.execute("DROP TABLE dst.slice");
            st.execute("ALTER TABLE dst.slice_sorted RENAME TO slice");
        }
        long t2 = System.nanoTime();
        c.commit();
        c.setAutoCommit(true);
        st.execute("CHECKPOINT dst");
        long t3 = System.nanoTime();
        long cpu1 = cpu();
        st.execute("USE memory");
        st.execute("DETACH dst");
        System.out.printf("%-10s rows %.2f s, sort %.2f s, commit+checkpoint %.2f s, total %.2f s wall, %.2f s CPU%n",
                sort ? "sorted:" : "unsorted:", (t1 - t0) / 1e9, (t2 - t1) / 1e9, (t3 - t2) / 1e9,
                (t3 - t0) / 1e9, (cpu1 - cpu0) / 1e9);
    }
}
