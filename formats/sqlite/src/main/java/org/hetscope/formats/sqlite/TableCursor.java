package org.hetscope.formats.sqlite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Walks the b-tree of one rowid table in rowid order and decodes its rows on demand: {@link #next()} finds the
 * record and reads its header (serial types and offsets), the getters decode only the column asked for, straight
 * from the page bytes. Nothing is allocated per row except the Strings and arrays that {@link #getText} and
 * {@link #getBlob} return, and the buffer of a record that spills onto overflow pages when it is the largest so far.
 * Column indexes are those of the CREATE TABLE statement; resolve names once with {@link #column(String)}.
 */
public final class TableCursor {
    /** Storage classes, as {@link #type(int)} returns them. */
    public static final int NULL = 0;
    public static final int INTEGER = 1;
    public static final int FLOAT = 2;
    public static final int TEXT = 3;
    public static final int BLOB = 4;

    private static final int LEAF = 0x0D;
    private static final int INTERIOR = 0x05;
    private static final int MAX_DEPTH = 64;
    /** Marks in {@link #types}: the column is missing from an old record, or it is the rowid alias. */
    private static final int MISSING = -1;
    private static final int ROWID = -2;

    private final SqliteFile file;
    private final TableDefinition table;
    private final long root;
    private final int pageSize;
    private final int usable;
    private final int columns;
    private final boolean[] real;
    private final Object[] defaults;

    // the path from the root to the current leaf
    private final byte[][] interior = new byte[MAX_DEPTH][];
    private final long[] interiorPage = new long[MAX_DEPTH];
    private final int[] interiorHeader = new int[MAX_DEPTH];
    private final int[] interiorCells = new int[MAX_DEPTH];
    private final int[] nextChild = new int[MAX_DEPTH];
    private int depth;
    private byte[] leaf;
    private long leafPage;
    private int leafHeader;
    private int leafCells;
    private int nextCell;
    private long pagesVisited;
    private boolean started;
    /** Receives the damage of a child page that is stepped over; null: damage ends the walk. */
    private java.util.function.Consumer<SqliteFormatException> skipped;

    // the current row
    private byte[] record;
    private long recordPage;
    private int recordStart;
    /** Where the current row's cell starts on its leaf page (errors in a spilled record point there). */
    private int recordCell;
    private int recordEnd;
    private long rowid;
    private final int[] types;
    private final int[] offsets;
    private byte[] spill = new byte[0];
    private byte[] overflowPage;
    private int varintEnd;

    TableCursor(SqliteFile file, TableDefinition table, long root) {
        this.file = file;
        this.table = table;
        this.root = root;
        this.pageSize = file.pageSize();
        this.usable = file.usableSize();
        this.columns = table.columns().size();
        this.real = new boolean[columns];
        this.defaults = new Object[columns];
        for (int i = 0; i < columns; i++) {
            real[i] = table.columns().get(i).affinity() == TableDefinition.Affinity.REAL;
            defaults[i] = table.columns().get(i).defaultValue();
        }
        this.leaf = new byte[pageSize];
        this.types = new int[columns];
        this.offsets = new int[columns];
    }

    public TableDefinition table() {
        return table;
    }

    /** Index of column {@code name} in the declaration (case-insensitive), or -1 if the table has none. */
    public int column(String name) {
        return table.indexOf(name);
    }

    /** Moves to the next row; false after the last one. */
    public boolean next() throws IOException {
        while (nextCell >= leafCells) {
            if (!nextLeaf()) {
                return false;
            }
        }
        readCell(nextCell++);
        return true;
    }

    /** Counts the rows not yet visited from the leaf page headers, without decoding them; ends the walk. */
    long countRemaining() throws IOException {
        long n = Math.max(0, leafCells - nextCell);
        nextCell = leafCells;
        while (nextLeaf()) {
            n += leafCells;
            nextCell = leafCells;
        }
        return n;
    }

    public long rowid() {
        return rowid;
    }

    /**
     * Steps over a child page that cannot be read (past the end of a truncated file, or not a b-tree page) instead of
     * ending the walk: its rows are lost, the rows of the pages after it are still read. Each page stepped over goes
     * to {@code onSkipped}. Damage on the root page, or inside a leaf being read, still ends the walk.
     */
    public TableCursor skipDamagedPages(java.util.function.Consumer<SqliteFormatException> onSkipped) {
        this.skipped = onSkipped;
        return this;
    }

    // ---- b-tree walk ----------------------------------------------------------------------------------------

    /** Loads the next leaf page in key order into {@link #leaf}; false when the tree is done. */
    private boolean nextLeaf() throws IOException {
        if (!started) {
            started = true;
            if (descend(root)) {
                return true;
            }
        }
        while (depth > 0) {
            int d = depth - 1;
            int child = nextChild[d];
            if (child > interiorCells[d]) {
                depth--;
                continue;
            }
            nextChild[d]++;
            byte[] p = interior[d];
            int h = interiorHeader[d];
            long childPage;
            if (child < interiorCells[d]) {
                int cell = u16(p, h + 12 + 2 * child);
                if (cell < h + 12 + 2 * interiorCells[d] || cell + 4 > usable) {
                    throw corrupt(interiorPage[d], h + 12 + 2 * child, "cell pointer " + cell + " outside the page");
                }
                childPage = u32(p, cell);
            } else {
                childPage = u32(p, h + 8);
            }
            try {
                if (descend(childPage)) {
                    return true;
                }
            } catch (SqliteFormatException damaged) {
                // descend changes the walk only once the page checks out, so the walk can go on with the next child
                if (skipped == null) {
                    throw damaged;
                }
                skipped.accept(damaged);
            }
        }
        return false;
    }

    /** Reads {@code page}: a leaf becomes current (true), an interior page is pushed on the path (false). */
    private boolean descend(long page) throws IOException {
        for (int d = 0; d < depth; d++) {
            if (interiorPage[d] == page) {
                throw corrupt(page, 0, "a child pointer leads back to this page, which is its own ancestor");
            }
        }
        if (++pagesVisited > file.pageCount()) {
            throw corrupt(page, 0, "the b-tree visits more pages than the file holds (a page refers back to an "
                    + "earlier one)");
        }
        int header = page == 1 ? 100 : 0;
        if (depth == MAX_DEPTH) {
            throw corrupt(page, 0, "b-tree deeper than " + MAX_DEPTH + " levels");
        }
        if (interior[depth] == null) {
            interior[depth] = new byte[pageSize];
        }
        byte[] p = interior[depth];
        file.readPage(page, p);
        int kind = p[header] & 0xFF;
        int cells = u16(p, header + 3);
        if (kind == LEAF) {
            if (header + 8 + 2 * cells > usable) {
                throw corrupt(page, header + 3, cells + " cells do not fit on the page");
            }
            interior[depth] = leaf; // the two buffers swap roles instead of copying the page
            leaf = p;
            leafPage = page;
            leafHeader = header;
            leafCells = cells;
            nextCell = 0;
            return true;
        }
        if (kind != INTERIOR) {
            throw corrupt(page, header, String.format("page type byte 0x%02x is not a table b-tree page (0x05 "
                    + "interior or 0x0d leaf)", kind));
        }
        if (header + 12 + 2 * cells > usable) {
            throw corrupt(page, header + 3, cells + " cells do not fit on the page");
        }
        interiorPage[depth] = page;
        interiorHeader[depth] = header;
        interiorCells[depth] = cells;
        nextChild[depth] = 0;
        depth++;
        return false;
    }

    // ---- records --------------------------------------------------------------------------------------------

    private void readCell(int index) throws IOException {
        byte[] p = leaf;
        int cell = u16(p, leafHeader + 8 + 2 * index);
        if (cell < leafHeader + 8 + 2 * leafCells || cell >= usable) {
            throw corrupt(leafPage, leafHeader + 8 + 2 * index, "cell pointer " + cell + " outside the page");
        }
        long payload = varint(p, cell, usable, leafPage);
        rowid = varint(p, varintEnd, usable, leafPage);
        int body = varintEnd;
        int maxLocal = usable - 35;
        if (payload <= maxLocal) {
            if (body + payload > usable) {
                throw corrupt(leafPage, cell, "payload of " + payload + " bytes runs past the page end");
            }
            record = p;
            recordStart = body;
            recordEnd = body + (int) payload;
        } else {
            spill(p, cell, body, payload);
        }
        recordPage = leafPage;
        recordCell = cell;
        parseHeader();
    }

    /** Gathers a payload that continues on overflow pages into {@link #spill}. */
    private void spill(byte[] p, int cell, int body, long payload) throws IOException {
        int minLocal = (usable - 12) * 32 / 255 - 23;
        int perPage = usable - 4;
        if (payload > file.pageCount() * (long) perPage || payload > Integer.MAX_VALUE - 16) {
            throw corrupt(leafPage, cell, "payload size " + payload + " is larger than the file");
        }
        int size = (int) payload;
        int local = minLocal + (size - minLocal) % perPage;
        if (local > usable - 35) {
            local = minLocal;
        }
        if (body + local + 4 > usable) {
            throw corrupt(leafPage, cell, "local payload runs past the page end");
        }
        if (spill.length < size) {
            spill = new byte[Math.max(size, spill.length * 2)];
        }
        if (overflowPage == null) {
            overflowPage = new byte[pageSize];
        }
        System.arraycopy(p, body, spill, 0, local);
        int filled = local;
        long from = leafPage;
        int fromOffset = body + local;
        long next = u32(p, body + local);
        while (filled < size) {
            if (next == 0) {
                throw corrupt(from, fromOffset, "overflow chain ends " + (size - filled) + " bytes early");
            }
            file.readPage(next, overflowPage);
            int n = Math.min(perPage, size - filled);
            System.arraycopy(overflowPage, 4, spill, filled, n);
            filled += n;
            from = next;
            fromOffset = 0;
            next = u32(overflowPage, 0);
        }
        record = spill;
        recordStart = 0;
        recordEnd = size;
    }

    private void parseHeader() throws SqliteFormatException {
        byte[] r = record;
        long headerSize = varint(r, recordStart, recordEnd, recordPage);
        if (headerSize < varintEnd - recordStart || headerSize > recordEnd - recordStart) {
            throw corrupt(recordPage, onPage(recordStart), "record header size " + headerSize
                    + " does not fit the record");
        }
        int headerEnd = recordStart + (int) headerSize;
        int at = varintEnd;
        int data = headerEnd;
        int c = 0;
        for (; c < columns && at < headerEnd; c++) {
            long serial = varint(r, at, headerEnd, recordPage);
            at = varintEnd;
            if (serial == 10 || serial == 11 || serial > Integer.MAX_VALUE) {
                throw corrupt(recordPage, onPage(at), "invalid serial type " + serial + " in row " + rowid);
            }
            int t = (int) serial;
            types[c] = t;
            offsets[c] = data;
            data += contentSize(t);
            if (data > recordEnd) {
                throw corrupt(recordPage, onPage(recordStart), "row " + rowid + ": column " + c
                        + " runs past the end of the record");
            }
        }
        for (; c < columns; c++) {
            types[c] = MISSING;
        }
        int alias = table.rowidAlias();
        if (alias >= 0) {
            types[alias] = ROWID;
        }
    }

    /** An offset into the record as an offset on its leaf page (the cell start when the record was spilled). */
    private int onPage(int at) {
        return record == leaf ? at : recordCell;
    }

    private static int contentSize(int serial) {
        return switch (serial) {
            case 0, 8, 9 -> 0;
            case 1, 2, 3, 4 -> serial;
            case 5 -> 6;
            case 6, 7 -> 8;
            default -> (serial - 12) >> 1;
        };
    }

    // ---- values ---------------------------------------------------------------------------------------------

    /** The storage class of column {@code col} in the current row, after the column's affinity. */
    public int type(int col) {
        int t = types[col];
        if (t == MISSING) {
            Object d = defaults[col];
            return d == null ? NULL : d instanceof Long ? (real[col] ? FLOAT : INTEGER) : d instanceof Double
                    ? FLOAT : d instanceof String ? TEXT : BLOB;
        }
        if (t == ROWID) {
            return INTEGER;
        }
        if (t == 0) {
            return NULL;
        }
        if (t <= 6 || t == 8 || t == 9) {
            return real[col] ? FLOAT : INTEGER;
        }
        if (t == 7) {
            return FLOAT;
        }
        return (t & 1) == 0 ? BLOB : TEXT;
    }

    public boolean isNull(int col) {
        int t = types[col];
        return t == 0 || (t == MISSING && defaults[col] == null);
    }

    /** The value as a 64-bit integer: 0 for NULL, truncated for floats, the leading integer of a text. */
    public long getLong(int col) {
        int t = types[col];
        int o = offsets[col];
        byte[] r = record;
        switch (t) {
            case 0, 8:
                return 0;
            case 9:
                return 1;
            case 1:
                return r[o];
            case 2:
                return (r[o] << 8) | (r[o + 1] & 0xFF);
            case 3:
                return (r[o] << 16) | ((r[o + 1] & 0xFF) << 8) | (r[o + 2] & 0xFF);
            case 4:
                return (r[o] << 24) | ((r[o + 1] & 0xFF) << 16) | ((r[o + 2] & 0xFF) << 8) | (r[o + 3] & 0xFF);
            case 5:
                return ((long) r[o] << 40) | ((long) (r[o + 1] & 0xFF) << 32) | (u32(r, o + 2));
            case 6:
                return (u32(r, o) << 32) | u32(r, o + 4);
            case 7:
                return (long) Double.longBitsToDouble((u32(r, o) << 32) | u32(r, o + 4));
            case ROWID:
                return rowid;
            case MISSING:
                return defaults[col] instanceof Number n ? n.longValue() : leadingLong(defaults[col]);
            default:
                return (t & 1) == 1 ? leadingLong(getText(col)) : 0;
        }
    }

    /** The value as a double: 0 for NULL, converted for integers, the leading number of a text. */
    public double getDouble(int col) {
        int t = types[col];
        if (t == 7) {
            return Double.longBitsToDouble((u32(record, offsets[col]) << 32) | u32(record, offsets[col] + 4));
        }
        if (t == MISSING && defaults[col] instanceof Number n) {
            return n.doubleValue();
        }
        if (t >= 12 || t == MISSING) {
            Object text = t == MISSING ? defaults[col] : (t & 1) == 1 ? getText(col) : null;
            if (text instanceof String s) {
                try {
                    return Double.parseDouble(s.trim());
                } catch (NumberFormatException notANumber) {
                    return leadingLong(s);
                }
            }
            return 0;
        }
        return getLong(col);
    }

    /** The value as text (a new String), or null for NULL; numbers are written out. */
    public String getText(int col) {
        int t = types[col];
        if (t >= 12) {
            return new String(record, offsets[col], contentSize(t), StandardCharsets.UTF_8);
        }
        if (isNull(col)) {
            return null;
        }
        return switch (type(col)) {
            case FLOAT -> Double.toString(getDouble(col));
            case INTEGER -> Long.toString(getLong(col));
            default -> defaults[col] instanceof byte[] b ? new String(b, StandardCharsets.UTF_8)
                    : String.valueOf(defaults[col]);
        };
    }

    /** The raw bytes of a BLOB or TEXT value (a new array), or null for NULL. */
    public byte[] getBlob(int col) {
        int t = types[col];
        if (t >= 12) {
            return Arrays.copyOfRange(record, offsets[col], offsets[col] + contentSize(t));
        }
        if (isNull(col)) {
            return null;
        }
        if (t == MISSING && defaults[col] instanceof byte[] b) {
            return b.clone();
        }
        return getText(col).getBytes(StandardCharsets.UTF_8);
    }

    private static long leadingLong(Object value) {
        if (!(value instanceof String s)) {
            return 0;
        }
        int i = 0;
        int n = s.length();
        while (i < n && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        boolean negative = i < n && s.charAt(i) == '-';
        if (i < n && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
            i++;
        }
        long v = 0;
        while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            v = v * 10 + (s.charAt(i++) - '0');
        }
        return negative ? -v : v;
    }

    // ---- bytes ----------------------------------------------------------------------------------------------

    private static int u16(byte[] b, int at) {
        return ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
    }

    private static long u32(byte[] b, int at) {
        return ((long) (b[at] & 0xFF) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8)
                | (b[at + 3] & 0xFF);
    }

    /** A big-endian varint of 1 to 9 bytes starting at {@code at}, ending before {@code limit}. */
    private long varint(byte[] b, int at, int limit, long page) throws SqliteFormatException {
        long v = 0;
        for (int i = 0; i < 9; i++) {
            if (at + i >= limit) {
                throw corrupt(page, b == spill ? recordCell : at, "varint runs past the end of its area");
            }
            int x = b[at + i] & 0xFF;
            if (i == 8) {
                varintEnd = at + 9;
                return (v << 8) | x;
            }
            v = (v << 7) | (x & 0x7F);
            if (x < 0x80) {
                varintEnd = at + i + 1;
                return v;
            }
        }
        throw new AssertionError();
    }

    private SqliteFormatException corrupt(long page, int offsetInPage, String reason) {
        return new SqliteFormatException(file.path(), page, (page - 1) * (long) pageSize + offsetInPage,
                "table " + table.name() + ": " + reason);
    }
}
