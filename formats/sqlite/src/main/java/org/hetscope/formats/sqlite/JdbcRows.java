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

    JdbcRows(Connection db, String table, String[] columns, boolean[] present) throws IOException {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.length; i++) {
            sql.append(i == 0 ? "" : ", ").append(present[i] ? quote(columns[i]) : "NULL");
        }
        sql.append(" FROM ").append(quote(table));
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
        try {
            return rs.next();
        } catch (SQLException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    @Override
    public boolean isNull(int column) throws IOException {
        try {
            return rs.getObject(column + 1) == null;
        } catch (SQLException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    @Override
    public int type(int column) throws IOException {
        try {
            return switch (rs.getObject(column + 1)) {
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
