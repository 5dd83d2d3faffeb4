package org.hetscope.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.hetscope.model.TableSpec;

/**
 * Rows of one table gathered column by column in plain Java arrays, until they go to DuckDB in one piece
 * ({@link BatchLoader}: an Arrow batch, or the driver's appender). Values are converted to the column's type as they arrive, so the store's
 * writer can hand over whatever Java type the model record holds.
 */
final class ColumnBatch {
    /** The column types a batch holds natively; any other SQL type travels as text and DuckDB casts it. */
    enum Type {
        BIGINT("l"),
        INTEGER("i"),
        DOUBLE("g"),
        BOOLEAN("b"),
        VARCHAR("u");

        /** Arrow C data interface format string. */
        final String arrowFormat;

        Type(String arrowFormat) {
            this.arrowFormat = arrowFormat;
        }

        static Type ofSql(String sqlType) {
            return switch (sqlType.toUpperCase(java.util.Locale.ROOT)) {
                case "BIGINT", "INT8", "LONG" -> BIGINT;
                case "INTEGER", "INT", "INT4", "SMALLINT", "TINYINT" -> INTEGER;
                case "DOUBLE", "FLOAT8", "FLOAT", "REAL" -> DOUBLE;
                case "BOOLEAN", "BOOL" -> BOOLEAN;
                default -> VARCHAR;
            };
        }
    }

    /**
     * A column's name, the type the batch holds it in, and its SQL type as the table declares it (the appender
     * needs to know when the two differ).
     */
    record Column(String name, Type type, String sqlType) {
        Column(String name, Type type) {
            this(name, type, type.name());
        }
    }

    /** Rows per batch: large enough that the per-insert cost vanishes, small enough to stay a few MB. */
    static final int ROWS = 1 << 17;
    /** Text bytes per batch before it is handed over early. */
    static final int TEXT_BYTES = 32 << 20;

    /** The declaration this batch holds rows of; null for the store's own work tables. */
    final TableSpec spec;
    final String table;
    final List<Column> columns;
    /** The bit of every column: a row is complete when {@link #touched} has them all. */
    private final long complete;
    /** Columns given a value (or null) in the current row, one bit each. */
    private long touched;
    private final int width;
    private final Type[] types;
    private final long[][] longs;
    private final int[][] ints;
    private final double[][] doubles;
    private final byte[][] text;
    private final int[][] textEnds;
    private final int[] textUsed;
    private final long[][] valid;
    private final int[] nulls;
    private int capacity;
    private int rows;
    private int column;
    private long textBytes;

    /** A batch for a declared table: its columns in declaration order, each value set through its handle. */
    ColumnBatch(TableSpec spec) {
        this(spec, spec.name(), spec.columns().stream()
                .map(c -> new Column(c.name(), Type.ofSql(c.type().name()), c.type().name())).toList());
    }

    ColumnBatch(String table, List<Column> columns) {
        this(null, table, columns);
    }

    private ColumnBatch(TableSpec spec, String table, List<Column> columns) {
        this.spec = spec;
        this.table = table;
        this.columns = List.copyOf(columns);
        this.width = columns.size();
        if (width > 64) {
            throw new IllegalArgumentException(table + ": more than 64 columns");
        }
        this.complete = width == 64 ? -1L : (1L << width) - 1;
        this.types = columns.stream().map(Column::type).toArray(Type[]::new);
        longs = new long[width][];
        ints = new int[width][];
        doubles = new double[width][];
        text = new byte[width][];
        textEnds = new int[width][];
        textUsed = new int[width];
        valid = new long[width][];
        nulls = new int[width];
        for (int c = 0; c < width; c++) {
            if (types[c] == Type.VARCHAR) {
                text[c] = new byte[1024];
            }
        }
        grow(FIRST_ROWS);
    }

    /**
     * Batches start small and double up to {@link #ROWS}, so that a reader's many small side tables do not each
     * hold a full batch's arrays.
     */
    private static final int FIRST_ROWS = 1024;

    private void grow(int rowsWanted) {
        for (int c = 0; c < width; c++) {
            valid[c] = valid[c] == null ? new long[rowsWanted / 64] : Arrays.copyOf(valid[c], rowsWanted / 64);
            switch (types[c]) {
                case BIGINT -> longs[c] = longs[c] == null ? new long[rowsWanted]
                        : Arrays.copyOf(longs[c], rowsWanted);
                case INTEGER, BOOLEAN -> ints[c] = ints[c] == null ? new int[rowsWanted]
                        : Arrays.copyOf(ints[c], rowsWanted);
                case DOUBLE -> doubles[c] = doubles[c] == null ? new double[rowsWanted]
                        : Arrays.copyOf(doubles[c], rowsWanted);
                case VARCHAR -> textEnds[c] = textEnds[c] == null ? new int[rowsWanted]
                        : Arrays.copyOf(textEnds[c], rowsWanted);
            }
        }
        capacity = rowsWanted;
    }

    int rows() {
        return rows;
    }

    private String columnList;

    /**
     * The batch's column names, quoted, in batch order: loaders insert by these names, so a table whose columns
     * stand in another order still gets each value in its own column.
     */
    String columnList() {
        if (columnList == null) {
            columnList = columns.stream().map(c -> "\"" + c.name().replace("\"", "\"\"") + "\"")
                    .collect(java.util.stream.Collectors.joining(", "));
        }
        return columnList;
    }

    int width() {
        return width;
    }

    boolean isFull() {
        return rows == ROWS || textBytes >= TEXT_BYTES;
    }

    ColumnBatch beginRow() {
        if (rows == capacity) {
            if (capacity == ROWS) {
                throw new IllegalStateException("batch of " + table + " is full");
            }
            grow(capacity * 2);
        }
        column = 0;
        touched = 0;
        return this;
    }

    ColumnBatch endRow() {
        if (touched != complete) {
            int c = Long.numberOfTrailingZeros(~touched & complete);
            throw new IllegalStateException(table + ": row has no value for column " + columns.get(c).name()
                    + " (" + Long.bitCount(touched) + " of " + width + " columns given)");
        }
        rows++;
        return this;
    }

    private void checkRoom() {
        if (column == width) {
            throw new IllegalStateException(table + ": more values than the table's " + width + " columns");
        }
    }

    /** Marks column {@code c} given in this row; a second value for it is a bug in the caller. */
    private void touch(int c) {
        long bit = 1L << c;
        if ((touched & bit) != 0) {
            throw new IllegalStateException(where(c) + ": two values in one row");
        }
        touched |= bit;
    }

    /** The batch index of a declared column, which must belong to this batch's table. */
    private int at(TableSpec.Column<?> col) {
        if (col.table() != spec) {
            throw new IllegalArgumentException(col + " is not a column of " + table);
        }
        return col.index();
    }

    ColumnBatch set(TableSpec.Column<?> col, long v) {
        return setLong(at(col), v);
    }

    ColumnBatch set(TableSpec.Column<?> col, double v) {
        return setDouble(at(col), v);
    }

    ColumnBatch set(TableSpec.Column<?> col, Long v) {
        return v == null ? setNull(at(col)) : setLong(at(col), v);
    }

    ColumnBatch set(TableSpec.Column<?> col, Integer v) {
        return v == null ? setNull(at(col)) : setLong(at(col), v);
    }

    ColumnBatch set(TableSpec.Column<?> col, Double v) {
        return v == null ? setNull(at(col)) : setDouble(at(col), v);
    }

    ColumnBatch set(TableSpec.Column<?> col, String v) {
        return setString(at(col), v);
    }

    /** "table.column" of column {@code c}, for messages. */
    private String where(int c) {
        return table + "." + columns.get(c).name();
    }

    private int next() {
        checkRoom();
        return column++;
    }

    ColumnBatch appendNull() {
        return setNull(next());
    }

    ColumnBatch append(long v) {
        return setLong(next(), v);
    }

    ColumnBatch append(int v) {
        return append((long) v);
    }

    ColumnBatch append(Long v) {
        return v == null ? appendNull() : append(v.longValue());
    }

    ColumnBatch append(Integer v) {
        return v == null ? appendNull() : append(v.longValue());
    }

    ColumnBatch append(Double v) {
        return v == null ? appendNull() : append(v.doubleValue());
    }

    ColumnBatch append(double v) {
        return setDouble(next(), v);
    }

    ColumnBatch append(boolean v) {
        return setBoolean(next(), v);
    }

    ColumnBatch append(String v) {
        return setString(next(), v);
    }

    private ColumnBatch setNull(int c) {
        touch(c);
        valid[c][rows >>> 6] &= ~(1L << rows);
        nulls[c]++;
        if (types[c] == Type.VARCHAR) {
            textEnds[c][rows] = textUsed[c];
        }
        return this;
    }

    private void markValid(int c) {
        touch(c);
        valid[c][rows >>> 6] |= 1L << rows;
    }

    private ColumnBatch setLong(int c, long v) {
        switch (types[c]) {
            case BIGINT -> longs[c][rows] = v;
            case INTEGER -> {
                if (v != (int) v) {
                    throw new StoreException(where(c) + ": " + v + " does not fit an INTEGER column");
                }
                ints[c][rows] = (int) v;
            }
            case DOUBLE -> doubles[c][rows] = v;
            case BOOLEAN -> ints[c][rows] = v != 0 ? 1 : 0;
            case VARCHAR -> putText(c, Long.toString(v).getBytes(StandardCharsets.US_ASCII));
        }
        markValid(c);
        return this;
    }

    private ColumnBatch setDouble(int c, double v) {
        switch (types[c]) {
            case DOUBLE -> doubles[c][rows] = v;
            case VARCHAR -> putText(c, Double.toString(v).getBytes(StandardCharsets.US_ASCII));
            default -> throw new IllegalArgumentException(where(c) + ": a double for a " + types[c] + " column");
        }
        markValid(c);
        return this;
    }

    private ColumnBatch setBoolean(int c, boolean v) {
        switch (types[c]) {
            case BOOLEAN, INTEGER -> ints[c][rows] = v ? 1 : 0;
            case BIGINT -> longs[c][rows] = v ? 1 : 0;
            case VARCHAR -> putText(c, (v ? "true" : "false").getBytes(StandardCharsets.US_ASCII));
            default -> throw new IllegalArgumentException(where(c) + ": a boolean for a " + types[c] + " column");
        }
        markValid(c);
        return this;
    }

    private ColumnBatch setString(int c, String v) {
        if (v == null) {
            return setNull(c);
        }
        return switch (types[c]) {
            case VARCHAR -> {
                putText(c, v.getBytes(StandardCharsets.UTF_8));
                markValid(c);
                yield this;
            }
            case BIGINT, INTEGER -> setLong(c, parse(c, v, Long::parseLong).longValue());
            case DOUBLE -> setDouble(c, parse(c, v, Double::parseDouble).doubleValue());
            case BOOLEAN -> setBoolean(c, Boolean.parseBoolean(v.trim()));
        };
    }

    private <T> T parse(int c, String v, java.util.function.Function<String, T> parser) {
        try {
            return parser.apply(v.trim());
        } catch (NumberFormatException e) {
            throw new StoreException(where(c) + ": '" + v + "' is not a number");
        }
    }

    /** Appends any boxed value the sink's generic rows carry; {@code null} is SQL NULL. */
    ColumnBatch appendObject(Object v) {
        if (v == null) {
            return appendNull();
        } else if (v instanceof Long l) {
            return append(l.longValue());
        } else if (v instanceof Integer i) {
            return append(i.intValue());
        } else if (v instanceof Short s) {
            return append(s.longValue());
        } else if (v instanceof Double d) {
            return append(d.doubleValue());
        } else if (v instanceof Float f) {
            return append(f.doubleValue());
        } else if (v instanceof Boolean b) {
            return append(b.booleanValue());
        }
        return append(v.toString());
    }

    private void putText(int c, byte[] bytes) {
        int used = textUsed[c];
        int end = used + bytes.length;
        if (end < 0) {
            throw new IllegalStateException(where(c) + ": more than 2 GB of text in one batch");
        }
        if (end > text[c].length) {
            text[c] = Arrays.copyOf(text[c], Math.max(end, (int) Math.min(Integer.MAX_VALUE - 8, text[c].length * 2L)));
        }
        System.arraycopy(bytes, 0, text[c], used, bytes.length);
        textUsed[c] = end;
        textEnds[c][rows] = end;
        textBytes += bytes.length;
    }

    /** Empties the batch for the next rows; arrays are kept. */
    void clear() {
        for (int c = 0; c < width; c++) {
            Arrays.fill(valid[c], 0, (rows + 63) >>> 6, 0L);
            nulls[c] = 0;
            textUsed[c] = 0;
        }
        rows = 0;
        column = 0;
        touched = 0;
        textBytes = 0;
    }

    int nullCount(int c) {
        return nulls[c];
    }

    long[] validity(int c) {
        return valid[c];
    }

    long[] longs(int c) {
        return longs[c];
    }

    int[] ints(int c) {
        return ints[c];
    }

    double[] doubles(int c) {
        return doubles[c];
    }

    byte[] text(int c) {
        return text[c];
    }

    int textUsed(int c) {
        return textUsed[c];
    }

    /** End offsets of each row's text in {@link #text(int)}: row r spans [end(r-1), end(r)). */
    int[] textEnds(int c) {
        return textEnds[c];
    }
}
