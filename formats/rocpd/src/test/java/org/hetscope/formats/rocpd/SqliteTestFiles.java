package org.hetscope.formats.rocpd;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** The schema scripts of the rocpd and RPD test databases. */
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
}
