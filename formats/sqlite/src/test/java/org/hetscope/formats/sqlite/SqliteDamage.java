package org.hetscope.formats.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Damage made on purpose to SQLite files by the tests of the readers of SQLite-based traces (this module's, nsys,
 * rocpd): a b-tree page gets the page type 0, which no b-tree page has. Shared through this module's test jar.
 */
public final class SqliteDamage {
    private SqliteDamage() {}

    /** The right-most leaf of a table made unreadable: its page number and how many rows it held. */
    public record LostLeaf(long page, int rows) {}

    /** Breaks the root page of {@code table}. */
    public static void breakRootPage(Path file, String table) throws IOException, SQLException {
        long root = rootPage(file, table);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek((root - 1) * pageSize(f));
            f.writeByte(0x00);
        }
    }

    /**
     * Breaks the right-most leaf of {@code table}, whose root must be an interior page (a table of several pages):
     * the leaf holds the highest rowids, so a reader keeps every row before them.
     */
    public static LostLeaf breakLastLeaf(Path file, String table) throws IOException, SQLException {
        long root = rootPage(file, table);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            int pageSize = pageSize(f);
            f.seek((root - 1) * pageSize);
            assertEquals(0x05, f.readUnsignedByte(), table + " spans several pages: its root is interior");
            f.seek((root - 1) * pageSize + 8);
            long leaf = f.readInt() & 0xFFFFFFFFL;
            f.seek((leaf - 1) * pageSize);
            assertEquals(0x0D, f.readUnsignedByte(), "the root's right-most child is a leaf");
            f.seek((leaf - 1) * pageSize + 3);
            int rows = f.readUnsignedShort();
            f.seek((leaf - 1) * pageSize);
            f.writeByte(0x00);
            return new LostLeaf(leaf, rows);
        }
    }

    private static long rootPage(Path file, String table) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT rootpage FROM sqlite_master WHERE name = '" + table + "'")) {
            if (!rs.next()) {
                throw new IllegalArgumentException("no table " + table + " in " + file);
            }
            return rs.getLong(1);
        }
    }

    /** The page size from the file header (the value 1 stands for 65536). */
    private static int pageSize(RandomAccessFile f) throws IOException {
        f.seek(16);
        int size = f.readUnsignedShort();
        return size == 1 ? 65536 : size;
    }
}
