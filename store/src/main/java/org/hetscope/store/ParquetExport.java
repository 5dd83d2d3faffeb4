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
            traces.put(name, traceJson(name, store, facts, rows));
            writeManifest(base, facts.version(), traces.values());
            return new Result(name, store, rows, skippedTables);
        } finally {
            deleteStaging(staging);
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
        for (Path src : sources) {
            ParquetDataset.Manifest m = ParquetDataset.readManifest(src);
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
            List<String> tables = new ArrayList<>();
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT table_name FROM "
                    + "information_schema.tables WHERE table_catalog = 'hs_source' AND table_schema = 'main' AND "
                    + "table_type = 'BASE TABLE' ORDER BY table_name")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            for (String table : tables) {
                if (!ParquetDataset.TABLE.matcher(table).matches()) {
                    skippedTables.add(table + " (name is not a lower-case SQL identifier)");
                    continue;
                }
                List<String> columns = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement("SELECT column_name FROM information_schema.columns "
                        + "WHERE table_catalog = 'hs_source' AND table_schema = 'main' AND table_name = ? AND "
                        + "is_generated = 'NEVER' ORDER BY ordinal_position")) {
                    ps.setString(1, table);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            columns.add(rs.getString(1));
                        }
                    }
                }
                if (columns.isEmpty() || columns.stream().anyMatch(col -> col.equalsIgnoreCase("trace"))) {
                    skippedTables.add(table + (columns.isEmpty() ? " (no stored columns)"
                            : " (has a column 'trace', the dataset's partition column)"));
                    continue;
                }
                String from = "hs_source.main." + ident(table);
                Path folder = staging.resolve(table).resolve(ParquetDataset.PARTITION + name);
                Files.createDirectories(folder);
                try (Statement st = c.createStatement()) {
                    st.execute("COPY (SELECT " + String.join(", ", columns.stream().map(ParquetExport::ident).toList())
                            + " FROM " + from + ") TO " + literal(folder.resolve("part-0.parquet").toString())
                            + " (FORMAT parquet, COMPRESSION zstd)");
                }
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM " + from)) {
                    rs.next();
                    rows.put(table, rs.getLong(1));
                }
            }
        } catch (SQLException e) {
            throw new IOException(store + ": Parquet export failed: " + Store.nameDamagedStore(
                    ParquetDataset.firstLine(e.getMessage())), e);
        }
    }

    /** The manifest entry of one trace, as JSON text. */
    private static String traceJson(String name, Path store, Facts f, Map<String, Long> rows) {
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
        b.append(",\"store\":").append(json(store.toString()));
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
        StringBuilder b = new StringBuilder("{\n  \"format\": ").append(json(ParquetDataset.FORMAT));
        b.append(",\n  \"schema_version\": ").append(version);
        b.append(",\n  \"layout\": \"TABLE/trace=TRACE/part-N.parquet\"");
        b.append(",\n  \"traces\": [");
        boolean first = true;
        for (String t : traces) {
            b.append(first ? "\n    " : ",\n    ").append(t);
            first = false;
        }
        b.append("\n  ]\n}\n");
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

    private static String jsonList(List<String> items) {
        return "[" + String.join(",", items.stream().map(ParquetExport::json).toList()) + "]";
    }

    /** For tests: the part files of one trace per table. */
    static Map<String, List<Path>> partFiles(Path dir, String trace) throws IOException {
        return new LinkedHashMap<>(ParquetDataset.partFiles(dir.toRealPath(), java.util.Set.of(trace)));
    }
}
