package org.hetscope.formats.rocpd;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import org.hetscope.formats.sqlite.SqliteSchema;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceFormatException;
import org.hetscope.model.TraceSink;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/** rocprofiler-sdk (rocprofv3) rocpd SQLite databases ({@code --output-format rocpd}). */
public final class RocpdFormat implements TraceFormat {
    private static final byte[] SQLITE_MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

    @Override
    public String name() {
        return "rocpd";
    }

    @Override
    public boolean accepts(Path input) throws IOException {
        if (!isSqlite(input)) {
            return false;
        }
        try (Connection c = open(input)) {
            return RocpdReader.isRocpd(new SqliteSchema(c));
        } catch (SQLException e) {
            return false;
        }
    }

    static boolean isSqlite(Path input) throws IOException {
        if (!Files.isRegularFile(input) || Files.size(input) < 100) {
            return false;
        }
        byte[] head = new byte[SQLITE_MAGIC.length];
        try (InputStream in = Files.newInputStream(input)) {
            return in.readNBytes(head, 0, head.length) == head.length && Arrays.equals(head, SQLITE_MAGIC);
        }
    }

    static Connection open(Path file) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setOpenMode(SQLiteOpenMode.READONLY);
        return config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
    }

    @Override
    public void read(Path input, TraceSink sink, Progress progress) throws IOException, TraceFormatException {
        if (!isSqlite(input)) {
            throw new TraceFormatException(input, "offset 0", "not an SQLite database (no 'SQLite format 3' header)");
        }
        try (Connection c = open(input)) {
            new RocpdReader(input, c, sink, progress).read();
        } catch (SQLException e) {
            throw new TraceFormatException(input, "SQL", "cannot read the rocpd database: " + e.getMessage(), e);
        }
    }
}
