package org.hetscope.formats.sqlite;

import java.io.IOException;

/**
 * The rows of one table, restricted to the columns a reader asked for (by position in its request), whether they
 * come from the file scanner or from sqlite-jdbc. A requested column the table does not have reads as NULL.
 */
public interface TableRows extends AutoCloseable {

    boolean next() throws IOException;

    boolean isNull(int column) throws IOException;

    /**
     * The storage class of the value: {@link TableCursor#NULL}, {@link TableCursor#INTEGER}, {@link TableCursor#FLOAT},
     * {@link TableCursor#TEXT} or {@link TableCursor#BLOB}. Readers ask it where {@link #getLong} alone would turn
     * damage into a number silently (text reads as its leading digits or 0, a huge real as Long.MAX_VALUE).
     */
    int type(int column) throws IOException;

    /** Whether the value is stored as an integer, so that {@link #getLong} is exactly it. */
    default boolean isInteger(int column) throws IOException {
        return type(column) == TableCursor.INTEGER;
    }

    /** The value as an integer; 0 for NULL, as JDBC's getLong. */
    long getLong(int column) throws IOException;

    /** The value as text, or null. */
    String getText(int column) throws IOException;

    /** The integer value, or {@code missing} for NULL. */
    default long longOr(int column, long missing) throws IOException {
        return isNull(column) ? missing : getLong(column);
    }

    /** The integer value boxed, or null for NULL. */
    default Long longOrNull(int column) throws IOException {
        return isNull(column) ? null : getLong(column);
    }

    @Override
    void close() throws IOException;
}
