package org.hetscope.web;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import org.duckdb.DuckDBChunkedResult;
import org.duckdb.DuckDBColumnType;
import org.duckdb.DuckDBDataChunkReader;
import org.duckdb.DuckDBPreparedStatement;
import org.duckdb.DuckDBReadableVector;
import org.hetscope.store.StoreException;

/**
 * A query result read a data chunk at a time into one primitive array per column: integer columns as {@code long[]},
 * text as {@code String[]}. DuckDB hands whole vectors over, so no per-row JDBC calls or boxed values are made;
 * this is what keeps the window queries' result transfer cheap.
 */
final class Columns {
    private final int rows;
    private final long[][] longs;
    private final String[][] texts;

    private Columns(int rows, long[][] longs, String[][] texts) {
        this.rows = rows;
        this.longs = longs;
        this.texts = texts;
    }

    int rows() {
        return rows;
    }

    /** An integer column; a NULL reads as 0 (the window queries select no nullable integers). */
    long[] longs(int column) {
        if (longs[column] == null) {
            throw new IllegalArgumentException("column " + column + " is not an integer column");
        }
        return longs[column];
    }

    String[] texts(int column) {
        if (texts[column] == null) {
            throw new IllegalArgumentException("column " + column + " is not a text column");
        }
        return texts[column];
    }

    static Columns read(Connection connection, String sql, Object... params) {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            return read(ps, params);
        } catch (SQLException e) {
            throw new StoreException("query failed: " + e.getMessage(), e);
        }
    }

    /** Runs a prepared statement (left open for reuse) with these parameters. */
    static Columns read(PreparedStatement ps, Object... params) {
        try {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (DuckDBChunkedResult result = ps.unwrap(DuckDBPreparedStatement.class).query()) {
                return collect(result);
            }
        } catch (SQLException e) {
            throw new StoreException("query failed: " + e.getMessage(), e);
        }
    }

    private static Columns collect(DuckDBChunkedResult result) {
        int n = (int) result.columnCount();
        long[][] longs = new long[n][];
        String[][] texts = new String[n][];
        int size = 0;
        int capacity = 0;
        while (result.nextChunk()) {
            DuckDBDataChunkReader chunk = result.chunk();
            int count = (int) chunk.rowCount();
            if (size + count > capacity) {
                capacity = Math.max(size + count, capacity * 2);
                grow(longs, texts, capacity);
            }
            for (int c = 0; c < n; c++) {
                DuckDBReadableVector v = chunk.vector(c);
                if (size == 0 && longs[c] == null && texts[c] == null) {
                    if (v.getType() == DuckDBColumnType.VARCHAR) {
                        texts[c] = new String[capacity];
                    } else {
                        longs[c] = new long[capacity];
                    }
                }
                if (texts[c] != null) {
                    String[] out = texts[c];
                    for (int r = 0; r < count; r++) {
                        out[size + r] = v.getString(r);
                    }
                } else {
                    copyIntegers(v, longs[c], size, count);
                }
            }
            size += count;
        }
        for (int c = 0; c < n; c++) {
            if (longs[c] == null && texts[c] == null) {
                // No rows: the column type was never seen; an empty array of either kind serves.
                longs[c] = new long[0];
                texts[c] = new String[0];
            }
        }
        grow(longs, texts, size);
        return new Columns(size, longs, texts);
    }

    private static void grow(long[][] longs, String[][] texts, int capacity) {
        for (int c = 0; c < longs.length; c++) {
            if (longs[c] != null && longs[c].length != capacity) {
                longs[c] = Arrays.copyOf(longs[c], capacity);
            }
            if (texts[c] != null && texts[c].length != capacity) {
                texts[c] = Arrays.copyOf(texts[c], capacity);
            }
        }
    }

    private static void copyIntegers(DuckDBReadableVector v, long[] out, int at, int count) {
        DuckDBColumnType type = v.getType();
        switch (type) {
            case BIGINT -> {
                for (int r = 0; r < count; r++) {
                    out[at + r] = v.getLong(r, 0);
                }
            }
            case INTEGER -> {
                for (int r = 0; r < count; r++) {
                    out[at + r] = v.getInt(r, 0);
                }
            }
            case SMALLINT -> {
                for (int r = 0; r < count; r++) {
                    out[at + r] = v.getShort(r, (short) 0);
                }
            }
            case TINYINT -> {
                for (int r = 0; r < count; r++) {
                    out[at + r] = v.getByte(r, (byte) 0);
                }
            }
            case HUGEINT -> {
                for (int r = 0; r < count; r++) {
                    BigInteger b = v.isNull(r) ? BigInteger.ZERO : v.getHugeInt(r);
                    out[at + r] = b.longValueExact();
                }
            }
            default -> throw new StoreException("column of type " + type + " where an integer was expected");
        }
    }
}
