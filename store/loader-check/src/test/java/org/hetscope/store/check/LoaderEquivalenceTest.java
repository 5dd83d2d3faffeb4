package org.hetscope.store.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.store.PipelinedSink;
import org.hetscope.store.StoreWriter;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The store writer hands its batches to DuckDB either through a hand-made Arrow stream or through the driver's
 * public appender (the fallback when the driver's internals move). Each real fixture is imported twice, the way
 * {@code hetscope import} does it (format found by ServiceLoader, reader on its own thread through
 * {@link PipelinedSink}), once with each loader forced by {@code -Dhetscope.store.loader}; the two stores must
 * hold the same tables with the same columns and the same rows ({@code EXCEPT ALL} both ways, every table and
 * view, readers' extension tables included). Only {@code trace_info}'s {@code store_loader} row differs, and it
 * must name the loader that was forced.
 */
class LoaderEquivalenceTest {
    private static final String PROPERTY = "hetscope.store.loader";
    private static final Path ROOT = Path.of(System.getProperty("hetscope.root", "."));

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {
        "examples/kineto-cuda-simple-add.json.gz",
        "../shared/fixtures/chrome/kineto-cuda-sampled-rank0.json.gz",
        "../shared/fixtures/starpu/chol-dmda-nb6",
        "../shared/fixtures/ctf/debuginfo-test-app2",
        "../shared/fixtures/ctf/cyg-profile/glxgears-cyg-profile-fast",
    })
    void bothLoadersWriteTheSameStore(String fixture) throws Exception {
        Path input = ROOT.resolve(fixture).normalize();
        assertTrue(Files.exists(input), input + " is missing");
        Path arrow = importWith("arrow-stream", input, dir.resolve("arrow.duckdb"));
        Path appender = importWith("appender", input, dir.resolve("appender.duckdb"));

        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("ATTACH '" + arrow + "' AS a (READ_ONLY)");
            st.execute("ATTACH '" + appender + "' AS b (READ_ONLY)");
            TreeMap<String, String> columnsA = columns(st, "a");
            TreeMap<String, String> columnsB = columns(st, "b");
            assertEquals(columnsA, columnsB, fixture + ": tables, views and their columns");
            long rows = 0;
            List<String> checked = new ArrayList<>();
            for (String table : columnsA.keySet()) {
                String where = table.equals("trace_info") ? " WHERE key <> 'store_loader'" : "";
                String a = "SELECT * FROM a.main." + table + where;
                String b = "SELECT * FROM b.main." + table + where;
                assertEquals(0, count(st, "(" + a + " EXCEPT ALL " + b + ")"), fixture + ": rows of " + table
                        + " only in the arrow-stream store");
                assertEquals(0, count(st, "(" + b + " EXCEPT ALL " + a + ")"), fixture + ": rows of " + table
                        + " only in the appender store");
                long n = count(st, "(" + a + ")");
                assertEquals(n, count(st, "(" + b + ")"), fixture + ": rows of " + table);
                if (!table.equals("trace_info") && !table.equals("skipped")) {
                    rows += n;
                }
                checked.add(table + "=" + n);
            }
            assertEquals("arrow-stream", scalar(st, "SELECT value FROM a.main.trace_info WHERE key = 'store_loader'"));
            assertEquals("appender", scalar(st, "SELECT value FROM b.main.trace_info WHERE key = 'store_loader'"));
            // not a comparison of two empty stores: the reader wrote trace data
            assertTrue(rows > 50, fixture + ": only " + rows + " rows of trace data in " + checked);
            System.out.println(fixture + ": identical " + checked);
        }
    }

    /** Imports {@code input} into {@code out} with {@code loader} forced, as {@code hetscope import} does. */
    static Path importWith(String loader, Path input, Path out) throws Exception {
        String before = System.getProperty(PROPERTY);
        System.setProperty(PROPERTY, loader);
        try {
            StoreWriter writer = StoreWriter.create(out);
            assertEquals(loader, writer.loaderName());
            TraceFormat format = ServiceLoader.load(TraceFormat.class).stream().map(ServiceLoader.Provider::get)
                    .filter(f -> {
                        try {
                            return f.accepts(input);
                        } catch (java.io.IOException e) {
                            return false;
                        }
                    })
                    .max(Comparator.comparingInt(TraceFormat::priority))
                    .orElseThrow(() -> new AssertionError("no reader accepts " + input));
            writer.info("source.0.path", input.toAbsolutePath().toString());
            writer.info("source.0.format", format.name());
            PipelinedSink pipe = new PipelinedSink(writer);
            try {
                format.read(input, pipe, Progress.NONE);
            } finally {
                pipe.finish();
            }
            writer.commit();
            return out;
        } finally {
            if (before == null) {
                System.clearProperty(PROPERTY);
            } else {
                System.setProperty(PROPERTY, before);
            }
        }
    }

    /** "table -> column type, ..." for every table and view of the attached store {@code db}. */
    private static TreeMap<String, String> columns(Statement st, String db) throws Exception {
        TreeMap<String, String> out = new TreeMap<>();
        try (ResultSet rs = st.executeQuery("SELECT table_name, string_agg(column_name || ' ' || data_type, ', '"
                + " ORDER BY ordinal_position) FROM information_schema.columns WHERE table_catalog = '" + db
                + "' AND table_schema = 'main' GROUP BY table_name")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2));
            }
        }
        return out;
    }

    private static long count(Statement st, String from) throws Exception {
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM " + from)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String scalar(Statement st, String sql) throws Exception {
        try (ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
