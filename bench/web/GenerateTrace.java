import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.hetscope.store.StoreWriter;

/**
 * Writes a synthetic store for the web benchmark: SLICES kernel-like slices spread evenly over TRACKS stream tracks
 * (10 devices), each track a regular sequence with random gaps and durations, 64 distinct names. The schema comes
 * from StoreWriter (an empty, complete store); the slices are then generated inside DuckDB, already in the
 * (track_id, ts) order the writer would leave them in.
 *
 * Usage: java -cp CLASSPATH GenerateTrace.java OUT.duckdb SLICES TRACKS
 */
public class GenerateTrace {
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        long slices = Long.parseLong(args[1]);
        int tracks = Integer.parseInt(args[2]);
        Files.deleteIfExists(out);
        try (StoreWriter w = StoreWriter.create(out)) {
            w.info("source.0.format", "bench/web/GenerateTrace");
            w.commit();
        }
        long perTrack = slices / tracks;
        long period = 10_000; // ns between slice starts on one track
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + out.toAbsolutePath());
             Statement st = c.createStatement()) {
            st.execute("SET memory_limit = '6GB'");
            st.execute("""
                    INSERT INTO device SELECT d, 'GPU', d - 1, 'Bench', 'Bench GPU ' || (d - 1), NULL, NULL, NULL,
                      NULL, NULL, NULL, NULL FROM range(1, 11) r(d)""");
            st.execute("INSERT INTO track SELECT d, NULL, 'device', 'GPU ' || (d - 1), NULL, NULL, d, NULL, d * 1000, "
                    + "NULL FROM range(1, 11) r(d)");
            st.execute("INSERT INTO track SELECT 10 + s, 1 + (s - 1) % 10, 'stream', 'stream ' || s, NULL, NULL, "
                    + "1 + (s - 1) % 10, s, (1 + (s - 1) % 10) * 1000 + s, NULL FROM range(1, " + (tracks + 1)
                    + ") r(s)");
            long t0 = System.nanoTime();
            st.execute("""
                    INSERT INTO slice
                    SELECT r + 1 AS id, 11 + r // %1$d AS track_id,
                           1700000000000000000 + (r %% %1$d) * %2$d + hash(r) %% 3000 AS ts,
                           100 + hash(r * 7) %% 6500 AS dur,
                           'kernel_' || (hash(r * 13) %% 64) AS name, 'kernel', 'kernel', 0, NULL, NULL, NULL
                    FROM range(%3$d) t(r)""".formatted(perTrack, period, perTrack * tracks));
            st.execute("CHECKPOINT");
            System.out.printf("generated %,d slices on %d tracks in %.1f s -> %s (%,d bytes)%n", perTrack * tracks,
                    tracks, (System.nanoTime() - t0) / 1e9, out, Files.size(out));
        }
    }
}
