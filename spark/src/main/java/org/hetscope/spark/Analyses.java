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
 * DuckDB (over a Parquet dataset, or over stores) and Spark SQL, and rendered for each by {@link #render}. The files
 * keep to SQL both dialects read alike (docs/scale.md, "One definition, two engines"); rendering inlines another
 * analysis where a file names it ({@code {{NAME}}}). No construct has needed a rewrite per dialect so far: a file
 * that reads differently in one engine fails SparkLocalTest, which runs every analysis on both, and a rewrite
 * would go in {@link #render} with its own test.
 */
public final class Analyses {
    /** The engines a query is rendered for. */
    public enum Dialect { DUCKDB, SPARK }

    /** Every analysis, in the order the commands print them. */
    public static final List<String> NAMES = List.of("stats", "spread", "gpu", "ranks", "imbalance", "stragglers");

    /** Parts of analyses that several include ({@code {{NAME}}}); not analyses of their own. */
    static final List<String> FRAGMENTS = List.of("islands");

    private static final Pattern INCLUDE = Pattern.compile("\\{\\{([a-z]+)\\}\\}");

    private Analyses() {
    }

    /** The source of analysis {@code name}, comments removed. */
    public static String source(String name) {
        if (!NAMES.contains(name) && !FRAGMENTS.contains(name)) {
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
        // both dialects read the shared source as it is (see the class comment)
        return switch (dialect) {
            case DUCKDB, SPARK -> source(name);
        };
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
