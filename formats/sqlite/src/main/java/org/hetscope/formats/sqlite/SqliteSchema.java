package org.hetscope.formats.sqlite;

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
 * The tables, views and columns an SQLite database actually has. Nsight Systems exports and rocpd databases add,
 * rename and drop tables and columns between versions, so their readers ask this instead of assuming a layout.
 */
public final class SqliteSchema {
    private final Map<String, Set<String>> columns = new LinkedHashMap<>();

    public SqliteSchema(Connection c) throws SQLException {
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

    private SqliteSchema() {
    }

    /**
     * The schema as the file scanner read it, for a file SQLite itself cannot open (cut short, or with a damaged schema
     * page): the tables whose entries were read, with the columns of those whose declaration it understood.
     */
    public static SqliteSchema of(SqliteFile file) {
        SqliteSchema s = new SqliteSchema();
        for (String name : file.tableNames()) {
            Set<String> cols = new LinkedHashSet<>();
            TableDefinition t = file.table(name);
            if (t != null) {
                for (TableDefinition.Column c : t.columns()) {
                    cols.add(c.name().toLowerCase(Locale.ROOT));
                }
            }
            s.columns.put(name, cols);
        }
        return s;
    }

    public boolean has(String table) {
        return columns.containsKey(table);
    }

    public boolean has(String table, String column) {
        Set<String> cols = columns.get(table);
        return cols != null && cols.contains(column.toLowerCase(Locale.ROOT));
    }

    /** {@code column} when the table has it, otherwise {@code fallback} (a SQL expression such as NULL). */
    public String column(String table, String column, String fallback) {
        return has(table, column) ? "\"" + column + "\"" : fallback;
    }

    public Set<String> tables() {
        return columns.keySet();
    }
}
