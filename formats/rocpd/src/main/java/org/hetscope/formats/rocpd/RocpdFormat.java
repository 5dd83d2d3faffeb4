package org.hetscope.formats.rocpd;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.hetscope.formats.sqlite.RowSource;
import org.hetscope.formats.sqlite.SqliteFiles;
import org.hetscope.formats.sqlite.SqliteFormatException;
import org.hetscope.formats.sqlite.SqliteSchema;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceFormatException;
import org.hetscope.model.TraceSink;

/**
 * rocpd SQLite databases: rocprofiler-sdk's (rocprofv3 {@code --output-format rocpd}, schema version 3) and the
 * older RPD layout of ROCm's rocmProfileData tools (rpd_tracer, {@code .rpd} files), told apart by their tables.
 * RPD tables are decoded by the pure-Java file scanner of formats/sqlite unless the file needs SQLite itself or the
 * system property {@code hetscope.sqlite.scanner} is {@code false}.
 */
public final class RocpdFormat implements TraceFormat {
    private final boolean scan;

    public RocpdFormat() {
        this(!"false".equals(System.getProperty("hetscope.sqlite.scanner")));
    }

    /** {@code scan}: read RPD tables with the file scanner where it can; false: all through sqlite-jdbc. */
    RocpdFormat(boolean scan) {
        this.scan = scan;
    }

    @Override
    public String name() {
        return "rocpd";
    }

    @Override
    public boolean accepts(Path input) throws IOException {
        return SqliteFiles.hasSchema(input, s -> RocpdReader.isRocpd(s) || RpdReader.isRpd(s));
    }

    @Override
    public void read(Path input, TraceSink sink, Progress progress) throws IOException, TraceFormatException {
        if (!SqliteFiles.isSqlite(input)) {
            throw new TraceFormatException(input, "offset 0", "not an SQLite database (no 'SQLite format 3' header)");
        }
        try (Connection c = SqliteFiles.openReadOnly(input)) {
            SqliteSchema schema;
            try {
                schema = new SqliteSchema(c);
            } catch (SQLException e) {
                // SQLite refuses a file shorter than its header's page count before reading any table
                throw new TraceFormatException(input, "sqlite_master", "cannot read the database schema (truncated "
                        + "or damaged file?): " + e.getMessage(), e);
            }
            if (RpdReader.isRpd(schema)) {
                try (RowSource rows = RowSource.open(input, c, scan)) {
                    new RpdReader(input, rows, sink, progress).read(schema);
                }
            } else {
                new RocpdReader(input, c, sink, progress).read();
            }
        } catch (SqliteFormatException e) {
            throw new TraceFormatException(input, e.page() > 0 ? "page " + e.page() : "SQLite file",
                    e.getMessage(), e);
        } catch (SQLException e) {
            throw new TraceFormatException(input, "SQL", "cannot read the rocpd database: " + e.getMessage(), e);
        }
    }
}
