package org.hetscope.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.hetscope.formats.sqlite.SqliteFiles;
import org.hetscope.model.TraceFormat;

/** The trace formats on the class path, found through {@link ServiceLoader}. */
public final class Formats {
    private Formats() {}

    public static List<TraceFormat> all() {
        List<TraceFormat> list = new ArrayList<>();
        ServiceLoader.load(TraceFormat.class).forEach(list::add);
        // ServiceLoader order is the class path's: make detection deterministic, most specific first.
        list.sort(java.util.Comparator.comparingInt(TraceFormat::priority).reversed()
                .thenComparing(TraceFormat::name));
        return list;
    }

    /** The format named {@code name}, or the first one that accepts {@code input} when name is null. */
    public static TraceFormat find(Path input, String name) throws IOException {
        List<TraceFormat> formats = all();
        if (name != null) {
            for (TraceFormat f : formats) {
                if (f.name().equalsIgnoreCase(name)) {
                    return f;
                }
            }
            throw new IOException("unknown format '" + name + "'; known: "
                    + formats.stream().map(TraceFormat::name).toList());
        }
        for (TraceFormat f : formats) {
            if (f.accepts(input)) {
                return f;
            }
        }
        if (SqliteFiles.isSqlite(input)) {
            // the SQLite readers recognise a file by its tables: a damaged file fails that before any reader runs
            String damage = SqliteFiles.damage(input);
            throw new IOException(input + ": an SQLite database that no reader recognises by its tables (nsys export, "
                    + "rocpd, RPD), or whose schema cannot be read (truncated or damaged?); name the format with "
                    + "--format to see the reader's own error" + (damage == null ? "" : ". The file scanner finds: "
                    + damage));
        }
        if (Files.isRegularFile(input) && org.hetscope.store.Store.isDuckDbFile(input)) {
            throw new IOException(input + ": a DuckDB database, not a trace (a hetscope store is read as it is: "
                    + "'hetscope info', 'stats', 'sql', 'serve')");
        }
        throw new IOException(input + ": not a trace format hetscope knows (tried "
                + formats.stream().map(TraceFormat::name).toList() + "); name one with --format");
    }
}
