package org.hetscope.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.hetscope.model.TableSpec;

/**
 * An imported trace, opened read-only from its store file without re-parsing anything. Gives SQL over the
 * documented schema (docs/schema.md) and returns plain {@link Table}s.
 */
public final class Store implements AutoCloseable {
    private final Path file;
    private final Connection connection;
    /** The error that stopped the import of a store kept with --keep-partial ("" if unknown), else null. */
    private final String partialError;

    private Store(Path file, Connection connection, String partialError) {
        this.file = file;
        this.connection = connection;
        this.partialError = partialError;
    }

    /**
     * DuckDB settings of every connection that reads a store, given when the database opens so that nothing runs
     * before them: a store is data to be shared, so neither its views nor a query may read or write other files
     * (read_text, COPY, ATTACH, EXPORT), install or load extensions. {@link #LOCK} then freezes them.
     */
    private static final Map<String, String> SAFE_SETTINGS = Map.of(
            "duckdb.read_only", "true",
            "enable_external_access", "false",
            "autoinstall_known_extensions", "false",
            "autoload_known_extensions", "false",
            "allow_community_extensions", "false",
            "allow_unsigned_extensions", "false");
    private static final String LOCK = "SET lock_configuration = true";
    /** trace_info key of a store whose import stopped at damage and kept what came before (--keep-partial). */
    public static final String PARTIAL_KEY = "import_partial";
    /** trace_info key of the error that stopped such an import. */
    public static final String ERROR_KEY = "import_error";

    /** Where warnings about an opened store go (the CLI prints them; library users may keep the default: none). */
    private static volatile java.util.function.Consumer<String> warnings = w -> { };

    /**
     * Sends the warnings about each store opened from now on (one that holds only the start of its trace) to
     * {@code sink}.
     */
    public static void setWarnings(java.util.function.Consumer<String> sink) {
        warnings = sink == null ? w -> { } : sink;
    }

    /** Opens a complete store; refuses files that are not hetscope stores or whose import did not finish. */
    public static Store open(Path file) throws IOException {
        return open(file, true);
    }

    /** Whether {@code file} opens as a complete store (one kept with --keep-partial included). */
    public static boolean isCompleteStore(Path file) {
        try (Store s = open(file, false)) {
            return s != null;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static Store open(Path file, boolean warn) throws IOException {
        if (Files.isDirectory(file)) {
            // a trace folder (StarPU, CTF, OTF2) given where a store is read: "no such store file" misled
            throw new IOException(file + ": a folder, not a store file (a trace folder is read with 'hetscope import "
                    + "FOLDER -o STORE' first)");
        }
        if (!Files.isRegularFile(file)) {
            throw new IOException(file + ": no such store file");
        }
        if (!isDuckDbFile(file)) {
            throw new IOException(file + ": not a hetscope store (not a DuckDB database file; a trace is read with "
                    + "'hetscope import TRACE -o STORE' first)");
        }
        Connection c;
        try {
            Properties props = new Properties();
            props.putAll(SAFE_SETTINGS);
            c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath(), props);
        } catch (SQLException e) {
            throw new IOException(file + ": " + notAStore(e), e);
        }
        String partial = null;
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT key, value FROM trace_info WHERE key IN ('" + StoreWriter.COMPLETE_KEY
                     + "', '" + PARTIAL_KEY + "', '" + ERROR_KEY + "')")) {
            boolean complete = false;
            String error = null;
            while (rs.next()) {
                String key = rs.getString(1);
                if (key.equals(StoreWriter.COMPLETE_KEY)) {
                    complete = "true".equals(rs.getString(2));
                } else if (key.equals(ERROR_KEY)) {
                    error = rs.getString(2);
                } else {
                    partial = "";
                }
            }
            if (!complete) {
                c.close();
                throw new IOException(file + ": the import that wrote this store did not finish");
            }
            // stores written before the partial mark existed carry only the error that stopped their import
            if (partial != null || error != null) {
                partial = error == null ? "" : error;
            }
            afterOpen(c);
        } catch (SQLException e) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // already failing
            }
            throw new IOException(file + ": " + notAStore(e), e);
        }
        remember(file);
        if (partial != null && warn) {
            warnings.accept(file + ": this store holds only the start of its trace: its import stopped at damaged "
                    + "input and kept what came before (--keep-partial)" + (partial.isEmpty() ? "" : ": " + partial));
        }
        return new Store(file, c, partial);
    }

    /** The stores opened most recently in this process, newest last (for {@link #nameDamagedStore}). */
    private static final java.util.Deque<Path> recent = new java.util.ArrayDeque<>();

    private static void remember(Path file) {
        synchronized (recent) {
            recent.remove(file);
            recent.addLast(file);
            while (recent.size() > 8) {
                recent.removeFirst();
            }
        }
    }

    /**
     * A failure message with the store named when it reports damage in a database file (DuckDB's messages name
     * no file; analyses that query the connection themselves pass them on as they are). Names the store opened
     * last, the only one in a command that opens one.
     */
    public static String nameDamagedStore(String message) {
        if (message == null || !(message.contains("Data Corruption Error") || message.contains("Corrupt database"))) {
            return message;
        }
        Path last;
        synchronized (recent) {
            for (Path p : recent) {
                if (message.contains(p.toString())) {
                    return message;
                }
            }
            last = recent.peekLast();
        }
        return last == null ? message : last + ": damaged store (" + message + ")";
    }

    /** Whether DuckDB's message reports a damaged or truncated file (not, say, a lock another process holds). */
    private static boolean isDamage(String m) {
        return m.startsWith("Data Corruption Error")
                || (m.startsWith("IO Error") && !m.contains("lock") && !m.contains("Permission"));
    }

    private static String notAStore(SQLException e) {
        String m = firstLine(e.getMessage());
        return isDamage(m) ? "damaged store (" + m + ")" : "not a hetscope store (" + m + ")";
    }

    /**
     * Runs on every connection to a store after it opened and before its configuration is locked: the one place
     * for code that must prepare a connection (hetscope's own SQL library of temporary views and macros goes
     * here; DuckDB allows CREATE TEMP VIEW and CREATE TEMP MACRO on a read-only store, also after the lock, but
     * settings only before it). Temporary objects belong to one connection, so {@link #newConnection()} runs
     * this again for each further connection.
     */
    private static void afterOpen(Connection c) throws SQLException {
        StandardLibrary.install(c);
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT current_setting('lock_configuration')")) {
            // JDBC connections to one file in one JVM share the database, and with it the lock
            boolean locked = rs.next() && rs.getBoolean(1);
            if (!locked) {
                st.execute(LOCK);
            }
        }
    }

    /**
     * A further connection to the same database (same settings and lock), prepared as {@link #open} prepares
     * its own; for work that must not queue behind the main connection's statements. The caller closes it.
     */
    public Connection newConnection() {
        try {
            Connection d = connection.unwrap(org.duckdb.DuckDBConnection.class).duplicate();
            try {
                afterOpen(d);
            } catch (SQLException e) {
                d.close();
                throw e;
            }
            return d;
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    /** Whether the store holds only the start of its trace (its import stopped at damage, --keep-partial). */
    public boolean partial() {
        return partialError != null;
    }

    /** Whether {@code file} starts with DuckDB's main header: an 8-byte checksum, then the magic bytes "DUCK". */
    public static boolean isDuckDbFile(Path file) throws IOException {
        byte[] head = new byte[12];
        try (java.io.InputStream in = Files.newInputStream(file)) {
            if (in.readNBytes(head, 0, head.length) < head.length) {
                return false;
            }
        }
        return head[8] == 'D' && head[9] == 'U' && head[10] == 'C' && head[11] == 'K';
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    public Path file() {
        return file;
    }

    /** The JDBC connection, for analyses that stream large results. */
    public Connection connection() {
        return connection;
    }

    /** Runs a query and returns all its rows. Values are Long, Double, String, Boolean or null. */
    public Table query(String title, String sql, Object... params) {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return toTable(title, rs);
            }
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    /**
     * A failed statement as a {@link StoreException}; damage in the file (found only when a query reads the
     * damaged block) names the store, since the database's message does not.
     */
    public StoreException failure(SQLException e) {
        String m = firstLine(e.getMessage());
        if (isDamage(m)) {
            return new StoreException(file + ": damaged store (" + m + ")", null);
        }
        return new StoreException(m, null);
    }

    public Table query(String sql) {
        return query(null, sql);
    }

    /** Whether the store holds {@code table} (a table a reader declares exists only in stores of its format). */
    public boolean has(TableSpec table) {
        return !query(null, "SELECT 1 FROM information_schema.tables WHERE table_name = ?", table.name()).rows()
                .isEmpty();
    }

    /**
     * Every column of {@code table} for the rows {@code tail} selects (SQL after {@code FROM table}: WHERE, ORDER
     * BY; may be empty), read through the declaration's column handles. A store without the table has no rows.
     */
    public java.util.List<TableRow> rows(TableSpec table, String tail, Object... params) {
        if (!has(table)) {
            return List.of();
        }
        Table t = query(null, "SELECT " + table.columnList() + " FROM " + table.name() + " " + tail, params);
        java.util.List<TableRow> out = new ArrayList<>(t.size());
        for (Object[] r : t.rows()) {
            out.add(new TableRow(table, r));
        }
        return out;
    }

    /** A single number from a query that returns one row and one column (null for SQL NULL). */
    public Long scalarLong(String sql, Object... params) {
        Table t = query(null, sql, params);
        if (t.size() == 0) {
            return null;
        }
        Object v = t.rows().get(0)[0];
        return v == null ? null : ((Number) v).longValue();
    }

    static Table toTable(String title, ResultSet rs) throws SQLException {
        return readTable(title, rs, Integer.MAX_VALUE);
    }

    /**
     * At most {@code maxRows} rows of a result set as a table, values normalised as {@link #query} gives them; for
     * callers that run statements on a connection of their own ({@link #newConnection}) and must bound the answer.
     */
    public static Table readTable(String title, ResultSet rs, int maxRows) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        List<String> columns = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            columns.add(md.getColumnLabel(i));
        }
        List<Object[]> rows = new ArrayList<>();
        while (rows.size() < maxRows && rs.next()) {
            Object[] row = new Object[n];
            for (int i = 0; i < n; i++) {
                row[i] = normalise(rs.getObject(i + 1));
            }
            rows.add(row);
        }
        return new Table(title, columns, rows);
    }

    private static Object normalise(Object v) {
        if (v == null || v instanceof String || v instanceof Long || v instanceof Double || v instanceof Boolean) {
            return v;
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof java.math.BigInteger b) {
            return b.bitLength() < 64 ? (Object) b.longValue() : b.toString();
        }
        if (v instanceof java.math.BigDecimal d) {
            try {
                return d.longValueExact();
            } catch (ArithmeticException e) {
                return d.doubleValue();
            }
        }
        if (v instanceof Float f) {
            return f.doubleValue();
        }
        return v.toString();
    }

    /** The {@code trace_info} key/value pairs in insertion order. */
    public Map<String, String> info() {
        Map<String, String> m = new LinkedHashMap<>();
        for (Object[] row : query(null, "SELECT key, value FROM trace_info").rows()) {
            m.put((String) row[0], (String) row[1]);
        }
        return m;
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // read-only connection: nothing to lose
        }
    }
}
