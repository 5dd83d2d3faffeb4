package org.hetscope.formats.sqlite;

import java.io.IOException;

/** {@link TableRows} straight from the database file through a {@link TableCursor}. */
final class ScannedRows implements TableRows {
    private final TableCursor cursor;
    /** Requested column -> declared column, -1 for columns the table lacks. */
    private final int[] declared;

    ScannedRows(TableCursor cursor, int[] declared) {
        this.cursor = cursor;
        this.declared = declared;
    }

    @Override
    public boolean next() throws IOException {
        return cursor.next();
    }

    @Override
    public boolean isNull(int column) {
        int c = declared[column];
        return c < 0 || cursor.isNull(c);
    }

    @Override
    public int type(int column) {
        int c = declared[column];
        return c < 0 ? TableCursor.NULL : cursor.type(c);
    }

    @Override
    public long getLong(int column) {
        int c = declared[column];
        return c < 0 ? 0 : cursor.getLong(c);
    }

    @Override
    public String getText(int column) {
        int c = declared[column];
        return c < 0 ? null : cursor.getText(c);
    }

    @Override
    public long longOr(int column, long missing) {
        int c = declared[column];
        return c < 0 || cursor.isNull(c) ? missing : cursor.getLong(c);
    }

    @Override
    public void close() {
    }
}
