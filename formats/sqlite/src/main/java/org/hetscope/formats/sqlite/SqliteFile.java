package org.hetscope.formats.sqlite;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Read-only access to the pages of an SQLite database file, without SQLite: the 100-byte header, the schema table
 * on page 1, and a {@link TableCursor} over the b-tree of any rowid table. Pages are read with positioned reads, so
 * files of any size work. Files with a non-empty {@code -wal} or {@code -journal} beside them are refused, because
 * their newest content is not (only) in the main file; read those through SQLite.
 */
public final class SqliteFile implements AutoCloseable {
    private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    /** The fixed layout of sqlite_schema (page 1). */
    static final TableDefinition SCHEMA = CreateTableParser.parse(
            "CREATE TABLE sqlite_schema(type text, name text, tbl_name text, rootpage integer, sql text)");

    private final Path path;
    private final FileChannel channel;
    private final int pageSize;
    private final int usableSize;
    private final long pageCount;
    private final Map<String, TableDefinition> tables = new LinkedHashMap<>();
    private final Map<String, Long> rootPages = new LinkedHashMap<>();
    /** Table names as written, to their lower-case keys. */
    private final Map<String, String> names = new LinkedHashMap<>();
    /** Damage met while opening: the file cut short of its declared size, schema pages that could not be read. */
    private final java.util.List<SqliteFormatException> damage = new java.util.ArrayList<>();

    private SqliteFile(Path path, FileChannel channel, int pageSize, int usableSize, long pageCount) {
        this.path = path;
        this.channel = channel;
        this.pageSize = pageSize;
        this.usableSize = usableSize;
        this.pageCount = pageCount;
    }

    /**
     * Whether changes may sit outside the main file: a non-empty write-ahead log or rollback journal beside it
     * (a WAL file must be replayed, a hot journal rolled back, both only SQLite itself does).
     */
    public static boolean hasPendingChanges(Path file) throws IOException {
        for (String suffix : new String[] {"-wal", "-journal"}) {
            Path side = file.resolveSibling(file.getFileName() + suffix);
            if (Files.isRegularFile(side) && Files.size(side) > 0) {
                return true;
            }
        }
        return false;
    }

    /** Opens {@code file}, checks its header and reads its schema. */
    public static SqliteFile open(Path file) throws IOException {
        if (hasPendingChanges(file)) {
            throw new SqliteFormatException(file, "has a non-empty -wal or -journal file beside it; its current "
                    + "content can only be read through SQLite");
        }
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        try {
            SqliteFile f = fromHeader(file, channel);
            f.readSchema();
            return f;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private static SqliteFile fromHeader(Path file, FileChannel channel) throws IOException {
        long size = channel.size();
        byte[] h = new byte[100];
        if (size < 100 || channel.read(ByteBuffer.wrap(h), 0) < 100) {
            throw new SqliteFormatException(file, "shorter than the 100-byte SQLite header");
        }
        if (!Arrays.equals(h, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new SqliteFormatException(file, "not an SQLite database (no 'SQLite format 3' header)");
        }
        int declared = ((h[16] & 0xFF) << 8) | (h[17] & 0xFF);
        int pageSize = declared == 1 ? 65536 : declared;
        if (pageSize < 512 || pageSize > 65536 || Integer.bitCount(pageSize) != 1) {
            throw new SqliteFormatException(file, "header offset 16: invalid page size " + declared);
        }
        if ((h[19] & 0xFF) > 2) {
            throw new SqliteFormatException(file, "header offset 19: read format version " + (h[19] & 0xFF)
                    + " is newer than this reader knows (1 or 2)");
        }
        int usable = pageSize - (h[20] & 0xFF);
        if (usable < 480) {
            throw new SqliteFormatException(file, "header offset 20: " + (h[20] & 0xFF)
                    + " reserved bytes per page leave fewer than 480 usable bytes");
        }
        int encoding = ByteBuffer.wrap(h, 56, 4).getInt();
        if (encoding == 2 || encoding == 3) {
            throw new SqliteFormatException(file, "text encoding is UTF-16" + (encoding == 2 ? "le" : "be")
                    + "; the file scanner reads UTF-8 databases only");
        }
        if (encoding != 0 && encoding != 1) {
            throw new SqliteFormatException(file, "header offset 56: unknown text encoding " + encoding);
        }
        if (size < pageSize) {
            throw new SqliteFormatException(file, 1, 0, "file truncated: " + size + " bytes, less than its first page "
                    + "of " + pageSize + " bytes (the page size its header declares)");
        }
        SqliteFile f = new SqliteFile(file, channel, pageSize, usable, size / pageSize);
        // The header's page count is valid when its version-valid-for number equals the change counter (SQLite
        // 3.7.0 and later): a file shorter than that was cut short.
        long declaredPages = ByteBuffer.wrap(h, 28, 4).getInt() & 0xFFFFFFFFL;
        boolean valid = ByteBuffer.wrap(h, 92, 4).getInt() == ByteBuffer.wrap(h, 24, 4).getInt();
        if (valid && declaredPages > 0 && declaredPages * pageSize > size) {
            long firstMissing = size / pageSize + 1;
            f.damage.add(new SqliteFormatException(file, firstMissing, (firstMissing - 1) * pageSize, "file truncated: "
                    + "the header declares " + declaredPages + " pages of " + pageSize + " bytes (" + declaredPages
                    + " * " + pageSize + " = " + declaredPages * pageSize + " bytes), the file has " + size
                    + " bytes; pages " + firstMissing + " to " + declaredPages + " are missing"
                    + (size % pageSize != 0 ? " (page " + firstMissing + " in part)" : "")));
        }
        return f;
    }

    private void readSchema() throws IOException {
        // A schema page that cannot be read loses the tables described on it, not the file (page 1 still must be read)
        TableCursor c = new TableCursor(this, SCHEMA, 1).skipDamagedPages(e -> damage.add(new SqliteFormatException(
                path, e.page(), e.fileOffset(), "schema page unreadable, the tables it describes are not read ("
                        + e.reason() + ")")));
        while (c.next()) {
            String name = c.getText(1);
            String sql = c.getText(4);
            long root = c.getLong(3);
            if (!"table".equals(c.getText(0)) || name == null || sql == null || root <= 0) {
                continue; // views, indexes, triggers and virtual tables have no rowid b-tree of their own
            }
            String key = name.toLowerCase(Locale.ROOT);
            names.put(name, key);
            rootPages.put(key, root);
            try {
                tables.put(key, CreateTableParser.parse(sql));
            } catch (IllegalArgumentException notUnderstood) {
                tables.put(key, null); // left to sqlite-jdbc
            }
        }
    }

    public Path path() {
        return path;
    }

    /**
     * Damage found while opening, each naming the page and its byte offset: a file shorter than its header declares
     * (truncated), schema pages that could not be read (the tables described there are unknown to the scanner).
     */
    public java.util.List<SqliteFormatException> damage() {
        return java.util.List.copyOf(damage);
    }

    /** The names of the tables whose schema entry was read (declaration understood or not), as written. */
    public java.util.Set<String> tableNames() {
        return java.util.Collections.unmodifiableSet(names.keySet());
    }

    public int pageSize() {
        return pageSize;
    }

    /** Page size less the reserved bytes at the end of every page. */
    public int usableSize() {
        return usableSize;
    }

    /** Whole pages in the file. */
    public long pageCount() {
        return pageCount;
    }

    /** The declaration of table {@code name} (case-insensitive), or null if absent or not understood. */
    public TableDefinition table(String name) {
        return tables.get(name.toLowerCase(Locale.ROOT));
    }

    /** The tables whose CREATE TABLE text was understood. */
    public Collection<TableDefinition> tables() {
        return tables.values().stream().filter(t -> t != null).toList();
    }

    /** Whether the cursor can read table {@code name}: a rowid table whose declaration was understood. */
    public boolean canScan(String name) {
        TableDefinition t = table(name);
        return t != null && t.scannable();
    }

    /** A cursor over the rows of {@code table} in rowid order. */
    public TableCursor cursor(String table) throws SqliteFormatException {
        TableDefinition t = table(table);
        if (t == null || !t.scannable()) {
            throw new SqliteFormatException(path, "table " + table + (t == null ? " is absent or its declaration "
                    + "was not understood" : " is a WITHOUT ROWID table or has virtual columns") + ": read it "
                    + "through SQLite");
        }
        return new TableCursor(this, t, rootPages.get(table.toLowerCase(Locale.ROOT)));
    }

    /** The number of rows of {@code table}, counted from the leaf page headers. */
    public long rowCount(String table) throws IOException {
        return cursor(table).countRemaining();
    }

    /** Copies page {@code page} (1-based) into {@code into}, which holds at least one page. */
    void readPage(long page, byte[] into) throws IOException {
        if (page < 1 || page > pageCount) {
            throw new SqliteFormatException(path, page, (page - 1) * pageSize, "page number out of range: the file "
                    + "holds " + pageCount + " whole pages of " + pageSize + " bytes (truncated file?)");
        }
        ByteBuffer b = ByteBuffer.wrap(into, 0, pageSize);
        long at = (page - 1) * pageSize;
        while (b.hasRemaining()) {
            int n = channel.read(b, at + b.position());
            if (n < 0) {
                throw new SqliteFormatException(path, page, at + b.position(), "file ends inside the page");
            }
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
