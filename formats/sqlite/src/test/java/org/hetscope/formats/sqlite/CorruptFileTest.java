package org.hetscope.formats.sqlite;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged files: the scanner stops with an error that names the file and the page, and never loops. */
class CorruptFileTest {
    @TempDir
    Path dir;
    Path db;
    long root;
    int pageSize = 1024;

    @BeforeEach
    void build() throws Exception {
        db = dir.resolve("victim.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             Statement st = c.createStatement()) {
            st.execute("PRAGMA page_size = " + pageSize);
            st.execute("CREATE TABLE k (start INTEGER, \"end\" INTEGER, name TEXT)");
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO k VALUES (?,?,?)")) {
                for (int i = 0; i < 20000; i++) {
                    ps.setLong(1, i * 10L);
                    ps.setLong(2, i * 10L + 5);
                    ps.setString(3, "kernel_" + (i % 13));
                    ps.executeUpdate();
                }
            }
            c.commit();
            try (ResultSet rs = st.executeQuery("SELECT rootpage FROM sqlite_master WHERE name = 'k'")) {
                root = rs.getLong(1);
            }
        }
    }

    private SqliteFormatException scanAll() {
        return assertThrows(SqliteFormatException.class, () -> {
            try (SqliteFile f = SqliteFile.open(db)) {
                TableCursor c = f.cursor("k");
                while (c.next()) {
                    c.getLong(0);
                    c.getText(2);
                }
            }
        });
    }

    private void overwrite(long offset, byte... bytes) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(db.toFile(), "rw")) {
            f.seek(offset);
            f.write(bytes);
        }
    }

    @Test
    void truncatedFile() throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(db.toFile(), "rw")) {
            f.setLength(f.length() / 2 + 100); // also leaves a partial last page
        }
        SqliteFormatException e = scanAll();
        assertTrue(e.getMessage().contains(db.toString()) && e.getMessage().contains("page ")
                && e.getMessage().contains("out of range") && e.page() > 0, e.getMessage());
    }

    @Test
    void pageTypeByteOverwritten() throws Exception {
        overwrite((root - 1) * pageSize, (byte) 0x07);
        SqliteFormatException e = scanAll();
        assertTrue(e.getMessage().contains(db.toString()) && e.getMessage().contains("page " + root + " ")
                && e.getMessage().contains("page type byte 0x07"), e.getMessage());
    }

    @Test
    void interiorPagePointingBackAtItselfIsNoEndlessLoop() throws Exception {
        // the right-most child pointer of the root interior page names the root again
        overwrite((root - 1) * pageSize + 8, (byte) (root >>> 24), (byte) (root >>> 16), (byte) (root >>> 8),
                (byte) root);
        SqliteFormatException e = scanAll();
        assertTrue(e.getMessage().contains(db.toString()) && e.page() == root, e.getMessage());
    }

    @Test
    void notAnSqliteFile() throws Exception {
        Path text = dir.resolve("text.sqlite");
        Files.writeString(text, "x".repeat(200));
        SqliteFormatException e = assertThrows(SqliteFormatException.class, () -> SqliteFile.open(text));
        assertTrue(e.getMessage().contains("not an SQLite database"), e.getMessage());
    }

    @Test
    void leafCellCountTooLargeForThePage() throws Exception {
        long leafPage;
        try (SqliteFile f = SqliteFile.open(db)) {
            leafPage = f.pageCount(); // the last page holds the last rows of the only table
        }
        overwrite((leafPage - 1) * pageSize + 3, (byte) 0x7F, (byte) 0xFF);
        SqliteFormatException e = scanAll();
        assertTrue(e.getMessage().contains("page " + leafPage + " ") && e.getMessage().contains("do not fit"),
                e.getMessage());
    }

    @Test
    void absurdPayloadSizeIsAnErrorNotAnAllocation() throws Exception {
        long leafPage;
        try (SqliteFile f = SqliteFile.open(db)) {
            leafPage = f.pageCount();
        }
        long pageStart = (leafPage - 1) * pageSize;
        int firstCell;
        try (RandomAccessFile f = new RandomAccessFile(db.toFile(), "r")) {
            f.seek(pageStart + 8);
            firstCell = f.readUnsignedShort();
        }
        // a 9-byte varint: a payload of about 2^62 bytes
        overwrite(pageStart + firstCell, (byte) 0xBF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
                (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF);
        SqliteFormatException e = scanAll();
        assertTrue(e.getMessage().contains("page " + leafPage + " ") && e.getMessage().contains("larger than the file"),
                e.getMessage());
    }
}
