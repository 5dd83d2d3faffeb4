package org.hetscope.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.hetscope.model.Category;
import org.hetscope.model.Entity;
import org.hetscope.model.Slice;
import org.hetscope.model.TableSpec;
import org.hetscope.model.TraceSink;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreWriterTest {
    private static final TableSpec EXTRA_TABLE = TableSpec.parse("extra", "a BIGINT, b VARCHAR");
    @TempDir
    Path dir;

    /** Random properly nested slices on a few tracks; returns nothing, the store recomputes depth. */
    private static void emit(TraceSink sink, long seed) {
        Random random = new Random(seed);
        for (int t = 0; t < 3; t++) {
            long track = sink.newId(Entity.TRACK);
            sink.track(Track.of(track, null, TrackKind.THREAD, "t" + t));
            long ts = 0;
            for (int i = 0; i < 500; i++) {
                long outer = 10 + random.nextInt(100);
                sink.slice(new Slice(sink.newId(Entity.SLICE), track, ts, outer, "outer", Category.CPU_OP, null, -1,
                        null, null));
                long inner = random.nextInt((int) outer);
                sink.slice(new Slice(sink.newId(Entity.SLICE), track, ts + 1, inner, "inner", Category.API, null, -1,
                        null, "{\"i\":" + i + "}"));
                ts += outer + random.nextInt(5);
            }
        }
        sink.defineTable(EXTRA_TABLE);
        sink.row(EXTRA_TABLE, 1L, "x");
        sink.info("k", "v");
        sink.skipped(org.hetscope.model.SkipReason.KEPT_GENERIC, "thing", "here", 3);
    }

    @Test
    void skippedRowsKeepReasonSeverityDetailAndFirstLocation() throws Exception {
        Path file = dir.resolve("skips.duckdb");
        StoreWriter w = StoreWriter.create(file);
        w.skipped(org.hetscope.model.SkipReason.KEPT_GENERIC, "phase 'P'", "f at byte 1", 2);
        w.skipped(org.hetscope.model.SkipReason.DAMAGED_RECORD, "trace event: x", "f at byte 5", 1);
        w.skipped(org.hetscope.model.SkipReason.KEPT_GENERIC, "phase 'P'", "f at byte 9", 3);
        w.skipped(org.hetscope.model.SkipReason.PACKETS_LOST, null, "s0", 4);
        assertEquals(1, w.damagedTotal());
        assertEquals(10, w.skippedTotal());
        w.commit();
        try (Store s = Store.open(file)) {
            var rows = s.query("select reason, severity, detail, location, count from skipped order by reason")
                    .rows();
            assertEquals(3, rows.size());
            assertEquals(java.util.List.of("damaged_record", "damaged_input", "trace event: x", "f at byte 5", 1L),
                    java.util.Arrays.asList(rows.get(0)));
            assertEquals(java.util.List.of("kept_generic", "info", "phase 'P'", "f at byte 1", 5L),
                    java.util.Arrays.asList(rows.get(1)));
            assertEquals(java.util.Arrays.asList("packets_lost", "data_loss", null, "s0", 4L),
                    java.util.Arrays.asList(rows.get(2)));
            assertEquals(1L, s.scalarLong("select sum(count) from skipped where " + Schema.SKIPPED_DAMAGE));
        }
    }

    /** A store of schema version 3 keeps free-text reasons: read through Schema.skipped with the columns of now. */
    @Test
    void skippedOfAVersion3StoreReadsWithTheCurrentColumns() throws Exception {
        Path file = dir.resolve("v3.duckdb");
        StoreWriter w = StoreWriter.create(file);
        w.commit();
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:" + file);
             java.sql.Statement st = c.createStatement()) {
            st.execute("DROP TABLE skipped");
            st.execute("CREATE TABLE skipped(what VARCHAR, location VARCHAR, count BIGINT)");
            st.execute("INSERT INTO skipped VALUES ('damaged input: bad line', 'f:3', 2), ('phase P', 'f:1', 5)");
        }
        try (Store s = Store.open(file)) {
            var rows = s.query("select reason, severity, detail, location, count from " + Schema.skipped(s)
                    + " order by count").rows();
            assertEquals(java.util.Arrays.asList("damaged input: bad line", "damaged_input", null, "f:3", 2L),
                    java.util.Arrays.asList(rows.get(0)));
            assertEquals(java.util.Arrays.asList("phase P", null, null, "f:1", 5L), java.util.Arrays.asList(rows.get(1)));
            assertEquals(2L, s.scalarLong("select sum(count) from " + Schema.skipped(s) + " where "
                    + Schema.SKIPPED_DAMAGE));
        }
    }

    @Test
    void nestingDepthAndParentAreComputedAndSlicesAreSorted() throws Exception {
        Path file = dir.resolve("a.duckdb");
        StoreWriter w = StoreWriter.create(file);
        emit(w, 1);
        w.commit();
        try (Store s = Store.open(file)) {
            assertEquals(3000L, s.scalarLong("select count(*) from slice"));
            assertEquals(0L, s.scalarLong("select count(*) from slice where name = 'outer' and depth <> 0"));
            assertEquals(0L, s.scalarLong("select count(*) from slice i join slice o on o.id = i.parent_id "
                    + "where i.name = 'inner' and (i.depth <> 1 or o.name <> 'outer' or i.ts < o.ts)"));
            assertEquals(1500L, s.scalarLong("select count(*) from slice where name = 'inner' and parent_id is not null"));
            assertEquals("x", s.query("select b from extra").rows().get(0)[0]);
            assertEquals("v", s.info().get("k"));
            assertEquals(3L,
                    s.scalarLong("select count from skipped where reason = 'kept_generic' and detail = 'thing'"));
        }
    }

    /** Builds a random call tree under [start, end) and records each slice's depth and parent by construction. */
    private static void tree(TraceSink sink, long track, Random random, long start, long end, int depth, Long parent,
                             java.util.Map<Long, long[]> expected) {
        long t = start;
        while (t < end && random.nextInt(4) != 0) {
            long len = Math.min(end - t, random.nextInt(40));
            long id = sink.newId(Entity.SLICE);
            sink.slice(new Slice(id, track, t, len, "d" + depth, Category.CPU_OP, null, -1, null, null));
            expected.put(id, new long[] {depth, parent == null ? -1 : parent});
            if (depth < 5 && len > 0) {
                tree(sink, track, random, t, t + len, depth + 1, id, expected);
            }
            t += len + random.nextInt(3);
        }
    }

    @Test
    void nestingMatchesTheTreeItWasBuiltFrom() throws Exception {
        Path file = dir.resolve("n.duckdb");
        StoreWriter w = StoreWriter.create(file);
        java.util.Map<Long, long[]> expected = new java.util.HashMap<>();
        Random random = new Random(11);
        for (int t = 0; t < 4; t++) {
            long track = w.newId(Entity.TRACK);
            w.track(Track.of(track, null, TrackKind.THREAD, "t" + t));
            tree(w, track, random, 0, 5_000, 0, null, expected);
        }
        w.commit();
        try (Store s = Store.open(file)) {
            var rows = s.query("select id, depth, coalesce(parent_id, -1) from slice").rows();
            assertEquals(expected.size(), rows.size());
            for (Object[] r : rows) {
                long[] e = expected.get((Long) r[0]);
                assertEquals(e[0], (Long) r[1], "depth of slice " + r[0]);
                assertEquals(e[1], (Long) r[2], "parent of slice " + r[0]);
            }
        }
    }

    @Test
    void pipelinedWritesGiveTheSameStore() throws Exception {
        Path direct = dir.resolve("d.duckdb");
        StoreWriter w1 = StoreWriter.create(direct);
        emit(w1, 2);
        w1.commit();
        Path piped = dir.resolve("p.duckdb");
        StoreWriter w2 = StoreWriter.create(piped);
        PipelinedSink pipe = new PipelinedSink(w2);
        emit(pipe, 2);
        pipe.finish();
        w2.commit();
        String q = "select id, track_id, ts, dur, name, depth, parent_id, args from slice order by id";
        try (Store a = Store.open(direct); Store b = Store.open(piped)) {
            var ra = a.query(q).rows();
            var rb = b.query(q).rows();
            assertEquals(ra.size(), rb.size());
            for (int i = 0; i < ra.size(); i++) {
                assertEquals(java.util.Arrays.asList(ra.get(i)), java.util.Arrays.asList(rb.get(i)));
            }
        }
    }

    @Test
    void writerFailureReachesTheReaderAndAbortLeavesNothing() throws Exception {
        Path file = dir.resolve("f.duckdb");
        StoreWriter w = StoreWriter.create(file);
        PipelinedSink pipe = new PipelinedSink(w);
        pipe.row(TableSpec.parse("undeclared", "x BIGINT"), 1L);
        assertThrows(IllegalArgumentException.class, pipe::finish);
        w.abort();
        assertFalse(Files.exists(file));
        assertFalse(Files.exists(w.partialPath()));
        assertTrue(Files.list(dir).findAny().isEmpty());
    }

    @Test
    void kernelFullNamesAreStoredOnceAndReadBackThroughTheView() throws Exception {
        Path file = dir.resolve("k.duckdb");
        StoreWriter w = StoreWriter.create(file);
        long track = w.newId(Entity.TRACK);
        w.track(Track.of(track, null, TrackKind.STREAM, "s"));
        String longName = "void kernel<" + "T,".repeat(200) + "U>(float*)";
        String[] names = {longName, null, "other(int)", longName, new String(longName.toCharArray()), null};
        Random random = new Random(7);
        long[] grid = new long[names.length];
        for (int i = 0; i < names.length; i++) {
            long slice = w.newId(Entity.SLICE);
            w.slice(new Slice(slice, track, i * 10L, 5, "k" + i, Category.KERNEL, null, -1, null, null));
            grid[i] = 1 + random.nextInt(1000);
            w.kernel(new org.hetscope.model.KernelLaunch(slice, null, 7L, (long) i,
                    new org.hetscope.model.Dim3(grid[i], 1, 1), null, 32, null, null, names[i]));
        }
        w.commit();
        try (Store s = Store.open(file)) {
            // two distinct names, each once, however many dispatches and String objects carried them
            assertEquals(2L, s.scalarLong("select count(*) from kernel_name"));
            Table t = s.query("select k.full_name, k.grid_x, k.stream, k.registers_per_thread from kernel k "
                    + "join slice s on s.id = k.slice_id order by s.ts");
            assertEquals(names.length, t.size());
            for (int i = 0; i < names.length; i++) {
                assertEquals(names[i], t.rows().get(i)[0], "dispatch " + i);
                assertEquals(grid[i], t.rows().get(i)[1]);
                assertEquals(7L, t.rows().get(i)[2]);
                assertEquals(32, ((Number) t.rows().get(i)[3]).intValue());
            }
        }
    }
}
