package org.hetscope.formats.nsys;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.hetscope.formats.sqlite.RowSource;
import org.hetscope.formats.sqlite.SqliteFiles;
import org.hetscope.formats.sqlite.SqliteFormatException;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceFormatException;
import org.hetscope.model.TraceSink;

/**
 * Nsight Systems SQLite exports ({@code nsys export --type sqlite}): CUDA runtime/driver calls, kernels,
 * copies, memsets, synchronisation records, NVTX ranges and GPU descriptions. The activity tables are decoded by the
 * pure-Java file scanner of formats/sqlite unless the file needs SQLite itself (WAL, hot journal, UTF-16) or the
 * system property {@code hetscope.sqlite.scanner} is {@code false}, which reads everything through sqlite-jdbc.
 */
public final class NsysFormat implements TraceFormat {
    private final boolean scan;

    public NsysFormat() {
        this(!"false".equals(System.getProperty("hetscope.sqlite.scanner")));
    }

    /** {@code scan}: read the activity tables with the file scanner where it can; false: all through sqlite-jdbc. */
    NsysFormat(boolean scan) {
        this.scan = scan;
    }

    @Override
    public String name() {
        return "nsys";
    }

    @Override
    public boolean accepts(Path input) throws IOException {
        // a file cut short is recognised by what the file scanner reads of its schema, so that the reader keeps its
        // intact tables instead of the whole file being refused as an unknown SQLite database
        return SqliteFiles.hasSchemaEvenDamaged(input, NsysReader::isNsysExport);
    }

    @Override
    public void read(Path input, TraceSink sink, Progress progress) throws IOException, TraceFormatException {
        if (!SqliteFiles.isSqlite(input)) {
            throw new TraceFormatException(input, "offset 0", "not an SQLite database (no 'SQLite format 3' header)");
        }
        try (Connection c = SqliteFiles.openReadOnly(input); RowSource rows = RowSource.open(input, c, scan)) {
            new NsysReader(input, c, rows, sink, progress).read();
        } catch (SqliteFormatException e) {
            throw new TraceFormatException(input, e.page() > 0 ? "page " + e.page() : "SQLite file",
                    e.getMessage(), e);
        } catch (SQLException e) {
            throw new TraceFormatException(input, "SQL", "cannot read the SQLite export: " + e.getMessage(), e);
        }
    }
}
