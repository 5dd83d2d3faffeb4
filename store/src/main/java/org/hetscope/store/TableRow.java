package org.hetscope.store;

import org.hetscope.model.TableSpec;

/** One row of a declared table as {@link Store#rows} reads it: each value through its column's handle and type. */
public final class TableRow {
    private final TableSpec table;
    private final Object[] values;

    TableRow(TableSpec table, Object[] values) {
        this.table = table;
        this.values = values;
    }

    /** The value of {@code column} (null for SQL NULL) in the column's Java type. */
    public <T> T get(TableSpec.Column<T> column) {
        if (column.table() != table && !column.table().name().equals(table.name())) {
            throw new IllegalArgumentException(column + " is not a column of " + table.name());
        }
        return column.cast(values[column.index()]);
    }

    /** The value of a column that is never NULL in this row; a NULL is an error naming the column. */
    public long getLong(TableSpec.Column<Long> column) {
        Long v = get(column);
        if (v == null) {
            throw new StoreException(column + " is NULL", null);
        }
        return v;
    }
}
