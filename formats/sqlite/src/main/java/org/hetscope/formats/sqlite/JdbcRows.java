package org.hetscope.formats.sqlite;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** {@link TableRows} through sqlite-jdbc: one SELECT of the requested columns (NULL for absent ones). */
final class JdbcRows implements TableRows {
    private final Statement statement;
    private final ResultSet rs;
    /**
     * Values of the current row already fetched to learn whether they are NULL or their storage class, so that reading
     * them next costs no second call into the driver; {@code fetched} marks which.
     */
    private final Object[] values;
    private final boolean[] fetched;

    JdbcRows(Connection db, String table, String[] columns, boolean[] present) throws IOException {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.length; i++) {
            sql.append(i == 0 ? "" : ", ").append(present[i] ? quote(columns[i]) : "NULL");
        }
        sql.append(" FROM ").append(quote(table));
        values = new Object[columns.length];
        fetched = new boolean[columns.length];
        try {
            statement = db.createStatement();
            rs = statement.executeQuery(sql.toString());
        } catch (SQLException e) {
            throw new IOException("cannot read table " + table + ": " + e.getMessage(), e);
        }
    }

    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    @Override
    public boolean next() throws IOException {
        java.util.Arrays.fill(fetched, false);
        try {
            return rs.next();
        } catch (SQLException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    @Override
    public boolean isNull(int column) throws IOException {
        if (fetched[column]) {
            return values[column] == null;
        }
        try {
            Object v = rs.getObject(column + 1);
            values[column] = v;
            fetched[column] = true;
            return v == null;
        } catch (SQLException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    @Override
    public int type(int column) throws IOException {
        try {
            Object v = rs.getObject(column + 1);
            values[column] = v;
            fetched[column] = true;
            return switch (v) {
                case null -> TableCursor.NULL;
                case Integer i -> TableCursor.INTEGER;
                case Long l -> TableCursor.INTEGER;
                case Double d -> TableCursor.FLOAT;
                case Float f -> TableCursor.FLOAT;
                case String t -> TableCursor.TEXT;
                default -> TableCursor.BLOB;
            };
        } catch (SQLException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    @Override
    public long getLong(int column) throws IOException {
        if (fetched[column] && values[column] instanceof Number n) {
            return n.longValue();
        }
        try {
            return rs.getLong(column + 1);
        } catch (SQLException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    @Override
    public String getText(int column) throws IOException {
        try {
            return rs.getString(column + 1);
        } catch (SQLException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    @Override
    public long longOr(int column, long missing) throws IOException {
        if (fetched[column]) {
            return values[column] == null ? missing : getLong(column);
        }
        try {
            long v = rs.getLong(column + 1);
            return rs.wasNull() ? missing : v;
        } catch (SQLException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            statement.close();
        } catch (SQLException e) {
            throw new IOException(e.getMessage(), e);
        }
    }
}
