package org.hetscope.formats.sqlite;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;
import org.hetscope.model.SkipReason;
import org.hetscope.model.TraceSink;

/**
 * Reads the tables of one SQLite file one at a time, so that a damaged page cuts only its own table short: what
 * was read of that table before the damage is kept, the rest is reported as damage
 * ({@link TraceSink#damaged}) with the file, the table and the page (where the file scanner read it; through
 * sqlite-jdbc, SQLite's own reason without the page), and the reader goes on with the next table. A file whose schema
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

    /**
     * Runs {@code read}; damage in the file ends only this table's read. Damage arrives three ways: as a
     * {@link SqliteFormatException} from the file scanner (it names the page), as an {@link SQLException} from a
     * reader's own JDBC query, and as an {@link IOException} around an SQLException from the rows of the JDBC fallback
     * ({@link TableRows} may throw only IOException). All three are counted alike; any other IOException (the file
     * could not be read at all, not a damaged page in it) still ends the import.
     */
    public void read(String table, Read read) throws IOException {
        long before = rowsRead.getAsLong();
        try {
            read.run();
        } catch (SqliteFormatException e) {
            String where = e.page() > 0 ? file + " page " + e.page() + ", table " + table : file + " table " + table;
            damaged(table, before, where, e.getMessage());
        } catch (SQLException e) {
            damaged(table, before, file + " table " + table, sqliteSays(e));
        } catch (IOException e) {
            SQLException cause = sqlCause(e);
            if (cause == null) {
                throw e;
            }
            damaged(table, before, file + " table " + table, sqliteSays(cause));
        }
    }

    /**
     * SQLite's own words, which name the kind of fault ({@code [SQLITE_CORRUPT] ... malformed}) but neither the file
     * (given in {@code where}) nor the page: sqlite-jdbc does not say which page it found damaged.
     */
    private static String sqliteSays(SQLException e) {
        return "SQLite through JDBC, page not known: " + e.getMessage();
    }

    /** The SQLException that {@code e} wraps (JdbcRows and RowSource wrap with the same message), or null. */
    private static SQLException sqlCause(Throwable e) {
        for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof SQLException s) {
                return s;
            }
        }
        return null;
    }

    private void damaged(String table, long before, String where, String reason) {
        long expected = rowCount.applyAsLong(table);
        long kept = rowsRead.getAsLong() - before;
        if (expected > kept) {
            sink.skipped(SkipReason.DAMAGED_PAGE, table, where + ": " + reason, expected - kept);
        } else {
            // the damage also stops the count of the table's rows: one entry, the number lost is unknown
            sink.skipped(SkipReason.DAMAGED_PAGE, table + " (rows lost unknown)", where + ": " + reason, 1);
        }
    }
}
