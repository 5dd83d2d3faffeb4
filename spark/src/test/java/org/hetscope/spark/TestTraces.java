package org.hetscope.spark;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.hetscope.formats.ctf.mapping.RocmTrace;
import org.hetscope.store.Table;

/** Traces for the tests: one of every shared fixture format, synthetic ranks, bad traces; and a stores engine. */
final class TestTraces {
    private TestTraces() {
    }

    static Path fixtures() {
        return Path.of(System.getProperty("hetscope.root", "..")).resolve("../shared/fixtures").normalize();
    }

    /** One trace or more of every shared fixture format (the ROCm one written from the fixture's metadata). */
    static List<Path> everyFormat(Path tmp) throws Exception {
        Path f = fixtures();
        List<Path> out = new ArrayList<>(List.of(
                f.resolve("chrome/kineto-cuda-sampled-rank0.json.gz"),
                f.resolve("chrome/kineto-rocm6.2-mi250-minitoy.json.gz"),
                f.resolve("chrome/kineto-cuda-event-sync-multistream.json.gz"),
                f.resolve("nsys/perlmutter-cloverleaf-cuda.sqlite"),
                f.resolve("ctf/mpi_allreduce"),
                f.resolve("otf2/ping-pong-otf2"),
                f.resolve("starpu/chol-dmda-nb6")));
        out.add(RocmTrace.write(tmp.resolve("rocm-rocprofv3")));
        return out;
    }

    /**
     * A Kineto-shaped trace of one rank: ProfilerStep#1001.. (numbers no fixture uses) on the host with the given durations (us), and per step
     * one NCCL all-reduce kernel of {@code ncclUs} and a GEMM of {@code gemmUs} on stream 7 of device 0.
     */
    static Path rank(Path file, long[] stepUs, long ncclUs, long gemmUs) throws IOException {
        StringBuilder b = new StringBuilder("{\"deviceProperties\":[{\"id\":0,\"name\":\"GPU\"}],\"traceEvents\":[\n");
        long ts = 1000;
        int corr = 1;
        for (int i = 0; i < stepUs.length; i++) {
            b.append(String.format("{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#%d\",\"pid\":100,"
                    + "\"tid\":100,\"ts\":%d,\"dur\":%d},%n", 1001 + i, ts, stepUs[i]));
            b.append(String.format("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclKernel_AllReduce_RING_LL_Sum_float\","
                    + "\"pid\":0,\"tid\":7,\"ts\":%d,\"dur\":%d,\"args\":{\"device\":0,\"stream\":7,\"correlation\":%d}},%n",
                    ts + 1, ncclUs, corr++));
            b.append(String.format("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"sm80_gemm\",\"pid\":0,\"tid\":7,\"ts\":%d,"
                    + "\"dur\":%d,\"args\":{\"device\":0,\"stream\":7,\"correlation\":%d}},%n", ts + 2 + ncclUs, gemmUs,
                    corr++));
            ts += stepUs[i];
        }
        b.setLength(b.length() - 2);
        b.append("\n]}\n");
        Files.writeString(file, b);
        return file;
    }

    /** A gzip Kineto trace cut in the middle of its JSON, and a text file that is no trace. */
    static List<Path> bad(Path dir) throws IOException {
        Files.createDirectories(dir);
        byte[] whole = Files.readAllBytes(fixtures().resolve("chrome/kineto-cuda-simple-add.json.gz"));
        byte[] json;
        try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(whole))) {
            json = in.readAllBytes();
        }
        Path cut = dir.resolve("truncated.json.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(cut))) {
            out.write(json, 0, json.length / 2);
        }
        Path text = dir.resolve("notes.txt");
        Files.writeString(text, "these are my notes, not a trace\n");
        return List.of(cut, text);
    }

    /** DuckDB over one store per trace: each ATTACHed read-only, each table a UNION ALL with the trace's name. */
    static final class StoresEngine implements Engine {
        private final Connection c;

        StoresEngine(Map<String, Path> stores) throws SQLException {
            c = DriverManager.getConnection("jdbc:duckdb:");
            List<String> aliases = new ArrayList<>();
            try (Statement st = c.createStatement()) {
                int i = 0;
                for (Path p : stores.values()) {
                    st.execute("ATTACH '" + p.toString().replace("'", "''") + "' AS s" + i + " (READ_ONLY)");
                    aliases.add("s" + i++);
                }
                for (String table : List.of("slice", "track", "device", "process", "thread")) {
                    List<String> parts = new ArrayList<>();
                    int k = 0;
                    for (String name : stores.keySet()) {
                        parts.add("SELECT *, '" + name + "' AS trace FROM " + aliases.get(k++) + ".main." + table);
                    }
                    st.execute("CREATE TEMP VIEW " + table + " AS " + String.join(" UNION ALL ", parts));
                }
            }
        }

        @Override
        public Analyses.Dialect dialect() {
            return Analyses.Dialect.DUCKDB;
        }

        @Override
        public Table query(String sql) {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
                ResultSetMetaData md = rs.getMetaData();
                List<String> cols = new ArrayList<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    cols.add(md.getColumnLabel(i));
                }
                List<Object[]> rows = new ArrayList<>();
                while (rs.next()) {
                    Object[] r = new Object[cols.size()];
                    for (int i = 0; i < r.length; i++) {
                        r[i] = Analyses.normalise(rs.getObject(i + 1));
                    }
                    rows.add(r);
                }
                return new Table(null, cols, rows);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void close() {
            try {
                c.close();
            } catch (SQLException ignored) {
                // reading only
            }
        }
    }

    /** A table as text, one line per row, values with their Java type: what "identical" compares. */
    static String dump(Table t) {
        StringBuilder b = new StringBuilder(String.join("|", t.columns())).append('\n');
        for (Object[] r : t.rows()) {
            for (Object v : r) {
                b.append(v == null ? "null" : v.getClass().getSimpleName() + ":" + v).append('|');
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** Imports each trace with `hetscope import` (the CLI in this JVM) into its own store, keyed by trace name. */
    static Map<String, Path> stores(Map<Path, String> traces, Path dir) throws IOException {
        Files.createDirectories(dir);
        Map<String, Path> out = new LinkedHashMap<>();
        for (var e : traces.entrySet()) {
            Path store = dir.resolve(e.getValue() + ".duckdb");
            int rc = org.hetscope.cli.Main.run("import", e.getKey().toString(), "-o", store.toString());
            if (rc != 0 && rc != 3) {
                throw new IOException("hetscope import " + e.getKey() + ": exit " + rc);
            }
            out.put(e.getValue(), store);
        }
        return out;
    }
}
