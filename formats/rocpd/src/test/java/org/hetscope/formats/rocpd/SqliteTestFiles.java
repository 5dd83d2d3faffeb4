package org.hetscope.formats.rocpd;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** What the rocpd and RPD tests do to SQLite files: run a schema script, break a table's root page. */
final class SqliteTestFiles {
    private SqliteTestFiles() {}

    /** Runs the statements of the class-path resource {@code script} (next to this class), skipping comments. */
    static void runScript(Connection c, String script) throws IOException, SQLException {
        try (InputStream in = SqliteTestFiles.class.getResourceAsStream(script); Statement st = c.createStatement()) {
            String ddl = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            for (String sql : ddl.split(";")) {
                String s = sql.lines().filter(l -> !l.startsWith("--")).reduce("", (a, b) -> a + "\n" + b).trim();
                if (!s.isEmpty()) {
                    st.execute(s);
                }
            }
        }
    }

    /** Overwrites the page type of {@code table}'s root page with 0, which no b-tree page has. */
    static void breakRootPage(Path file, String table) throws IOException, SQLException {
        long root;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT rootpage FROM sqlite_master WHERE name = '" + table + "'")) {
            if (!rs.next()) {
                throw new IllegalArgumentException("no table " + table + " in " + file);
            }
            root = rs.getLong(1);
        }
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(16);
            int pageSize = f.readUnsignedShort();
            f.seek((root - 1) * (pageSize == 1 ? 65536 : pageSize));
            f.writeByte(0x00);
        }
    }
}
