package org.hetscope.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.hetscope.model.Category;
import org.hetscope.model.Entity;
import org.hetscope.model.Slice;
import org.hetscope.model.TableSpec;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.hetscope.model.Transfer;
import org.hetscope.model.TransferKind;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The writer puts each value in the column of its name, whatever order the table's columns stand in: a table
 * declared with two BIGINT columns swapped (ts and dur of {@code slice}, the device ids of {@code transfer}, two
 * columns of a reader's table), or two VARCHAR ones ({@code skipped}, {@code trace_info}), still gets every value
 * where its name says. Before the tables were declared once,
 * the writer appended in its own fixed order and the loaders inserted by position, so such a swap silently
 * swapped the data.
 */
class ColumnOrderTest {
    private static final TableSpec EXTRA = TableSpec.parse("extra_pair", "first BIGINT, second BIGINT");

    @ParameterizedTest
    @ValueSource(strings = {ArrowStream.NAME, AppenderLoader.NAME})
    void valuesLandInTheirNamedColumnsWhenTwoBigintColumnsAreSwapped(String loader, @TempDir Path dir)
            throws Exception {
        String old = System.getProperty(BatchLoader.PROPERTY);
        System.setProperty(BatchLoader.PROPERTY, loader);
        try {
            Path file = dir.resolve("swapped.duckdb");
            StoreWriter w = StoreWriter.create(file);
            Connection c = connectionOf(w);
            swap(c, "slice", "ts", "dur");
            swap(c, "transfer", "src_device_id", "dst_device_id");
            swap(c, "skipped", "detail", "location");
            swap(c, "source", "path", "format");
            swap(c, "trace_info", "key", "value");
            w.beginSource(file.toString(), "test");
            w.defineTable(EXTRA);
            swap(c, "extra_pair", "first", "second");

            long track = w.newId(Entity.TRACK);
            w.track(Track.of(track, null, TrackKind.THREAD, "t"));
            w.slice(new Slice(w.newId(Entity.SLICE), track, 1_000, 7, "a", Category.CPU_OP, null, -1, null, null));
            w.slice(new Slice(w.newId(Entity.SLICE), track, 2_000, 9, "b", Category.CPU_OP, null, -1, null, null));
            w.transfer(new Transfer(w.newId(Entity.TRANSFER), null, 5_000, 10, 64, TransferKind.HTOD, 1L, 2L, null,
                    null, null, null));
            w.row(EXTRA, 11L, 22L);
            w.skipped(org.hetscope.model.SkipReason.IGNORED_RECORD, "odd event", "file:12", 3);
            w.info("some.key", "some value");
            w.commit();

            try (Store s = Store.open(file)) {
                assertEquals(List.of(List.of(1_000L, 7L, "a"), List.of(2_000L, 9L, "b")),
                        rows(s, "SELECT ts, dur, name FROM slice ORDER BY ts"));
                assertEquals(List.of(List.of(1L, 2L)), rows(s, "SELECT src_device_id, dst_device_id FROM transfer"));
                assertEquals(List.of(List.of(11L, 22L)), rows(s, "SELECT first, second FROM extra_pair"));
                assertEquals(List.of(List.of("ignored_record", "odd event", "file:12", 3L)),
                        rows(s, "SELECT reason, detail, location, count FROM skipped"));
                assertEquals(List.of(List.of("swapped.duckdb", "test")),
                        rows(s, "SELECT regexp_extract(path, '[^/]+$'), format FROM source"));
                assertEquals("some value", s.info().get("some.key"));
                assertEquals("true", s.info().get(StoreWriter.COMPLETE_KEY));
                assertEquals(loader, s.info().get(BatchLoader.INFO_KEY));
            }
        } finally {
            if (old == null) {
                System.clearProperty(BatchLoader.PROPERTY);
            } else {
                System.setProperty(BatchLoader.PROPERTY, old);
            }
        }
    }

    private static List<List<Object>> rows(Store s, String sql) {
        List<List<Object>> out = new ArrayList<>();
        for (Object[] r : s.query(sql).rows()) {
            out.add(List.of(r));
        }
        return out;
    }

    /** The writer's own connection: the table is redeclared in it as a schema with the swap would declare it. */
    private static Connection connectionOf(StoreWriter w) throws Exception {
        Field f = StoreWriter.class.getDeclaredField("connection");
        f.setAccessible(true);
        return (Connection) f.get(w);
    }

    /** Recreates the empty {@code table} with columns {@code a} and {@code b} trading places. */
    private static void swap(Connection c, String table, String a, String b) throws Exception {
        List<String> names = new ArrayList<>();
        List<String> types = new ArrayList<>();
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT column_name, data_type FROM information_schema.columns "
                     + "WHERE table_name = '" + table + "' ORDER BY ordinal_position")) {
            while (rs.next()) {
                names.add(rs.getString(1));
                types.add(rs.getString(2));
            }
        }
        int i = names.indexOf(a);
        int j = names.indexOf(b);
        assertEquals(types.get(i), types.get(j), "swap columns of one type");
        Collections.swap(names, i, j);
        StringBuilder ddl = new StringBuilder("CREATE TABLE " + table + "(");
        for (int k = 0; k < names.size(); k++) {
            ddl.append(k == 0 ? "" : ", ").append(names.get(k)).append(' ').append(types.get(k));
        }
        try (Statement st = c.createStatement()) {
            st.execute("DROP TABLE " + table);
            st.execute(ddl.append(')').toString());
        }
    }
}
