package org.hetscope.formats.sqlite;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;
import org.hetscope.model.TraceSink;

/**
 * Reads the tables of one SQLite file one at a time, so that a damaged page cuts only its own table short: what
 * was read of that table before the damage is kept, the rest is reported as damage
 * ({@link TraceSink#damaged}) with the page, and the reader goes on with the next table. A file whose schema
 * cannot be read is still refused as a whole by the reader.
 */
public final class TableByTable {
    /** The read of one table (through the file scanner or JDBC). */
    public interface Read {
        void run() throws SQLException, IOException;
    }

    private final Path file;
    private final TraceSink sink;
    private final LongSupplier rowsRead;
    private final ToLongFunction<String> rowCount;

    /**
     * @param rowsRead rows the reader has read so far over all tables (what a cut table kept is the difference)
     * @param rowCount a table's number of rows, or 0 or -1 when unknown (the count may meet the same damage)
     */
    public TableByTable(Path file, TraceSink sink, LongSupplier rowsRead, ToLongFunction<String> rowCount) {
        this.file = file;
        this.sink = sink;
        this.rowsRead = rowsRead;
        this.rowCount = rowCount;
    }

    /** Runs {@code read}; damage in the file ends only this table's read. */
    public void read(String table, Read read) throws IOException {
        long before = rowsRead.getAsLong();
        try {
            read.run();
        } catch (SqliteFormatException | SQLException e) {
            long expected = rowCount.applyAsLong(table);
            long kept = rowsRead.getAsLong() - before;
            String where = e instanceof SqliteFormatException f && f.page() > 0
                    ? file + " page " + f.page() + ", table " + table : file + " table " + table;
            if (expected > kept) {
                sink.damaged("rows of " + table + " after a damaged SQLite page (" + e.getMessage() + ")", where,
                        expected - kept);
            } else {
                // the damage also stops the count of the table's rows: one entry, the number lost is unknown
                sink.damaged("rest of " + table + " after a damaged SQLite page, rows lost unknown ("
                        + e.getMessage() + ")", where, 1);
            }
        }
    }
}
