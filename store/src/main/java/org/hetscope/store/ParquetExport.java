package org.hetscope.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Writes every base table of a store as Parquet into a dataset folder ({@link ParquetDataset}), one hive-style
 * partition per trace: {@code DIR/TABLE/trace=NAME/part-0.parquet}, and records the trace in the manifest.
 *
 * <p>The store is read through a connection of its own, not a {@link Store}'s: an in-memory database that
 * ATTACHes the store READ_ONLY and may touch only the store file and a staging folder inside DIR (DuckDB's
 * {@code allowed_paths}/{@code allowed_directories}, {@code enable_external_access} off, configuration locked
 * before the store is attached). It runs no SQL found in the store: base tables are copied by name (checked
 * against {@link ParquetDataset#TABLE}, quoted), column by column, generated columns and views left out.
 * Partitions are written in the staging folder and moved into place when all are written; an existing
 * partition of the same trace is replaced only with {@code force}, and a folder that is neither empty nor a
 * dataset is refused.
 */
public final class ParquetExport {
    /** Settings that keep DuckDB from fetching or loading extensions. */
    static final Map<String, String> NO_EXTENSIONS = Map.of(
            "autoinstall_known_extensions", "false",
            "autoload_known_extensions", "false",
            "allow_community_extensions", "false",
            "allow_unsigned_extensions", "false");
    static final String LOCK_FILE = "_hetscope_dataset.lock";
    static final String STAGING_PREFIX = ".hetscope-export-";
    /** Folders of a job that exports traces in parallel into a dataset ({@link #merge}), e.g. hetscope spark import. */
    public static final String JOB_PREFIX = ".hetscope-job-";
    /** The member of a job folder's manifest that lists its tables without rows and files ({@link #exportDatabase}). */
    static final String EMPTY_TABLES = "empty_tables";
    private static final boolean DEBUG = Boolean.getBoolean("hetscope.debug");
    /** Column types an empty table's file is written from again ({@link #merge}): no quotes, nothing but a type. */
    static final java.util.regex.Pattern SIMPLE_TYPE = java.util.regex.Pattern.compile("[A-Z][A-Z0-9_ ,()\\[\\]]{0,200}");

    private ParquetExport() {
    }

    /** What one export wrote: the trace's name and the rows of each table. */
    public record Result(String trace, Path store, Map<String, Long> tables, List<String> skippedTables) {
    }

    /** The trace name a store gets by default: its file name without extension, other characters as '_'. */
    public static String defaultName(Path store) {
        String n = store.getFileName().toString();
        int dot = n.lastIndexOf('.');
        if (dot > 0) {
            n = n.substring(0, dot);
        }
        n = n.replaceAll("[^A-Za-z0-9._-]", "_");
        if (n.isEmpty() || !Character.isLetterOrDigit(n.charAt(0))) {
            n = "t" + n;
        }
        return n.length() > 200 ? n.substring(0, 200) : n;
    }

    /**
     * Exports {@code store} into the dataset folder {@code dir} (created if absent) as trace {@code name}.
     *
     * @throws IOException when the store does not open, the folder is not a dataset, or the trace is there already
     *     and {@code force} is false
     */
    public static Result export(Path store, Path dir, String name, boolean force) throws IOException {
        if (!ParquetDataset.NAME.matcher(name).matches()) {
            throw new IOException("trace name '" + name + "': use letters, digits, '.', '_' and '-', starting with a "
                    + "letter or digit (at most 200)");
        }
        // the ordinary checks first: a complete hetscope store (warns when it holds only the start of its trace)
        Map<String, String> info;
        long skipped;
        long damaged;
        boolean partial;
        try (Store s = Store.open(store)) {
            info = s.info();
            partial = s.partial();
            Object[] row = s.query("SELECT coalesce(sum(count), 0), coalesce(sum(count) FILTER (WHERE "
                    + Schema.SKIPPED_DAMAGE + "), 0) FROM " + Schema.skipped(s)).rows().get(0);
            skipped = ((Number) row[0]).longValue();
            damaged = ((Number) row[1]).longValue();
        }
        long version = Long.parseLong(info.getOrDefault("schema_version", "0").strip());
        Facts facts = new Facts(info, version, skipped, damaged, partial);
        Path source = store.toRealPath();
        return underLock(dir, base -> exportLocked(source, base, dir, name, force, facts));
    }

    /** What runs in a dataset folder while its lock is held, given the folder's real path. */
    private interface Locked<T> {
        T run(Path base) throws IOException;
    }

    /**
     * Runs {@code work} in the dataset folder {@code dir} (created if absent) under its lock, one writer at a time;
     * refused before anything is written when dir is a file or a folder of the user's that is not a dataset.
     */
    private static <T> T underLock(Path dir, Locked<T> work) throws IOException {
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(dir + ": exists and is not a folder; the Parquet export writes a dataset folder");
        }
        // refused before anything is written there: a folder of the user's that is not a dataset
        if (Files.isDirectory(dir) && !ParquetDataset.isDataset(dir) && !onlyOurs(dir)) {
            throw new IOException(dir + ": not empty and not a hetscope dataset (no " + ParquetDataset.MANIFEST
                    + "); export into a new or empty folder");
        }
        Files.createDirectories(dir);
        Path base = dir.toRealPath();
        try (FileChannel ch = FileChannel.open(base.resolve(LOCK_FILE), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                throw new IOException(dir + ": another export is writing this dataset now");
            }
            return work.run(base);
        }
    }

    private record Facts(Map<String, String> info, long version, long skipped, long damaged, boolean partial) {
    }

    private static Result exportLocked(Path store, Path base, Path shown, String name, boolean force, Facts facts)
            throws IOException {
        Map<String, String> traces = new TreeMap<>();
        if (ParquetDataset.isDataset(base)) {
            ParquetDataset.Manifest m = ParquetDataset.readManifest(base);
            if (m.schemaVersion() != facts.version()) {
                throw new IOException(shown + ": the dataset holds stores of schema version " + m.schemaVersion()
                        + ", " + store + " is version " + facts.version() + "; export it into another folder");
            }
            traces.putAll(m.traces());
        } else if (!onlyOurs(base)) {
            throw new IOException(shown + ": not empty and not a hetscope dataset (no " + ParquetDataset.MANIFEST
                    + "); export into a new or empty folder");
        }
        List<Path> existing = partitions(base, name);
        if (!force && (traces.containsKey(name) || !existing.isEmpty())) {
            throw new IOException(shown + ": already holds trace '" + name + "'" + (existing.isEmpty() ? ""
                    : " (" + existing.get(0) + ")") + "; --force replaces it, --trace NAME exports under another name");
        }
        for (Path p : existing) {
            checkOurs(p);
        }
        // a staging folder of an export killed before its end: nothing in it was published
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(base, STAGING_PREFIX + "*")) {
            for (Path p : ds) {
                deleteStaging(p);
            }
        }
        Path staging = base.resolve(STAGING_PREFIX + name + "-" + ProcessHandle.current().pid());
        Files.createDirectory(staging);
        try {
            Map<String, Long> rows = new TreeMap<>();
            List<String> skippedTables = new ArrayList<>();
            copyTables(store, staging, name, rows, skippedTables);
            // publish: the old partitions of this trace go (--force), the new ones move in, the manifest last
            for (Path p : existing) {
                deleteTree(p);
            }
            for (String table : rows.keySet()) {
                Path target = base.resolve(table);
                Files.createDirectories(target);
                Files.move(staging.resolve(table).resolve(ParquetDataset.PARTITION + name),
                        target.resolve(ParquetDataset.PARTITION + name), StandardCopyOption.ATOMIC_MOVE);
            }
            traces.put(name, traceJson(name, store.toString(), facts, rows));
            writeManifest(base, facts.version(), traces.values());
            return new Result(name, store, rows, skippedTables);
        } finally {
            deleteStaging(staging);
        }
    }

    /**
     * Writes the committed in-memory store {@code db} ({@link StoreWriter#inMemory}) as trace {@code name} into
     * {@code dir}, a new dataset folder of its own, for a job that merges such folders ({@link #merge}): what
     * {@link #export} writes for a store file, without the file. {@code label} is the manifest's {@code store}
     * member (hetscope spark import gives the trace's path). No lock and no staging: nobody else writes {@code dir},
     * and only a complete folder is merged. With {@code skipEmpty}, a table without rows gets no file: its columns
     * and types go into the folder's manifest ({@value #EMPTY_TABLES}), and {@link #merge} writes one empty file for
     * a table that no trace of the dataset has a file of, so that every table stays readable with its columns.
     *
     * @throws IOException when dir exists or a table cannot be written
     */
    public static Result exportDatabase(Connection db, Path dir, String name, String label, boolean skipEmpty)
            throws IOException {
        if (!ParquetDataset.NAME.matcher(name).matches()) {
            throw new IOException("trace name '" + name + "': use letters, digits, '.', '_' and '-', starting with a "
                    + "letter or digit (at most 200)");
        }
        if (dir.toAbsolutePath().getParent() != null) {
            Files.createDirectories(dir.toAbsolutePath().getParent());
        }
        Files.createDirectory(dir);
        try {
            Map<String, String> info = new LinkedHashMap<>();
            try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT key, value FROM trace_info")) {
                while (rs.next()) {
                    info.put(rs.getString(1), rs.getString(2));
                }
            }
            long skipped;
            long damaged;
            try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT coalesce(sum(count), 0), "
                    + "coalesce(sum(count) FILTER (WHERE " + Schema.SKIPPED_DAMAGE + "), 0) FROM skipped")) {
                rs.next();
                skipped = rs.getLong(1);
                damaged = rs.getLong(2);
            }
            String catalog;
            try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT current_database()")) {
                rs.next();
                catalog = rs.getString(1);
            }
            long version = Long.parseLong(info.getOrDefault("schema_version", "0").strip());
            Facts facts = new Facts(info, version, skipped, damaged, false);
            Map<String, Long> rows = new TreeMap<>();
            List<String> skippedTables = new ArrayList<>();
            Map<String, List<String[]>> empty = new TreeMap<>();
            copyTables(db, catalog, dir, name, rows, skippedTables, skipEmpty ? empty : null);
            writeManifest(dir, version, List.of(traceJson(name, label, facts, rows)), emptyJson(empty));
            return new Result(name, Path.of(label), rows, skippedTables);
        } catch (SQLException e) {
            throw new IOException(label + ": Parquet export failed: " + ParquetDataset.firstLine(e.getMessage()), e);
        }
    }

    /**
     * Moves the traces of other dataset folders into the dataset {@code dir} (created if absent) and records them in
     * its manifest, under its lock: for jobs that export many traces in parallel, each into a dataset folder of its
     * own ({@link #export}) on the same file system, e.g. {@code DIR/.hetscope-job-ID/TRACE} (hetscope spark import).
     * A source's partitions are moved (renamed), so the published dataset never holds half a trace; the sources are
     * left empty of partitions and are the caller's to delete. Returns the trace names added, in order.
     *
     * @throws IOException when dir is not a dataset, a source holds another schema version, or a trace is there
     *     already and {@code force} is false (nothing is moved then)
     */
    public static List<String> merge(Path dir, List<Path> sources, boolean force) throws IOException {
        return underLock(dir, base -> mergeLocked(dir, base, sources, force));
    }

    private static List<String> mergeLocked(Path dir, Path base, List<Path> sources, boolean force)
            throws IOException {
        Map<String, String> traces = new TreeMap<>();
        Long version = null;
        if (ParquetDataset.isDataset(base)) {
            ParquetDataset.Manifest m = ParquetDataset.readManifest(base);
            version = m.schemaVersion();
            traces.putAll(m.traces());
        }
        // every check before the first move
        List<ParquetDataset.Manifest> manifests = new ArrayList<>();
        Map<String, Path> from = new LinkedHashMap<>();
        // tables without rows, by table: the first trace (of a source that lists it) and the columns
        Map<String, Map.Entry<String, List<String[]>>> empty = new TreeMap<>();
        // one connection parses every source's manifest (a connection each took most of a merge of many traces)
        Connection json;
        try {
            json = ParquetDataset.plainConnection();
        } catch (SQLException e) {
            throw new IOException(dir + ": cannot read the manifests (" + ParquetDataset.firstLine(e.getMessage()) + ")");
        }
        try (json) {
            for (Path src : sources) {
                ParquetDataset.Manifest m = ParquetDataset.readManifest(json, src);
                if (!m.traces().isEmpty()) {
                    String first = m.traces().keySet().iterator().next();
                    emptyTables(json, src).forEach((t, cols) -> empty.putIfAbsent(t, Map.entry(first, cols)));
                }
                if (version != null && m.schemaVersion() != version) {
                    throw new IOException(dir + ": the dataset holds stores of schema version " + version + ", "
                            + src + " holds version " + m.schemaVersion() + "; merge it into another folder");
                }
                version = m.schemaVersion();
                for (String name : m.traces().keySet()) {
                    if (from.containsKey(name)) {
                        throw new IOException(src + ": trace '" + name + "' also comes from " + from.get(name));
                    }
                    from.put(name, src);
                    if (!force && (traces.containsKey(name) || !partitions(base, name).isEmpty())) {
                        throw new IOException(dir + ": already holds trace '" + name + "'; --force replaces it");
                    }
                    for (Path p : partitions(base, name)) {
                        checkOurs(p);
                    }
                }
                manifests.add(m);
            }
        } catch (SQLException e) {
            throw new IOException(dir + ": " + ParquetDataset.firstLine(e.getMessage()));
        }
        List<String> added = new ArrayList<>();
        for (int i = 0; i < manifests.size(); i++) {
            Path src = sources.get(i).toRealPath();
            for (var e : manifests.get(i).traces().entrySet()) {
                String name = e.getKey();
                for (Path p : partitions(base, name)) {
                    deleteTree(p);
                }
                for (Path p : partitions(src, name)) {
                    Path target = base.resolve(p.getParent().getFileName().toString());
                    Files.createDirectories(target);
                    Files.move(p, target.resolve(p.getFileName().toString()), StandardCopyOption.ATOMIC_MOVE);
                }
                traces.put(name, e.getValue());
                added.add(name);
            }
        }
        if (version == null) {
            throw new IOException(dir + ": nothing to merge (no traces)");
        }
        // a table without rows in every trace keeps one file, so that both readers see it with its columns
        Map<String, List<Path>> files = empty.isEmpty() ? Map.of() : ParquetDataset.partFiles(base, traces.keySet());
        Map<Path, List<String[]>> toWrite = new LinkedHashMap<>();
        for (var e : empty.entrySet()) {
            if (files.getOrDefault(e.getKey(), List.of()).isEmpty()) {
                toWrite.put(base.resolve(e.getKey()).resolve(ParquetDataset.PARTITION + e.getValue().getKey())
                        .resolve("part-0.parquet"), e.getValue().getValue());
            }
        }
        writeEmpty(toWrite);
        writeManifest(base, version, traces.values());
        return added;
    }

    private static void copyTables(Path store, Path staging, String name, Map<String, Long> rows,
            List<String> skippedTables) throws IOException {
        Properties props = new Properties();
        props.putAll(NO_EXTENSIONS);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:", props)) {
            try (Statement st = c.createStatement()) {
                // before anything of the store is read: it may reach only itself and the staging folder
                st.execute("SET allowed_paths = " + list(List.of(store.toString(), store + ".wal")));
                st.execute("SET allowed_directories = " + list(List.of(staging + "/")));
                st.execute("SET temp_directory = " + literal(staging.resolve(".tmp").toString()));
                st.execute("SET enable_external_access = false");
                st.execute("SET lock_configuration = true");
                st.execute("ATTACH " + literal(store.toString()) + " AS hs_source (READ_ONLY)");
            }
            copyTables(c, "hs_source", staging, name, rows, skippedTables, null);
        } catch (SQLException e) {
            throw new IOException(store + ": Parquet export failed: " + Store.nameDamagedStore(
                    ParquetDataset.firstLine(e.getMessage())), e);
        }
    }

    /**
     * Writes the base tables of {@code catalog} into {@code folder/TABLE/trace=NAME/part-0.parquet}, recording their
     * rows; with {@code empty} not null, a table without rows whose types {@link #SIMPLE_TYPE} can restate gets no
     * file, its columns and types go into {@code empty} instead.
     */
    private static void copyTables(Connection c, String catalog, Path folderOf, String name, Map<String, Long> rows,
            List<String> skippedTables, Map<String, List<String[]>> empty) throws SQLException, IOException {
        long t0 = System.nanoTime();
        // every base table with its stored columns, in one look at the catalog
        Map<String, List<String[]>> tables = new TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT t.table_name, c.column_name, c.data_type FROM "
                + "information_schema.tables t LEFT JOIN information_schema.columns c ON c.table_catalog = "
                + "t.table_catalog AND c.table_schema = t.table_schema AND c.table_name = t.table_name AND "
                + "c.is_generated = 'NEVER' WHERE t.table_catalog = ? AND t.table_schema = 'main' AND t.table_type = "
                + "'BASE TABLE' ORDER BY t.table_name, c.ordinal_position")) {
            ps.setString(1, catalog);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    List<String[]> cols = tables.computeIfAbsent(rs.getString(1), k -> new ArrayList<>());
                    if (rs.getString(2) != null) {
                        cols.add(new String[] {rs.getString(2), rs.getString(3)});
                    }
                }
            }
        }
        List<String> copied = new ArrayList<>();
        for (var e : tables.entrySet()) {
            String table = e.getKey();
            List<String[]> typed = e.getValue();
            if (!ParquetDataset.TABLE.matcher(table).matches()) {
                skippedTables.add(table + " (name is not a lower-case SQL identifier)");
            } else if (typed.isEmpty() || typed.stream().anyMatch(col -> col[0].equalsIgnoreCase("trace"))) {
                skippedTables.add(table + (typed.isEmpty() ? " (no stored columns)"
                        : " (has a column 'trace', the dataset's partition column)"));
            } else {
                copied.add(table);
            }
        }
        if (copied.isEmpty()) {
            return;
        }
        // the rows of every table, in one query
        List<String> counts = new ArrayList<>();
        for (int i = 0; i < copied.size(); i++) {
            counts.add("SELECT " + i + " AS i, count(*) AS n FROM " + ident(catalog) + ".main." + ident(copied.get(i)));
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(String.join(" UNION ALL ", counts))) {
            while (rs.next()) {
                rows.put(copied.get(rs.getInt(1)), rs.getLong(2));
            }
        }
        long t1 = System.nanoTime();
        for (String table : copied) {
            List<String[]> typed = tables.get(table);
            if (empty != null && rows.get(table) == 0 && typed.stream().allMatch(
                    t -> ParquetDataset.TABLE.matcher(t[0]).matches() && SIMPLE_TYPE.matcher(t[1]).matches())) {
                empty.put(table, typed);
                continue;
            }
            Path folder = folderOf.resolve(table).resolve(ParquetDataset.PARTITION + name);
            Files.createDirectories(folder);
            try (Statement st = c.createStatement()) {
                st.execute("COPY (SELECT " + String.join(", ", typed.stream().map(col -> ident(col[0])).toList())
                        + " FROM " + ident(catalog) + ".main." + ident(table) + ") TO "
                        + literal(folder.resolve("part-0.parquet").toString()) + " (FORMAT parquet, COMPRESSION zstd)");
            }
        }
        if (DEBUG) {
            System.err.printf("hetscope: export %s: catalog and counts %.3f s, %d files %.3f s%n", name,
                    (t1 - t0) / 1e9, copied.size() - (empty == null ? 0 : empty.size()), (System.nanoTime() - t1) / 1e9);
        }
    }

    /** The manifest entry of one trace, as JSON text. */
    private static String traceJson(String name, String store, Facts f, Map<String, Long> rows) {
        List<String> formats = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        for (int i = 0; f.info().containsKey("source." + i + ".path") || f.info().containsKey("source." + i + ".format"); i++) {
            String fmt = f.info().get("source." + i + ".format");
            if (fmt != null && !formats.contains(fmt)) {
                formats.add(fmt);
            }
            String p = f.info().get("source." + i + ".path");
            if (p != null) {
                sources.add(p);
            }
        }
        StringBuilder b = new StringBuilder("{\"trace\":").append(json(name));
        b.append(",\"store\":").append(json(store));
        b.append(",\"formats\":").append(jsonList(formats));
        b.append(",\"sources\":").append(jsonList(sources));
        b.append(",\"skipped\":").append(f.skipped());
        b.append(",\"damaged\":").append(f.damaged());
        b.append(",\"partial\":").append(f.partial());
        b.append(",\"tables\":{");
        boolean first = true;
        for (var e : rows.entrySet()) {
            b.append(first ? "" : ",").append(json(e.getKey())).append(':').append(e.getValue());
            first = false;
        }
        return b.append("}}").toString();
    }

    private static void writeManifest(Path base, long version, Collection<String> traces) throws IOException {
        writeManifest(base, version, traces, null);
    }

    private static void writeManifest(Path base, long version, Collection<String> traces, String extra)
            throws IOException {
        StringBuilder b = new StringBuilder("{\n  \"format\": ").append(json(ParquetDataset.FORMAT));
        b.append(",\n  \"schema_version\": ").append(version);
        b.append(",\n  \"layout\": \"TABLE/trace=TRACE/part-N.parquet\"");
        b.append(",\n  \"traces\": [");
        boolean first = true;
        for (String t : traces) {
            b.append(first ? "\n    " : ",\n    ").append(t);
            first = false;
        }
        b.append("\n  ]");
        if (extra != null) {
            b.append(",\n  ").append(json(EMPTY_TABLES)).append(": ").append(extra);
        }
        b.append("\n}\n");
        Path tmp = base.resolve(ParquetDataset.MANIFEST + ".tmp");
        Files.writeString(tmp, b);
        Files.move(tmp, base.resolve(ParquetDataset.MANIFEST), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
    }

    /** The partition folders of trace {@code name} in every table folder. */
    private static List<Path> partitions(Path base, String name) throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(base)) {
            for (Path t : ds) {
                Path p = t.resolve(ParquetDataset.PARTITION + name);
                if (Files.isDirectory(t, LinkOption.NOFOLLOW_LINKS) && Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                    out.add(p);
                }
            }
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    /** Refuses to delete a partition folder that holds anything an export does not write. */
    private static void checkOurs(Path partition) throws IOException {
        if (!Files.isDirectory(partition, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(partition + ": not a folder written by hetscope export; not replaced");
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(partition)) {
            for (Path f : ds) {
                if (!ParquetDataset.PART.matcher(f.getFileName().toString()).matches()
                        || !Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                    throw new IOException(partition + ": holds " + f.getFileName() + ", which hetscope export did not "
                            + "write; not replaced");
                }
            }
        }
    }

    /** Whether a folder without a manifest holds only what an export leaves (its lock, a staging folder). */
    private static boolean onlyOurs(Path dir) throws IOException {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                String n = p.getFileName().toString();
                if (!n.equals(LOCK_FILE) && !n.startsWith(STAGING_PREFIX) && !n.startsWith(JOB_PREFIX)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Deletes a staging folder: only folders and the files an export writes there. */
    private static void deleteStaging(Path staging) throws IOException {
        if (Files.isDirectory(staging, LinkOption.NOFOLLOW_LINKS)) {
            deleteTree(staging);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** A SQL string literal. */
    static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    /** A SQL list of string literals. */
    static String list(List<String> items) {
        return "[" + String.join(", ", items.stream().map(ParquetExport::literal).toList()) + "]";
    }

    /** A quoted SQL identifier. */
    static String ident(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    /** A JSON string. */
    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /** The tables without rows of {@link #exportDatabase}: {"TABLE": [["column", "TYPE"], ...], ...}. */
    private static String emptyJson(Map<String, List<String[]>> empty) {
        StringBuilder b = new StringBuilder("{");
        boolean first = true;
        for (var e : empty.entrySet()) {
            b.append(first ? "" : ",").append(json(e.getKey())).append(":[");
            first = false;
            for (int i = 0; i < e.getValue().size(); i++) {
                String[] c = e.getValue().get(i);
                b.append(i == 0 ? "" : ",").append(jsonList(List.of(c[0], c[1])));
            }
            b.append(']');
        }
        return b.append('}').toString();
    }

    /** The tables without rows a job folder's manifest lists ({@link #exportDatabase}), checked; none if absent. */
    static Map<String, List<String[]>> emptyTables(Connection c, Path dir) throws IOException {
        Path file = dir.resolve(ParquetDataset.MANIFEST);
        String text = Files.readString(file);
        Map<String, List<String[]>> out = new TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT e.key, CAST(json_extract_string(e.value, '$[*][0]') AS VARCHAR[]), "
                        + "CAST(json_extract_string(e.value, '$[*][1]') AS VARCHAR[]) FROM json_each(json_extract("
                        + "CAST(? AS JSON), '$." + EMPTY_TABLES + "')) AS e")) {
            ps.setString(1, text);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String table = rs.getString(1);
                    Object[] names = (Object[]) rs.getArray(2).getArray();
                    Object[] types = (Object[]) rs.getArray(3).getArray();
                    List<String[]> columns = new ArrayList<>();
                    for (int i = 0; i < names.length && i < types.length; i++) {
                        columns.add(new String[] {String.valueOf(names[i]), String.valueOf(types[i])});
                    }
                    boolean valid = table != null && ParquetDataset.TABLE.matcher(table).matches() && !columns.isEmpty()
                            && names.length == types.length && columns.stream().allMatch(
                                    col -> ParquetDataset.TABLE.matcher(col[0]).matches()
                                            && SIMPLE_TYPE.matcher(col[1]).matches());
                    if (!valid) {
                        throw new IOException(file + ": a table of \"" + EMPTY_TABLES + "\" is not a table name with "
                                + "columns and types: " + table);
                    }
                    out.put(table, columns);
                }
            }
        } catch (SQLException e) {
            throw new IOException(file + ": not a hetscope dataset manifest (" + ParquetDataset.firstLine(e.getMessage())
                    + ")");
        }
        return out;
    }

    /** Writes Parquet files of no rows with the given columns and types (tables without rows in every trace). */
    private static void writeEmpty(Map<Path, List<String[]>> files) throws IOException {
        if (files.isEmpty()) {
            return;
        }
        for (Path file : files.keySet()) {
            Files.createDirectories(file.getParent());
        }
        Properties props = new Properties();
        props.putAll(NO_EXTENSIONS);
        Path file = null;
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:", props); Statement st = c.createStatement()) {
            st.execute("SET allowed_paths = " + list(files.keySet().stream().map(Path::toString).toList()));
            st.execute("SET enable_external_access = false");
            st.execute("SET lock_configuration = true");
            for (var e : files.entrySet()) {
                file = e.getKey();
                List<String> select = new ArrayList<>();
                for (String[] col : e.getValue()) {
                    select.add("CAST(NULL AS " + col[1] + ") AS " + ident(col[0]));
                }
                st.execute("COPY (SELECT " + String.join(", ", select) + " LIMIT 0) TO " + literal(file.toString())
                        + " (FORMAT parquet, COMPRESSION zstd)");
            }
        } catch (SQLException e) {
            throw new IOException((file == null ? "" : file + ": ") + "cannot write an empty table's file: "
                    + ParquetDataset.firstLine(e.getMessage()), e);
        }
    }

    private static String jsonList(List<String> items) {
        return "[" + String.join(",", items.stream().map(ParquetExport::json).toList()) + "]";
    }

    /** For tests: the part files of one trace per table. */
    static Map<String, List<Path>> partFiles(Path dir, String trace) throws IOException {
        return new LinkedHashMap<>(ParquetDataset.partFiles(dir.toRealPath(), java.util.Set.of(trace)));
    }
}
