package org.hetscope.formats.nsys;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.hetscope.formats.sqlite.SqliteFiles;
import org.hetscope.formats.sqlite.SqliteSchema;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceFormatException;
import org.hetscope.model.TraceSink;

/**
 * Nsight Systems SQLite exports ({@code nsys export --type sqlite}): CUDA runtime/driver calls, kernels,
 * copies, memsets, synchronisation records, NVTX ranges and GPU descriptions.
 */
public final class NsysFormat implements TraceFormat {

    @Override
    public String name() {
        return "nsys";
    }

    @Override
    public boolean accepts(Path input) throws IOException {
        if (!SqliteFiles.isSqlite(input)) {
            return false;
        }
        try (Connection c = SqliteFiles.openReadOnly(input)) {
            return NsysReader.isNsysExport(new SqliteSchema(c));
        } catch (SQLException e) {
            return false;
        }
    }

    @Override
    public void read(Path input, TraceSink sink, Progress progress) throws IOException, TraceFormatException {
        if (!SqliteFiles.isSqlite(input)) {
            throw new TraceFormatException(input, "offset 0", "not an SQLite database (no 'SQLite format 3' header)");
        }
        try (Connection c = SqliteFiles.openReadOnly(input)) {
            new NsysReader(input, c, sink, progress).read();
        } catch (SQLException e) {
            throw new TraceFormatException(input, "SQL", "cannot read the SQLite export: " + e.getMessage(), e);
        }
    }
}
