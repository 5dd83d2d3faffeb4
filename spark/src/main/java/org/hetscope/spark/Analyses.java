package org.hetscope.spark;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hetscope.store.Table;

/**
 * The cross-trace analyses: one SQL file each (resources org/hetscope/spark/sql), written once for both engines,
 * DuckDB (over a Parquet dataset, or over stores) and Spark SQL, and rendered for each by {@link #render}. The
 * files keep to what both dialects read alike; what differs is spelled once in the source and rewritten here:
 * <ul>
 *   <li>{@code {{NAME}}} inlines another analysis as a subquery (both engines);</li>
 *   <li>{@code try_cast(x AS T)}: DuckDB spells it {@code TRY_CAST}, Spark {@code try_cast}, the same words;</li>
 *   <li>{@code CAST(x AS STRING)}: DuckDB reads STRING as VARCHAR, Spark has no VARCHAR cast;</li>
 *   <li>{@code floor(a / b)} over integers: both divide in floating point ({@code /}), DuckDB's floor gives a
 *       DOUBLE and Spark's a BIGINT, equal when compared with an integer.</li>
 * </ul>
 * The one rewrite: Spark reads {@code ||} as string concatenation only when {@code spark.sql.ansi.enabled} allows
 * it, so {@code a || b} is rendered as {@code concat(a, b)} for Spark (a NULL operand gives NULL in both).
 */
public final class Analyses {
    /** The engines a query is rendered for. */
    public enum Dialect { DUCKDB, SPARK }

    /** Every analysis, in the order the commands print them. */
    public static final List<String> NAMES = List.of("stats", "spread", "gpu", "ranks", "imbalance", "stragglers");

    private static final Pattern INCLUDE = Pattern.compile("\\{\\{([a-z]+)\\}\\}");
    private static final Pattern CONCAT = Pattern.compile("(coalesce\\([^()]*\\)|'[^']*'|[A-Za-z_][A-Za-z0-9_.]*|"
            + "coalesce\\(CAST\\([^()]*\\), '[^']*'\\))\\s*\\|\\|\\s*");

    private Analyses() {
    }

    /** The source of analysis {@code name}, comments removed. */
    public static String source(String name) {
        if (!NAMES.contains(name)) {
            throw new IllegalArgumentException("no analysis " + name + "; known: " + NAMES);
        }
        try (InputStream in = Analyses.class.getResourceAsStream("sql/" + name + ".sql")) {
            if (in == null) {
                throw new IllegalStateException("sql/" + name + ".sql missing from the class path");
            }
            StringBuilder b = new StringBuilder();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.strip().startsWith("--")) {
                    b.append(line).append('\n');
                }
            }
            String sql = b.toString().strip();
            Matcher m = INCLUDE.matcher(sql);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                m.appendReplacement(out, Matcher.quoteReplacement(source(m.group(1))));
            }
            m.appendTail(out);
            return out.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Analysis {@code name} as {@code dialect} runs it. */
    public static String render(String name, Dialect dialect) {
        return render(source(name), dialect, true);
    }

    /** A query in the shared dialect as {@code dialect} runs it. */
    static String render(String sql, Dialect dialect, boolean shared) {
        if (dialect == Dialect.DUCKDB) {
            return sql;
        }
        return concat(sql);
    }

    /** {@code a || b || c} to {@code concat(a, b, c)}, for the operands the analyses use. */
    static String concat(String sql) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (true) {
            int bar = sql.indexOf("||", i);
            if (bar < 0) {
                out.append(sql, i, sql.length());
                return out.toString();
            }
            // the chain: operands separated by ||, each an identifier, a literal or coalesce(...)
            int start = operandStart(sql, bar);
            List<String> ops = new ArrayList<>();
            ops.add(sql.substring(start, bar).strip());
            int pos = bar;
            while (pos < sql.length() && sql.startsWith("||", pos)) {
                int s = pos + 2;
                while (Character.isWhitespace(sql.charAt(s))) {
                    s++;
                }
                int e = operandEnd(sql, s);
                ops.add(sql.substring(s, e));
                pos = e;
                int k = pos;
                while (k < sql.length() && Character.isWhitespace(sql.charAt(k))) {
                    k++;
                }
                if (sql.startsWith("||", k)) {
                    pos = k;
                }
            }
            out.append(sql, i, start).append("concat(").append(String.join(", ", ops)).append(')');
            i = pos;
        }
    }

    private static int operandStart(String sql, int bar) {
        int e = bar;
        while (e > 0 && Character.isWhitespace(sql.charAt(e - 1))) {
            e--;
        }
        int s = e;
        if (sql.charAt(e - 1) == ')') {
            int depth = 0;
            s = e - 1;
            do {
                char c = sql.charAt(s);
                if (c == ')') {
                    depth++;
                } else if (c == '(') {
                    depth--;
                }
                s--;
            } while (depth > 0);
            s++;
            while (s > 0 && (Character.isLetterOrDigit(sql.charAt(s - 1)) || sql.charAt(s - 1) == '_')) {
                s--;
            }
        } else if (sql.charAt(e - 1) == '\'') {
            s = sql.lastIndexOf('\'', e - 2);
        } else {
            while (s > 0 && (Character.isLetterOrDigit(sql.charAt(s - 1)) || sql.charAt(s - 1) == '_'
                    || sql.charAt(s - 1) == '.')) {
                s--;
            }
        }
        return s;
    }

    private static int operandEnd(String sql, int s) {
        int e = s;
        if (sql.charAt(s) == '\'') {
            return sql.indexOf('\'', s + 1) + 1;
        }
        while (e < sql.length() && (Character.isLetterOrDigit(sql.charAt(e)) || sql.charAt(e) == '_'
                || sql.charAt(e) == '.')) {
            e++;
        }
        if (e < sql.length() && sql.charAt(e) == '(') {
            int depth = 0;
            do {
                char c = sql.charAt(e);
                if (c == '(') {
                    depth++;
                } else if (c == ')') {
                    depth--;
                } else if (c == '\'') {
                    e = sql.indexOf('\'', e + 1);
                }
                e++;
            } while (depth > 0);
        }
        return e;
    }

    /**
     * One value as the analyses' tables hold it, whichever engine produced it: integers as Long (DuckDB's HUGEINT
     * and DECIMAL(p, 0), Spark's DECIMAL(p, 0), when they fit), other numbers as Double, text as String.
     */
    public static Object normalise(Object v) {
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof BigInteger b) {
            return b.bitLength() < 64 ? (Object) b.longValue() : b.toString();
        }
        if (v instanceof BigDecimal d) {
            if (d.scale() <= 0 || d.stripTrailingZeros().scale() <= 0) {
                try {
                    return d.longValueExact();
                } catch (ArithmeticException e) {
                    return d.toPlainString();
                }
            }
            return d.doubleValue();
        }
        if (v instanceof Float f) {
            return f.doubleValue();
        }
        return v;
    }

    /** A table with every value normalised ({@link #normalise}). */
    public static Table normalise(Table t, String title) {
        List<Object[]> rows = new ArrayList<>(t.size());
        for (Object[] r : t.rows()) {
            Object[] n = new Object[r.length];
            for (int i = 0; i < r.length; i++) {
                n[i] = normalise(r[i]);
            }
            rows.add(n);
        }
        return new Table(title, t.columns(), rows);
    }

    /** Titles the commands print above each analysis. */
    static final Map<String, String> TITLES = Map.of(
            "stats", "Kernels, operators, API calls per trace",
            "spread", "Across traces: each name's time per trace",
            "gpu", "Device utilisation per trace and device",
            "ranks", "Ranks: compute vs communication (NCCL/RCCL), busy time and load",
            "imbalance", "Load imbalance (max/mean of per-rank busy time)",
            "stragglers", "Slowest ranks per iteration (ProfilerStep#N), straggler score in MADs from the median");
}
