package org.hetscope.formats.rocpd;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.hetscope.formats.sqlite.SqliteFiles;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceFormatException;
import org.hetscope.model.TraceSink;

/** rocprofiler-sdk (rocprofv3) rocpd SQLite databases ({@code --output-format rocpd}). */
public final class RocpdFormat implements TraceFormat {

    @Override
    public String name() {
        return "rocpd";
    }

    @Override
    public boolean accepts(Path input) throws IOException {
        return SqliteFiles.hasSchema(input, RocpdReader::isRocpd);
    }

    @Override
    public void read(Path input, TraceSink sink, Progress progress) throws IOException, TraceFormatException {
        if (!SqliteFiles.isSqlite(input)) {
            throw new TraceFormatException(input, "offset 0", "not an SQLite database (no 'SQLite format 3' header)");
        }
        try (Connection c = SqliteFiles.openReadOnly(input)) {
            new RocpdReader(input, c, sink, progress).read();
        } catch (SQLException e) {
            throw new TraceFormatException(input, "SQL", "cannot read the rocpd database: " + e.getMessage(), e);
        }
    }
}
