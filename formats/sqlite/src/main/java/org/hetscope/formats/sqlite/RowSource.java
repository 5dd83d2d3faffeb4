package org.hetscope.formats.sqlite;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Hands out the rows of big tables: from the {@link SqliteFile} scanner where it can read the table, otherwise
 * through the JDBC connection (WAL or hot journal beside the file, UTF-16 text, WITHOUT ROWID tables, declarations
 * the scanner does not understand, or the scanner switched off).
 */
public final class RowSource implements AutoCloseable {
    private final Connection db;
    private final SqliteFile scanner;
    /** Why the scanner could not open the file (it names the page), or null. */
    private final SqliteFormatException scannerRefusal;
    /** Where pages stepped over in the tables go; null: damage ends the table's rows. */
    private java.util.function.BiConsumer<String, SqliteFormatException> skippedPages;

    private RowSource(Connection db, SqliteFile scanner, SqliteFormatException scannerRefusal) {
        this.db = db;
        this.scanner = scanner;
        this.scannerRefusal = scannerRefusal;
    }

    /**
     * Rows of tables read by the scanner step over child pages that cannot be read (see
     * {@link TableCursor#skipDamagedPages}); each such page goes to {@code onSkipped} with its table.
     */
    public RowSource skipDamagedPages(java.util.function.BiConsumer<String, SqliteFormatException> onSkipped) {
        this.skippedPages = onSkipped;
        return this;
    }

    /** The schema as the scanner read it (see {@link SqliteSchema#of}), or null without the scanner. */
    public SqliteSchema scannedSchema() {
        return scanner == null ? null : SqliteSchema.of(scanner);
    }

    /** Damage the scanner found on opening (truncation, schema pages), each with its page; empty without it. */
    public java.util.List<SqliteFormatException> fileDamage() {
        return scanner == null ? java.util.List.of() : scanner.damage();
    }

    /** Why the scanner could not open the file, naming the page where it can; null when it did or was not asked to. */
    public SqliteFormatException scannerRefusal() {
        return scannerRefusal;
    }

    /** Rows of {@code file} through {@code db}, and through the scanner where possible if {@code scan}. */
    public static RowSource open(Path file, Connection db, boolean scan) throws IOException {
        SqliteFile f = null;
        SqliteFormatException refusal = null;
        if (scan) {
            try {
                f = SqliteFile.open(file);
            } catch (SqliteFormatException leftToSqlite) {
                refusal = leftToSqlite;
            }
        }
        return new RowSource(db, f, refusal);
    }

    /** Whether rows of {@code table} come from the file scanner. */
    public boolean scans(String table) {
        return scanner != null && scanner.canScan(table);
    }

    /**
     * The rows of {@code table} with {@code columns} in that order; a null or absent column reads as NULL. Rows come
     * in rowid order from the scanner, in SQLite's table scan order (also rowid order) through JDBC.
     */
    public TableRows rows(String table, String... columns) throws IOException {
        if (scans(table)) {
            TableDefinition t = scanner.table(table);
            int[] declared = new int[columns.length];
            for (int i = 0; i < columns.length; i++) {
                declared[i] = columns[i] == null ? -1 : t.indexOf(columns[i]);
            }
            TableCursor cursor = scanner.cursor(table);
            if (skippedPages != null) {
                cursor.skipDamagedPages(e -> skippedPages.accept(table, e));
            }
            return new ScannedRows(cursor, declared);
        }
        boolean[] present = new boolean[columns.length];
        try (Statement st = db.createStatement();
             ResultSet rs = st.executeQuery("PRAGMA table_info(" + JdbcRows.quote(table) + ")")) {
            Set<String> names = new HashSet<>();
            while (rs.next()) {
                names.add(rs.getString("name").toLowerCase(Locale.ROOT));
            }
            for (int i = 0; i < columns.length; i++) {
                present[i] = columns[i] != null && names.contains(columns[i].toLowerCase(Locale.ROOT));
            }
        } catch (SQLException e) {
            throw new IOException("cannot read the columns of " + table + ": " + e.getMessage(), e);
        }
        return new JdbcRows(db, table, columns, present);
    }

    /**
     * Rows of {@code table} for a progress total: 0 when {@code schema} lacks it or counting meets damage (the
     * damage is reported when the table is read).
     */
    public long countForProgress(SqliteSchema schema, String table) {
        if (!schema.has(table)) {
            return 0;
        }
        try {
            return count(table);
        } catch (IOException e) {
            return 0;
        }
    }

    /** Rows in {@code table}; 0 if absent. */
    public long count(String table) throws IOException {
        if (scans(table)) {
            return scanner.rowCount(table);
        }
        try (Statement st = db.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM " + JdbcRows.quote(table))) {
            return rs.next() ? rs.getLong(1) : 0;
        } catch (SQLException e) {
            return 0;
        }
    }

    @Override
    public void close() throws IOException {
        if (scanner != null) {
            scanner.close();
        }
    }
}
