package org.hetscope.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A plain result table: named columns and rows of values (Long, Double, String, Boolean or null). Analyses
 * return these; front ends print, serialise or draw them.
 */
public final class Table {
    private final String title;
    private final List<String> columns;
    private final List<Object[]> rows;

    public Table(String title, List<String> columns, List<Object[]> rows) {
        this.title = title;
        this.columns = List.copyOf(columns);
        this.rows = Collections.unmodifiableList(rows);
    }

    public static Builder builder(String title, String... columns) {
        return new Builder(title, List.of(columns));
    }

    public String title() {
        return title;
    }

    public List<String> columns() {
        return columns;
    }

    public List<Object[]> rows() {
        return rows;
    }

    public int size() {
        return rows.size();
    }

    public int column(String name) {
        int i = columns.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("no column " + name + " in " + columns);
        }
        return i;
    }

    public Object get(int row, String column) {
        return rows.get(row)[column(column)];
    }

    /** Collects rows of a {@link Table}. */
    public static final class Builder {
        private final String title;
        private final List<String> columns;
        private final List<Object[]> rows = new ArrayList<>();

        Builder(String title, List<String> columns) {
            this.title = title;
            this.columns = columns;
        }

        public Builder row(Object... values) {
            if (values.length != columns.size()) {
                throw new IllegalArgumentException("row has " + values.length + " values for " + columns);
            }
            rows.add(values);
            return this;
        }

        public Table build() {
            return new Table(title, columns, rows);
        }
    }
}
