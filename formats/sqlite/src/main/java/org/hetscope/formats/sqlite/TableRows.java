package org.hetscope.formats.sqlite;

import java.io.IOException;

/**
 * The rows of one table, restricted to the columns a reader asked for (by position in its request), whether they
 * come from the file scanner or from sqlite-jdbc. A requested column the table does not have reads as NULL.
 */
public interface TableRows extends AutoCloseable {

    boolean next() throws IOException;

    boolean isNull(int column) throws IOException;

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
