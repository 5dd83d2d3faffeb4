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

/**
 * An imported trace, opened read-only from its store file without re-parsing anything. Gives SQL over the
 * documented schema (docs/schema.md) and returns plain {@link Table}s.
 */
public final class Store implements AutoCloseable {
    private final Path file;
    private final Connection connection;

    private Store(Path file, Connection connection) {
        this.file = file;
        this.connection = connection;
    }

    /** Opens a complete store; refuses files that are not hetscope stores or whose import did not finish. */
    public static Store open(Path file) throws IOException {
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
            props.setProperty("duckdb.read_only", "true");
            c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath(), props);
        } catch (SQLException e) {
            throw new IOException(file + ": not a hetscope store (" + firstLine(e.getMessage()) + ")", e);
        }
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(
                     "SELECT value FROM trace_info WHERE key = '" + StoreWriter.COMPLETE_KEY + "'")) {
            if (!rs.next() || !"true".equals(rs.getString(1))) {
                c.close();
                throw new IOException(file + ": the import that wrote this store did not finish");
            }
        } catch (SQLException e) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // already failing
            }
            throw new IOException(file + ": not a hetscope store (" + firstLine(e.getMessage()) + ")", e);
        }
        StandardLibrary.install(c);
        return new Store(file, c);
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
            throw new StoreException(firstLine(e.getMessage()), null);
        }
    }

    public Table query(String sql) {
        return query(null, sql);
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
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        List<String> columns = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            columns.add(md.getColumnLabel(i));
        }
        List<Object[]> rows = new ArrayList<>();
        while (rs.next()) {
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
