package org.hetscope.formats.nsys;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.sqlite.SQLiteConfig;

/** Opens SQLite files read-only, so that importing never changes the user's export. */
final class SqliteFiles {
    private SqliteFiles() {
    }

    static Connection openReadOnly(Path file) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setOpenMode(org.sqlite.SQLiteOpenMode.READONLY);
        return config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
    }
}
