package org.hetscope.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The one declaration of a store table: its name, what a row means, and its typed, documented columns in order.
 * The store creates the table from it ({@link #ddl()}), writes rows into it by column, and analyses read it back
 * through its {@link Column} handles. A table is declared by a subclass whose fields are its columns, in order:
 *
 * <pre>{@code
 * public static final class Request extends TableSpec {
 *     public final Column<Long> ts = bigint("ts", "when the request was created (ns)");
 *     public final Column<String> kind = varchar("kind", "fetch, prefetch or idle_fetch");
 *     Request() { super("starpu_request", "memory requests of a task runtime"); }
 * }
 * }</pre>
 *
 * A plain instance built with {@link #of} and the column methods serves tables known only at run time (tests).
 */
public class TableSpec {

    /** A column's SQL type and the Java type its values are read back as. */
    public enum Type {
        BIGINT(Long.class),
        INTEGER(Integer.class),
        SMALLINT(Integer.class),
        DOUBLE(Double.class),
        BOOLEAN(Boolean.class),
        VARCHAR(String.class),
        /** Written as text in DuckDB's timestamp syntax; read back as that text. */
        TIMESTAMP(String.class);

        final Class<?> javaType;

        Type(Class<?> javaType) {
            this.javaType = javaType;
        }
    }

    /** One column: its place in the table, name, type and meaning. */
    public static final class Column<T> {
        private final TableSpec table;
        private final int index;
        private final String name;
        private final Type type;
        private final String doc;

        private Column(TableSpec table, int index, String name, Type type, String doc) {
            this.table = table;
            this.index = index;
            this.name = name;
            this.type = type;
            this.doc = doc;
        }

        public TableSpec table() {
            return table;
        }

        /** Position in {@link TableSpec#columns()}, from 0. */
        public int index() {
            return index;
        }

        public String name() {
            return name;
        }

        public Type type() {
            return type;
        }

        public String doc() {
            return doc;
        }

        /**
         * A value read from the store (any boxed number, text, boolean or null) as this column's Java type:
         * query layers widen INTEGER to Long, which a {@code Column<Integer>} narrows back.
         */
        @SuppressWarnings("unchecked")
        public T cast(Object v) {
            if (v == null) {
                return null;
            }
            return (T) switch (type) {
                case BIGINT -> v instanceof Long ? v : ((Number) v).longValue();
                case INTEGER, SMALLINT -> v instanceof Integer ? v : ((Number) v).intValue();
                case DOUBLE -> v instanceof Double ? v : ((Number) v).doubleValue();
                case BOOLEAN -> (Boolean) v;
                case VARCHAR, TIMESTAMP -> v.toString();
            };
        }

        @Override
        public String toString() {
            return table.name + "." + name;
        }
    }

    private final String name;
    private final String doc;
    private final List<Column<?>> columns = new ArrayList<>();
    private final List<Column<?>> view = Collections.unmodifiableList(columns);
    /** Set once the columns are first read: a declaration in use never changes. */
    private boolean frozen;

    protected TableSpec(String name, String doc) {
        if (!name.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("bad table name '" + name + "'");
        }
        this.name = name;
        this.doc = Objects.requireNonNull(doc);
    }

    /** A table declared at run time; add its columns with the column methods. */
    public static TableSpec of(String name, String doc) {
        return new TableSpec(name, doc);
    }

    /**
     * A table known only at run time (tests, ad-hoc tables) from SQL column definitions such as
     * {@code "a BIGINT, b VARCHAR"}; the types are those of {@link Type}.
     */
    public static TableSpec parse(String name, String columns) {
        TableSpec t = new TableSpec(name, "");
        for (String def : columns.split(",")) {
            String[] p = def.trim().split("\\s+");
            if (p.length != 2) {
                throw new IllegalArgumentException(name + ": column definition '" + def.trim() + "' is not NAME TYPE");
            }
            t.add(p[0], Type.valueOf(p[1].toUpperCase(java.util.Locale.ROOT)), "");
        }
        return t;
    }

    public String name() {
        return name;
    }

    public String doc() {
        return doc;
    }

    public List<Column<?>> columns() {
        frozen = true;
        return view;
    }

    public int width() {
        frozen = true;
        return columns.size();
    }

    /** The column of that name; IllegalArgumentException when there is none. */
    public Column<?> column(String name) {
        for (Column<?> c : columns) {
            if (c.name.equals(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException("no column " + name + " in " + this.name);
    }

    /** The column names, comma-separated and double-quoted, in order: for SELECT and INSERT lists. */
    public String columnList() {
        frozen = true;
        StringBuilder b = new StringBuilder();
        for (Column<?> c : columns) {
            b.append(b.isEmpty() ? "" : ", ").append('"').append(c.name).append('"');
        }
        return b.toString();
    }

    /** {@code CREATE TABLE name(col TYPE, ...)}. */
    public String ddl() {
        frozen = true;
        StringBuilder b = new StringBuilder("CREATE TABLE ").append(name).append('(');
        for (Column<?> c : columns) {
            b.append(c.index == 0 ? "" : ", ").append(c.name).append(' ').append(c.type.name());
        }
        return b.append(')').toString();
    }

    public final <T> Column<T> add(String column, Type type, String doc) {
        if (frozen) {
            throw new IllegalStateException(name + ": columns added after the table was used");
        }
        if (!column.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException(name + ": bad column name '" + column + "'");
        }
        for (Column<?> c : columns) {
            if (c.name.equals(column)) {
                throw new IllegalArgumentException(name + ": column " + column + " declared twice");
            }
        }
        Column<T> c = new Column<>(this, columns.size(), column, type, Objects.requireNonNull(doc));
        columns.add(c);
        return c;
    }

    public final Column<Long> bigint(String column, String doc) {
        return add(column, Type.BIGINT, doc);
    }

    public final Column<Integer> integer(String column, String doc) {
        return add(column, Type.INTEGER, doc);
    }

    public final Column<Double> doubleCol(String column, String doc) {
        return add(column, Type.DOUBLE, doc);
    }

    public final Column<Boolean> bool(String column, String doc) {
        return add(column, Type.BOOLEAN, doc);
    }

    public final Column<String> varchar(String column, String doc) {
        return add(column, Type.VARCHAR, doc);
    }

    /** Same name, same columns (names and types, in order): two declarations of one table. */
    public boolean sameShape(TableSpec other) {
        return other != null && ddl().equals(other.ddl());
    }

    @Override
    public String toString() {
        return ddl();
    }
}
