package org.hetscope.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Random;
import org.hetscope.model.TableSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rows go to DuckDB in Arrow batches laid out by hand ({@link ArrowStream}), or through the driver's appender
 * ({@link AppenderLoader}) where that path is not available; this checks every value that comes back against the
 * values the test generated, over several batches, nulls in every column, multi-byte text and batches cut early
 * by their text size.
 */
class ArrowBatchRoundTripTest {
    private static final TableSpec TYPED_TABLE = TableSpec.parse("typed", "n INTEGER, x DOUBLE");
    private static final TableSpec PAIR_TABLE = TableSpec.parse("pair", "a BIGINT, b BIGINT");
    private static final TableSpec BLOB_ROWS_TABLE = TableSpec.parse("blob_rows", "r BIGINT, t VARCHAR");
    private static final TableSpec NEVER_WRITTEN_TABLE = TableSpec.parse("never_written", "x BIGINT");
    private static final TableSpec SAMPLE_TABLE = TableSpec.parse("sample",
            "r BIGINT, a BIGINT, b INTEGER, c DOUBLE, d BOOLEAN, e VARCHAR, f SMALLINT");
    @TempDir
    Path dir;

    private static final String[] PIECES = {"a", "é", "漢字", "🚀", " ", "\"", "\\", "\n", "x".repeat(40), ""};

    /** The value of column {@code c} in row {@code r}: a pure function, so reading back needs no stored copy. */
    private static Object value(long seed, int r, int c) {
        Random random = new Random(seed * 1_000_003L + r * 31L + c);
        if (random.nextInt(10) == 0) {
            return null;
        }
        return switch (c) {
            case 0 -> random.nextLong();
            case 1 -> random.nextInt();
            case 2 -> switch (random.nextInt(8)) {
                case 0 -> Double.NaN;
                case 1 -> Double.NEGATIVE_INFINITY;
                case 2 -> -0.0;
                default -> random.nextGaussian() * 1e12;
            };
            case 3 -> random.nextBoolean();
            case 4 -> {
                StringBuilder text = new StringBuilder();
                int pieces = random.nextInt(random.nextInt(20) == 0 ? 400 : 12);
                for (int i = 0; i < pieces; i++) {
                    text.append(PIECES[random.nextInt(PIECES.length)]);
                }
                yield text.toString();
            }
            case 5 -> (long) random.nextInt(Short.MAX_VALUE);
            default -> throw new IllegalArgumentException("column " + c);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"arrow-stream", "appender"})
    void everyValueComesBackOverSeveralBatches(String loader) throws Exception {
        long seed = 7;
        int rows = ColumnBatch.ROWS * 2 + 4321;
        Path file = dir.resolve("t.duckdb");
        System.setProperty(BatchLoader.PROPERTY, loader);
        StoreWriter w;
        try {
            w = StoreWriter.create(file);
        } finally {
            System.clearProperty(BatchLoader.PROPERTY);
        }
        assertEquals(loader, w.loaderName());
        w.defineTable(SAMPLE_TABLE);
        w.defineTable(NEVER_WRITTEN_TABLE);
        for (int r = 0; r < rows; r++) {
            Object[] values = new Object[7];
            values[0] = (long) r;
            for (int c = 0; c < 6; c++) {
                values[c + 1] = value(seed, r, c);
            }
            w.row(SAMPLE_TABLE, values);
        }
        w.commit();

        java.util.Properties readOnly = new java.util.Properties();
        readOnly.setProperty("duckdb.read_only", "true");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file, readOnly);
                Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM never_written")) {
                rs.next();
                assertEquals(0, rs.getLong(1));
            }
            try (ResultSet rs = st.executeQuery("SELECT * FROM sample ORDER BY r")) {
                int r = 0;
                while (rs.next()) {
                    assertEquals(r, rs.getLong(1));
                    for (int col = 0; col < 6; col++) {
                        Object expected = value(seed, r, col);
                        Object actual = switch (col) {
                            case 0, 5 -> rs.getLong(col + 2);
                            case 1 -> rs.getInt(col + 2);
                            case 2 -> rs.getDouble(col + 2);
                            case 3 -> rs.getBoolean(col + 2);
                            default -> rs.getString(col + 2);
                        };
                        if (rs.wasNull()) {
                            actual = null;
                        }
                        if (expected == null) {
                            assertNull(actual, "row " + r + " column " + col);
                        } else if (expected instanceof Double d) {
                            assertEquals(Double.doubleToLongBits(d), Double.doubleToLongBits((Double) actual),
                                    "row " + r + " column " + col);
                        } else {
                            assertEquals(expected, actual, "row " + r + " column " + col);
                        }
                    }
                    r++;
                }
                assertEquals(rows, r);
            }
        }
    }

    @Test
    void aBatchCutByItsTextSizeKeepsEveryRow() throws Exception {
        Path file = dir.resolve("text.duckdb");
        StoreWriter w = StoreWriter.create(file);
        w.defineTable(BLOB_ROWS_TABLE);
        String big = "ü".repeat(600_000); // 1.2 MB of UTF-8: the batch is handed over after ~27 rows
        int rows = 200;
        for (int r = 0; r < rows; r++) {
            w.row(BLOB_ROWS_TABLE, (long) r, r + big);
        }
        w.commit();
        try (Store s = Store.open(file)) {
            assertEquals(rows, s.scalarLong("select count(*) from blob_rows"));
            assertEquals(rows, s.scalarLong("select count(*) from blob_rows where t = r::varchar || repeat('ü', 600000)"));
        }
    }

    @Test
    void aRowWithTheWrongNumberOfValuesIsRefused() throws Exception {
        Path file = dir.resolve("bad.duckdb");
        try (StoreWriter w = StoreWriter.create(file)) {
            w.defineTable(PAIR_TABLE);
            assertThrows(IllegalStateException.class, () -> w.row(PAIR_TABLE, 1L));
            assertThrows(IllegalStateException.class, () -> w.row(PAIR_TABLE, 1L, 2L, 3L));
            w.defineTable(TYPED_TABLE);
            StoreException notANumber = assertThrows(StoreException.class, () -> w.row(TYPED_TABLE, "twelve", 1.0));
            org.junit.jupiter.api.Assertions.assertTrue(notANumber.getMessage().contains("typed.n"),
                    notANumber.getMessage());
            StoreException tooBig = assertThrows(StoreException.class, () -> w.row(TYPED_TABLE, 1L << 40, 1.0));
            org.junit.jupiter.api.Assertions.assertTrue(tooBig.getMessage().contains("typed.n"), tooBig.getMessage());
        }
    }
}
