package org.hetscope.web;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.hetscope.store.ReadOnlySql;
import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * The web UI's query console: one read-only statement over a store and the standard library's views
 * (docs/stdlib.md), as 'hetscope sql' runs it. Statements that do not only read are refused by {@link ReadOnlySql}
 * with a clear message; the store's connection settings refuse file access, ATTACH and extensions whatever the
 * statement. Each query runs on a fresh connection of its own (closed afterwards), so nothing a query does can
 * change the views the other panels read, and a slow query never queues the timeline's requests. Answers are
 * bounded: at most {@link #MAX_ROWS} rows, and a query still running after {@link #timeoutMillis} is cancelled.
 */
public final class SqlConsole {
    /** Rows sent to the page; the answer says when there were more. */
    public static final int MAX_ROWS = 5_000;
    /** The largest integer a JavaScript number holds exactly (2^53 - 1). */
    static final long MAX_SAFE_INTEGER = (1L << 53) - 1;
    /** Longest statement accepted, in characters. */
    public static final int MAX_SQL_CHARS = 20_000;

    private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "hetscope-sql-watchdog");
        t.setDaemon(true);
        return t;
    });

    private final long timeoutMillis;

    public SqlConsole(long timeoutMillis) {
        this.timeoutMillis = timeoutMillis;
    }

    /** A query's answer: its rows (at most {@link #MAX_ROWS}), whether more were cut, and how long it took. */
    public record Answer(Table table, boolean truncated, long elapsedMillis) {
    }

    /** Runs one read-only statement; refusals and SQL errors are {@link BadQueryException}s with their reason. */
    public Answer run(Store store, String sql) {
        if (sql == null || sql.isBlank()) {
            throw new BadQueryException("empty query: type a SELECT over the store's tables (docs/schema.md) or the "
                    + "standard library's views (docs/stdlib.md)");
        }
        if (sql.length() > MAX_SQL_CHARS) {
            throw new BadQueryException("query longer than " + MAX_SQL_CHARS + " characters");
        }
        String refused = ReadOnlySql.refusal(sql);
        if (refused != null) {
            throw new BadQueryException(refused + "; the console runs queries that read the store "
                    + "(SELECT, WITH, DESCRIBE, SUMMARIZE, EXPLAIN, SHOW, PRAGMA table_info)");
        }
        List<String> statements = ReadOnlySql.statements(sql).stream().filter(s -> !s.isBlank()).toList();
        if (statements.size() != 1) {
            throw new BadQueryException("one statement at a time: this query has " + statements.size());
        }
        String statement = statements.get(0).strip();
        long start = System.nanoTime();
        AtomicBoolean timedOut = new AtomicBoolean();
        try (Connection c = store.newConnection(); Statement st = c.createStatement()) {
            ScheduledFuture<?> cancel = WATCHDOG.schedule(() -> {
                timedOut.set(true);
                try {
                    st.cancel();
                } catch (SQLException ignored) {
                    // the statement ended meanwhile
                }
            }, timeoutMillis, TimeUnit.MILLISECONDS);
            try (ResultSet rs = st.executeQuery(bounded(statement))) {
                Table t = Store.readTable("query", rs, MAX_ROWS + 1);
                boolean truncated = t.size() > MAX_ROWS;
                if (truncated) {
                    t = new Table("query", t.columns(), t.rows().subList(0, MAX_ROWS));
                }
                return new Answer(t, truncated, (System.nanoTime() - start) / 1_000_000);
            } finally {
                cancel.cancel(false);
            }
        } catch (SQLException e) {
            if (timedOut.get()) {
                throw new BadQueryException("query cancelled: it ran longer than " + timeoutMillis / 1000 + " s");
            }
            throw new BadQueryException(message(e));
        } catch (RuntimeException e) {
            if (e instanceof BadQueryException) {
                throw e;
            }
            throw new BadQueryException(message(e));
        }
    }

    /**
     * The statement with a row limit around it, so that the database never materialises more than the page gets;
     * PRAGMA and EXPLAIN cannot be a subquery and answer a few rows anyway.
     */
    static String bounded(String statement) {
        String first = statement.replaceFirst("^[\\s(]+", "").split("[^A-Za-z_]", 2)[0].toUpperCase(Locale.ROOT);
        if (first.equals("PRAGMA") || first.equals("EXPLAIN")) {
            return statement;
        }
        return "SELECT * FROM (" + statement + "\n) LIMIT " + (MAX_ROWS + 1);
    }

    /** The rows with integers a browser's double cannot hold exactly (absolute epoch ns) as text, digit for digit. */
    static List<Object[]> exactRows(List<Object[]> in) {
        List<Object[]> rows = new ArrayList<>(in.size());
        for (Object[] r : in) {
            Object[] out = r.clone();
            for (int i = 0; i < out.length; i++) {
                if (out[i] instanceof Long v && Math.abs(v) > MAX_SAFE_INTEGER) {
                    out[i] = v.toString();
                }
            }
            rows.add(out);
        }
        return rows;
    }

    private static String message(Exception e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        String line = nl < 0 ? m : m.substring(0, nl);
        if (line.contains("Permission Error")) {
            return "read-only: a query cannot read or write files, attach databases or load extensions (" + line + ")";
        }
        return "query failed: " + line;
    }

    /**
     * The answer as the page gets it: columns, rows, and, when the rows have integer {@code ts} and {@code dur}
     * columns (times in the store's absolute ns), the same rows as a track: [start, dur, row, track_id] with start
     * relative to the trace's origin as every other API time; a {@code track_id} column assigns rows to tracks.
     */
    public static Map<String, Object> json(TraceView trace, Answer a) {
        Table t = a.table();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("columns", t.columns());
        m.put("rows", exactRows(t.rows()));
        m.put("truncated", a.truncated());
        m.put("elapsed_ms", a.elapsedMillis());
        int ts = t.columns().indexOf("ts");
        int dur = t.columns().indexOf("dur");
        int track = t.columns().indexOf("track_id");
        if (ts < 0 || dur < 0) {
            m.put("track", null);
            m.put("track_note", "no track: the result needs columns named ts and dur (ns)");
            return m;
        }
        List<long[]> items = new ArrayList<>();
        int skipped = 0;
        for (int i = 0; i < t.size(); i++) {
            Object[] r = t.rows().get(i);
            if (!(r[ts] instanceof Long start) || !(r[dur] instanceof Long d) || d < 0) {
                skipped++;
                continue;
            }
            long tr = track >= 0 && r[track] instanceof Long id ? id : -1;
            items.add(new long[] {start - trace.origin(), d, i, tr});
        }
        m.put("track", items);
        m.put("track_note", skipped == 0 ? null : skipped + " rows without integer ts and non-negative dur are not drawn");
        return m;
    }
}
