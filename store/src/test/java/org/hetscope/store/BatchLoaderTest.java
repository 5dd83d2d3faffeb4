package org.hetscope.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.hetscope.model.Category;
import org.hetscope.model.Entity;
import org.hetscope.model.Slice;
import org.hetscope.model.TableSpec;
import org.hetscope.model.TraceSink;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer's choice between the Arrow stream and the driver's public appender: the default, forcing either by
 * {@code -Dhetscope.store.loader}, and the fall-back when the driver lacks the internals the Arrow path uses
 * (simulated by looking up a native method that does not exist, which is what a driver upgrade that renames it
 * does). Every store is compared with the one the Arrow path writes from the same records, table by table.
 */
class BatchLoaderTest {
    private static final TableSpec EXTRA_TABLE = TableSpec.parse("extra",
            "a BIGINT, b VARCHAR, c SMALLINT, d TIMESTAMP, e DOUBLE, f BOOLEAN, g INTEGER");
    @TempDir
    Path dir;

    @AfterEach
    void restore() {
        System.clearProperty(BatchLoader.PROPERTY);
        ArrowStream.registerMethod = "duckdb_jdbc_arrow_register";
    }

    /**
     * A bit of everything the writer does: a track whose slices arrive in start order (nested as they come), one
     * whose slices arrive shuffled (nested at commit, through temporary tables the loader fills), an extension
     * table with SQL types the batch carries in another type (SMALLINT, TIMESTAMP), info and skip counts; more
     * than one batch of slices. Written through the pipelined sink, so batches go out from two threads.
     */
    private static void emit(TraceSink sink) {
        Random random = new Random(11);
        for (int t = 0; t < 2; t++) {
            long track = sink.newId(Entity.TRACK);
            sink.track(Track.of(track, null, TrackKind.THREAD, "t" + t));
            List<Slice> slices = new ArrayList<>();
            long ts = 0;
            for (int i = 0; i < 80_000; i++) {
                long outer = 10 + random.nextInt(100);
                slices.add(new Slice(sink.newId(Entity.SLICE), track, ts, outer, "outer é", Category.CPU_OP, null,
                        -1, null, null));
                slices.add(new Slice(sink.newId(Entity.SLICE), track, ts + 1, random.nextInt((int) outer), "inner",
                        Category.API, "src", -1, (long) i, "{\"i\":" + i + "}"));
                ts += outer + random.nextInt(5);
            }
            if (t == 1) {
                Collections.shuffle(slices, random);
            }
            slices.forEach(sink::slice);
        }
        sink.defineTable(EXTRA_TABLE);
        for (int i = 0; i < 3000; i++) {
            sink.row(EXTRA_TABLE, (long) i, i % 7 == 0 ? null : "v" + i, i % 300, "2026-11-26 12:00:" + (10 + i % 50),
                    i % 5 == 0 ? null : i / 3.0, i % 2 == 0, i % 11 == 0 ? null : -i);
        }
        sink.info("k", "v");
        sink.skipped(org.hetscope.model.SkipReason.KEPT_GENERIC, "thing", "here", 3);
    }

    private Path write(String name) throws IOException {
        Path file = dir.resolve(name);
        StoreWriter w = StoreWriter.create(file);
        PipelinedSink pipe = new PipelinedSink(w);
        emit(pipe);
        pipe.finish();
        assertTrue(w.tracksNestedAtCommit() > 0, "the shuffled track is nested at commit");
        w.commit();
        return file;
    }

    private static String loaderOf(Path store) throws Exception {
        try (Store s = Store.open(store)) {
            return s.info().get(BatchLoader.INFO_KEY);
        }
    }

    @Test
    void byDefaultTheArrowStreamWritesAndTraceInfoSaysSo() throws Exception {
        Path store = write("default.duckdb");
        assertEquals("arrow-stream", loaderOf(store));
    }

    @Test
    void forcingTheAppenderWritesTheSameStore() throws Exception {
        Path arrow = write("arrow.duckdb");
        System.setProperty(BatchLoader.PROPERTY, "appender");
        Path appender = write("appender.duckdb");
        assertEquals("appender", loaderOf(appender));
        assertSameStore(arrow, appender);
    }

    @Test
    void aDriverWithoutTheArrowEntryPointFallsBackToTheAppender() throws Exception {
        Path arrow = write("arrow.duckdb");
        ArrowStream.registerMethod = "duckdb_jdbc_arrow_register_gone";
        try (StoreWriter w = StoreWriter.create(dir.resolve("probe.duckdb"))) {
            assertEquals("appender", w.loaderName());
        }
        Path fallback = write("fallback.duckdb");
        assertEquals("appender", loaderOf(fallback));
        try (Store s = Store.open(fallback)) {
            assertEquals("true", s.info().get(StoreWriter.COMPLETE_KEY));
            assertEquals(320_000L, s.scalarLong("select count(*) from slice"));
            assertEquals(160_000L, s.scalarLong("select count(*) from slice where parent_id is not null"));
        }
        assertSameStore(arrow, fallback);
    }

    @Test
    void forcingTheArrowStreamOnADriverWithoutItFailsTheImport() {
        ArrowStream.registerMethod = "duckdb_jdbc_arrow_register_gone";
        System.setProperty(BatchLoader.PROPERTY, "arrow-stream");
        IOException e = assertThrows(IOException.class, () -> StoreWriter.create(dir.resolve("x.duckdb")));
        assertTrue(e.getMessage().contains("Arrow stream registration"), e.getMessage());
        assertNoFiles();
    }

    @Test
    void anUnknownLoaderIsRefusedByName() {
        System.setProperty(BatchLoader.PROPERTY, "fastest");
        IOException e = assertThrows(IOException.class, () -> StoreWriter.create(dir.resolve("x.duckdb")));
        assertTrue(e.getMessage().contains("-Dhetscope.store.loader=fastest"), e.getMessage());
        assertNoFiles();
    }

    private void assertNoFiles() {
        try (var files = Files.list(dir)) {
            assertFalse(files.findAny().isPresent(), "a refused store leaves no file");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Same tables, columns and rows ({@code EXCEPT ALL} both ways), but for the {@code store_loader} row. */
    static void assertSameStore(Path a, Path b) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("ATTACH '" + a + "' AS a (READ_ONLY)");
            st.execute("ATTACH '" + b + "' AS b (READ_ONLY)");
            String columns = "SELECT table_name, column_name, data_type, ordinal_position FROM information_schema.columns"
                    + " WHERE table_schema = 'main' AND table_catalog = ";
            assertEquals(0, count(st, "(" + columns + "'a' EXCEPT ALL " + columns + "'b')"));
            assertEquals(0, count(st, "(" + columns + "'b' EXCEPT ALL " + columns + "'a')"));
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT DISTINCT table_name FROM information_schema.columns"
                    + " WHERE table_catalog = 'a' AND table_schema = 'main' ORDER BY 1")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            assertTrue(tables.contains("extra") && tables.contains("slice"), tables.toString());
            for (String t : tables) {
                String where = t.equals("trace_info") ? " WHERE key <> '" + BatchLoader.INFO_KEY + "'" : "";
                String qa = "SELECT * FROM a.main." + t + where;
                String qb = "SELECT * FROM b.main." + t + where;
                assertEquals(0, count(st, "(" + qa + " EXCEPT ALL " + qb + ")"), t);
                assertEquals(0, count(st, "(" + qb + " EXCEPT ALL " + qa + ")"), t);
                assertEquals(count(st, "(" + qa + ")"), count(st, "(" + qb + ")"), t);
            }
            assertEquals(3000, count(st, "b.main.extra WHERE d = TIMESTAMP '2026-11-26 12:00:10' + INTERVAL"
                    + " (a % 50) SECOND AND c = a % 300"));
        }
    }

    private static long count(Statement st, String from) throws Exception {
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM " + from)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
