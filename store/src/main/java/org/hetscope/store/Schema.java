package org.hetscope.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** The DDL of the store (resource {@code schema.sql}, documented in docs/schema.md). */
public final class Schema {
    /** Bumped whenever a table or column changes; stored in {@code trace_info} as {@code schema_version}. */
    public static final int VERSION = 4;

    private Schema() {}

    static void create(Connection connection) throws SQLException {
        String ddl;
        try (InputStream in = Schema.class.getResourceAsStream("schema.sql")) {
            ddl = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException | NullPointerException e) {
            throw new StoreException("schema.sql missing from the hetscope-store jar", e);
        }
        StringBuilder statement = new StringBuilder();
        try (Statement st = connection.createStatement()) {
            for (String line : ddl.split("\n")) {
                if (line.startsWith("--")) {
                    continue;
                }
                statement.append(line).append('\n');
                if (line.trim().endsWith(";")) {
                    st.execute(statement.toString());
                    statement.setLength(0);
                }
            }
        }
    }
}
