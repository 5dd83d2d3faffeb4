package org.hetscope.formats.sqlite;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.function.Predicate;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/** Recognises SQLite files and opens them read-only, so that importing never changes the user's database. */
public final class SqliteFiles {
    private static final byte[] SQLITE_MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

    private SqliteFiles() {
    }

    /** Whether {@code input} is a regular file that starts with the SQLite header. */
    public static boolean isSqlite(Path input) throws IOException {
        if (!Files.isRegularFile(input) || Files.size(input) < 100) {
            return false;
        }
        byte[] head = new byte[SQLITE_MAGIC.length];
        try (InputStream in = Files.newInputStream(input)) {
            return in.readNBytes(head, 0, head.length) == head.length && Arrays.equals(head, SQLITE_MAGIC);
        }
    }

    /**
     * Whether {@code input} is an SQLite file whose schema passes {@code test}: the format detection of the readers
     * of SQLite-based traces. A file SQLite cannot open is not theirs.
     */
    public static boolean hasSchema(Path input, Predicate<SqliteSchema> test) throws IOException {
        if (!isSqlite(input)) {
            return false;
        }
        try (Connection c = openReadOnly(input)) {
            return test.test(new SqliteSchema(c));
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * As {@link #hasSchema(Path, Predicate)}, and when SQLite cannot read the schema (a file cut short, a damaged
     * schema page), as far as the file scanner reads it: for a reader that reads such files with the scanner.
     */
    public static boolean hasSchemaEvenDamaged(Path input, Predicate<SqliteSchema> test) throws IOException {
        if (hasSchema(input, test)) {
            return true;
        }
        if (!isSqlite(input)) {
            return false;
        }
        try (SqliteFile f = SqliteFile.open(input)) {
            return test.test(SqliteSchema.of(f));
        } catch (SqliteFormatException unreadable) {
            return false;
        }
    }

    /**
     * Why the file scanner finds {@code input} damaged (cut short, schema pages unreadable), naming the page and its
     * byte offset; null when it finds nothing wrong or {@code input} is not an SQLite file. For messages about a file
     * that no reader recognises.
     */
    public static String damage(Path input) throws IOException {
        if (!isSqlite(input)) {
            return null;
        }
        try (SqliteFile f = SqliteFile.open(input)) {
            return f.damage().isEmpty() ? null : f.damage().get(0).getMessage();
        } catch (SqliteFormatException e) {
            return e.getMessage();
        }
    }

    public static Connection openReadOnly(Path file) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setOpenMode(SQLiteOpenMode.READONLY);
        return config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
    }
}
