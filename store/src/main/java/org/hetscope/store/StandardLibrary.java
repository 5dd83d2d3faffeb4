package org.hetscope.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * hetscope's standard library of analyses: views and table macros (named {@code hs_*}) that define every figure
 * the CLI, the web server and the report show, written once in SQL (resources {@code stdlib/*.sql}, documented in
 * docs/stdlib.md). They are installed as TEMP objects on each read connection: the store itself stays read-only
 * and unchanged, and temporary objects are no configuration, so this works before or after the connection's
 * configuration is locked.
 */
public final class StandardLibrary {
    /** The library's files, in the order they are installed (later files use earlier views). */
    static final List<String> FILES = List.of("bounds.sql", "devices.sql", "durations.sql", "launch.sql",
            "selection.sql", "rocprof.sql");
    /** Files over tables a reader adds (not in every store): their views install only where the tables exist. */
    static final Set<String> OPTIONAL_FILES = Set.of("rocprof.sql");

    private static final List<String> STATEMENTS = new ArrayList<>();
    private static final Set<String> OPTIONAL = new HashSet<>();

    static {
        load();
    }

    private StandardLibrary() {
    }

    /**
     * Creates the library's views and macros on {@code connection}. A statement that does not bind (a store of an
     * older schema lacking a table it reads) is left out, and the views built on it with it; the others install.
     * Running it again re-installs the library (after a session created a table an optional file reads).
     *
     * @return the messages of the statements left out (empty when all installed), not counting the optional files'
     *     statements over tables the store does not have
     */
    public static List<String> install(Connection connection) {
        List<String> failed = new ArrayList<>();
        for (String sql : STATEMENTS) {
            // A statement per statement: DuckDB's JDBC driver closes a Statement whose execution failed.
            try (Statement st = connection.createStatement()) {
                st.execute(sql);
            } catch (SQLException e) {
                if (!OPTIONAL.contains(sql)) {
                    failed.add(firstLine(e.getMessage()));
                }
            }
        }
        return failed;
    }

    /** The statements of all files, in installation order. */
    public static List<String> statements() {
        return List.copyOf(STATEMENTS);
    }

    private static void load() {
        for (String file : FILES) {
            String text;
            try (InputStream in = StandardLibrary.class.getResourceAsStream("stdlib/" + file)) {
                if (in == null) {
                    throw new IllegalStateException("stdlib/" + file + " missing from the store module");
                }
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            List<String> statements = split(text);
            STATEMENTS.addAll(statements);
            if (OPTIONAL_FILES.contains(file)) {
                OPTIONAL.addAll(statements);
            }
        }
    }

    /** Splits a file into statements at lines ending in ';' (the files keep ';' out of comments and strings). */
    static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            String trimmed = line.strip();
            if (trimmed.startsWith("--") || trimmed.isEmpty()) {
                continue;
            }
            cur.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                out.add(cur.toString().strip());
                cur.setLength(0);
            }
        }
        if (!cur.toString().isBlank()) {
            out.add(cur.toString().strip());
        }
        return out;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
