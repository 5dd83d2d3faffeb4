package org.hetscope.formats.rocpd;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The tables, views and columns a rocpd database actually has. rocprofiler-sdk suffixes table names with a
 * session uuid and changes columns between schema versions, so the reader asks this instead of assuming a layout.
 */
final class SqliteSchema {
    private final Map<String, Set<String>> columns = new LinkedHashMap<>();

    SqliteSchema(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type IN ('table','view')")) {
            while (rs.next()) {
                columns.put(rs.getString(1), null);
            }
        }
        for (String table : columns.keySet()) {
            Set<String> cols = new LinkedHashSet<>();
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("PRAGMA table_info(\"" + table.replace("\"", "\"\"") + "\")")) {
                while (rs.next()) {
                    cols.add(rs.getString("name").toLowerCase(Locale.ROOT));
                }
            }
            columns.put(table, cols);
        }
    }

    boolean has(String table) {
        return columns.containsKey(table);
    }

    boolean has(String table, String column) {
        Set<String> cols = columns.get(table);
        return cols != null && cols.contains(column.toLowerCase(Locale.ROOT));
    }

    /** {@code column} when the table has it, otherwise {@code fallback} (a SQL expression such as NULL). */
    String column(String table, String column, String fallback) {
        return has(table, column) ? "\"" + column + "\"" : fallback;
    }

    Set<String> tables() {
        return columns.keySet();
    }

    /** The view or table for a logical rocpd name: the name itself, else the first {@code name_<uuid>} table. */
    String resolve(String logical) {
        if (columns.containsKey(logical)) {
            return logical;
        }
        for (String t : columns.keySet()) {
            if (t.startsWith(logical + "_") && !t.substring(logical.length() + 1).contains("info")
                    && Character.isLetterOrDigit(t.charAt(t.length() - 1)) && looksLikeUuidSuffix(t, logical)) {
                return t;
            }
        }
        return null;
    }

    private static boolean looksLikeUuidSuffix(String table, String logical) {
        String suffix = table.substring(logical.length() + 1);
        return suffix.chars().allMatch(ch -> Character.isLetterOrDigit(ch) || ch == '_');
    }
}
