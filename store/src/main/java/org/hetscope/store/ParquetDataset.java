package org.hetscope.store;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A folder of stores exported as Parquet ({@link ParquetExport}), opened for SQL like a store: one view per table
 * over that table's Parquet files of every trace (or of one, {@code trace}), with a {@code trace} column from the
 * hive-style partition folder, and the standard library on top. Layout (docs/scale.md):
 * {@code DIR/TABLE/trace=NAME/part-0.parquet} and the manifest {@code DIR/_hetscope_dataset.json}.
 *
 * <p>A dataset is data like a store: the connection may read only the Parquet files listed here (DuckDB's
 * {@code allowed_paths}, with {@code enable_external_access} off and the configuration locked), found without
 * following symbolic links, and runs no SQL taken from the dataset (views are built from folder names that
 * match {@link #NAME}, quoted).
 */
public final class ParquetDataset implements AutoCloseable {
    /** The manifest's file name in a dataset folder ('_' first: Spark and Hive skip such files). */
    public static final String MANIFEST = "_hetscope_dataset.json";
    /** The value of the manifest's "format" member. */
    static final String FORMAT = "hetscope-parquet-dataset";
    /** Table folders and column names hetscope writes (lower-case SQL identifiers, also safe as folder names). */
    static final Pattern TABLE = Pattern.compile("[a-z][a-z0-9_]{0,62}");
    /** Trace names: safe as a folder name and a hive partition value without escaping. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,199}");
    /** Partition folder prefix. */
    static final String PARTITION = "trace=";
    /** Part files. */
    static final Pattern PART = Pattern.compile("part-[0-9]{1,9}\\.parquet");
    /**
     * Views of the standard library that read one table without joining rows by id (and the macros they use): over several traces they give
     * the figures of all traces pooled. The others join ids, which are dense per store, so they would pair rows of
     * different traces; they are installed only over a single trace.
     */
    static final Set<String> POOLED = Set.of("hs_stddev_pop", "hs_trace_bounds", "hs_slice_figures", "hs_slice_stats",
            "hs_slice_percentile", "hs_slice_durations", "hs_transfer_stats");
    private static final Pattern CREATED = Pattern.compile("^CREATE (?:OR REPLACE )?TEMP (?:VIEW|MACRO) (\\w+)");

    private final Path dir;
    private final Connection connection;
    private final Path temp;
    private final List<String> traces;
    private final Map<String, Integer> tables;
    private final List<String> leftOut;

    private ParquetDataset(Path dir, Connection connection, Path temp, List<String> traces,
            Map<String, Integer> tables, List<String> leftOut) {
        this.dir = dir;
        this.connection = connection;
        this.temp = temp;
        this.traces = traces;
        this.tables = tables;
        this.leftOut = leftOut;
    }

    /** Whether {@code dir} is a dataset folder (holds the manifest). */
    public static boolean isDataset(Path dir) {
        return Files.isDirectory(dir) && Files.isRegularFile(dir.resolve(MANIFEST), LinkOption.NOFOLLOW_LINKS);
    }

    /** The traces the manifest of {@code dir} lists, in order, each with its manifest entry as JSON text. */
    static Map<String, String> manifestTraces(Path dir) throws IOException {
        return readManifest(dir).traces;
    }

    record Manifest(long schemaVersion, Map<String, String> traces) {
    }

    /** Reads and checks the manifest; JSON is parsed by DuckDB from the text (no file access). */
    static Manifest readManifest(Path dir) throws IOException {
        try (Connection c = plainConnection()) {
            return readManifest(c, dir);
        } catch (SQLException e) {
            throw new IOException(dir.resolve(MANIFEST) + ": not a hetscope dataset manifest (" + firstLine(e.getMessage())
                    + ")");
        }
    }

    /** As {@link #readManifest(Path)}, parsing in {@code c}, a {@link #plainConnection()} (one for many manifests). */
    static Manifest readManifest(Connection c, Path dir) throws IOException {
        Path file = dir.resolve(MANIFEST);
        if (Files.size(file) > 256L << 20) {
            throw new IOException(file + ": not a hetscope dataset manifest (larger than 256 MiB)");
        }
        String text = Files.readString(file);
        try {
            String format;
            Long version;
            try (PreparedStatement ps = c.prepareStatement("SELECT json_extract_string(j, '$.format'), "
                    + "TRY_CAST(json_extract(j, '$.schema_version') AS BIGINT) FROM (SELECT CAST(? AS JSON) AS j)")) {
                ps.setString(1, text);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    format = rs.getString(1);
                    version = rs.getObject(2) == null ? null : rs.getLong(2);
                }
            }
            if (!FORMAT.equals(format) || version == null) {
                throw new IOException(file + ": not a hetscope dataset manifest (no \"format\": \"" + FORMAT
                        + "\" and \"schema_version\")");
            }
            Map<String, String> traces = new TreeMap<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT json_extract_string(t, '$.trace'), CAST(t AS VARCHAR) "
                    + "FROM (SELECT unnest(json_extract(CAST(? AS JSON), '$.traces[*]')) AS t)")) {
                ps.setString(1, text);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String name = rs.getString(1);
                        if (name == null || !NAME.matcher(name).matches()) {
                            throw new IOException(file + ": a trace of the manifest has no valid name: " + name);
                        }
                        traces.put(name, rs.getString(2));
                    }
                }
            }
            return new Manifest(version, traces);
        } catch (SQLException e) {
            throw new IOException(file + ": not a hetscope dataset manifest (" + firstLine(e.getMessage()) + ")");
        }
    }

    /** An in-memory connection that can touch no file at all (for JSON work). */
    static Connection plainConnection() throws SQLException {
        Properties props = new Properties();
        props.putAll(ParquetExport.NO_EXTENSIONS);
        Connection c = DriverManager.getConnection("jdbc:duckdb:", props);
        try (Statement st = c.createStatement()) {
            st.execute("SET temp_directory = ''");
            st.execute("SET enable_external_access = false");
            st.execute("SET lock_configuration = true");
        }
        return c;
    }

    /**
     * Opens the dataset in {@code dir}: all its traces, or only {@code trace} when not null.
     *
     * @throws IOException when it is no dataset or names no such trace
     */
    public static ParquetDataset open(Path dir, String trace) throws IOException {
        if (!isDataset(dir)) {
            throw new IOException(dir + ": not a hetscope dataset (no " + MANIFEST + "; one is written by "
                    + "'hetscope export STORE --parquet DIR')");
        }
        Path base = dir.toRealPath();
        Manifest manifest = readManifest(base);
        List<String> traces = new ArrayList<>(manifest.traces().keySet());
        if (trace != null) {
            if (!manifest.traces().containsKey(trace)) {
                throw new IOException(dir + ": no trace '" + trace + "' in this dataset (traces: "
                        + String.join(", ", traces) + ")");
            }
            traces = List.of(trace);
        }
        Map<String, List<Path>> files = partFiles(base, Set.copyOf(traces));
        Path temp = Files.createTempDirectory("hetscope-sql-");
        Connection c = null;
        try {
            Properties props = new Properties();
            props.putAll(ParquetExport.NO_EXTENSIONS);
            c = DriverManager.getConnection("jdbc:duckdb:", props);
            List<String> all = new ArrayList<>();
            files.values().forEach(l -> l.forEach(p -> all.add(p.toString())));
            try (Statement st = c.createStatement()) {
                // exact files only: nothing else in (or linked from) the folder can be read
                if (!all.isEmpty()) {
                    st.execute("SET allowed_paths = " + ParquetExport.list(all));
                }
                st.execute("SET temp_directory = " + ParquetExport.literal(temp.toString()));
                st.execute("SET enable_external_access = false");
                st.execute("SET lock_configuration = true");
            }
            Map<String, Integer> tables = new TreeMap<>();
            for (var e : files.entrySet()) {
                List<String> paths = e.getValue().stream().map(Path::toString).toList();
                try (Statement st = c.createStatement()) {
                    st.execute("CREATE TEMP VIEW " + ParquetExport.ident(e.getKey()) + " AS SELECT * FROM read_parquet("
                            + ParquetExport.list(paths) + ", hive_partitioning = true, hive_types = {'trace': 'VARCHAR'}, "
                            + "union_by_name = true)");
                }
                tables.put(e.getKey(), paths.size());
            }
            if (!tables.containsKey("kernel") && tables.containsKey("kernel_dispatch") && tables.containsKey("kernel_name")) {
                // schema version 3: the store's own view, rewritten here (no SQL is taken from the dataset)
                try (Statement st = c.createStatement()) {
                    st.execute("CREATE TEMP VIEW kernel AS SELECT d.slice_id, d.device_id, d.stream, d.correlation_id, "
                            + "d.grid_x, d.grid_y, d.grid_z, d.block_x, d.block_y, d.block_z, d.registers_per_thread, "
                            + "d.shared_static, d.shared_dynamic, n.name AS full_name, d.trace FROM kernel_dispatch d "
                            + "LEFT JOIN kernel_name n ON n.id = d.full_name_id AND n.trace = d.trace");
                }
            }
            List<String> leftOut = new ArrayList<>();
            for (String sql : StandardLibrary.statements()) {
                Matcher m = CREATED.matcher(sql);
                String name = m.find() ? m.group(1) : "";
                if (traces.size() > 1 && !POOLED.contains(name)) {
                    leftOut.add(name);
                    continue;
                }
                try (Statement st = c.createStatement()) {
                    st.execute(sql);
                } catch (SQLException ex) {
                    // a dataset without a table a view reads (as for an old store): that view is left out
                }
            }
            return new ParquetDataset(base, c, temp, List.copyOf(traces), tables, List.copyOf(leftOut));
        } catch (SQLException e) {
            if (c != null) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // failing already
                }
            }
            deleteTemp(temp);
            throw new IOException(dir + ": cannot open the dataset (" + firstLine(e.getMessage()) + ")", e);
        } catch (RuntimeException e) {
            deleteTemp(temp);
            throw e;
        }
    }

    /**
     * The part files per table folder, of the given traces only; folders and files that do not match the layout
     * (other names, symbolic links, anything that is not a plain file) are not read.
     */
    static Map<String, List<Path>> partFiles(Path base, Set<String> traces) throws IOException {
        Map<String, List<Path>> out = new TreeMap<>();
        try (DirectoryStream<Path> tables = Files.newDirectoryStream(base)) {
            for (Path t : tables) {
                String table = t.getFileName().toString();
                if (!TABLE.matcher(table).matches() || !Files.isDirectory(t, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                List<Path> parts = new ArrayList<>();
                for (String trace : traces) {
                    Path p = t.resolve(PARTITION + trace);
                    if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                        continue;
                    }
                    try (DirectoryStream<Path> fs = Files.newDirectoryStream(p)) {
                        for (Path f : fs) {
                            if (PART.matcher(f.getFileName().toString()).matches()
                                    && Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                                parts.add(f);
                            }
                        }
                    }
                }
                if (!parts.isEmpty()) {
                    parts.sort(Comparator.naturalOrder());
                    out.put(table, parts);
                }
            }
        }
        return out;
    }

    public Path dir() {
        return dir;
    }

    /** The traces the views read. */
    public List<String> traces() {
        return traces;
    }

    /** The tables (views) and the number of part files each reads. */
    public Map<String, Integer> tables() {
        return new LinkedHashMap<>(tables);
    }

    /** Views of the standard library not installed because they join by id and the views hold several traces. */
    public List<String> leftOut() {
        return leftOut;
    }

    public Connection connection() {
        return connection;
    }

    /** Runs a query and returns all its rows (values as {@link Store#query}). */
    public Table query(String sql) {
        try (PreparedStatement ps = connection.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            return Store.toTable(null, rs);
        } catch (SQLException e) {
            String m = firstLine(e.getMessage());
            for (String name : leftOut) {
                if (m.startsWith("Catalog Error") && m.contains(name)) {
                    m += " (" + name + " is defined per trace, as ids are per store: over a dataset of several "
                            + "traces name one with --trace, one of " + String.join(", ", traces) + ")";
                    break;
                }
            }
            throw new StoreException(m, null);
        }
    }

    private static void deleteTemp(Path temp) {
        try (var walk = Files.walk(temp)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException ignored) {
            // a temporary folder left behind in java.io.tmpdir
        }
    }

    static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // reading only
        }
        deleteTemp(temp);
    }
}
