package org.hetscope.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import org.hetscope.store.ParquetDataset;
import org.hetscope.store.Store;
import org.hetscope.store.StoreException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code hetscope sql FILE QUERY}: SQL over the store's documented schema. Only statements that read run; the
 * store's connection also refuses anything that would touch other files ({@link Store#open}), so this check is
 * for a clear message, not the only defence.
 */
@Command(name = "sql", description = "Run a read-only SQL query over a store (schema: docs/schema.md), or over a "
        + "Parquet dataset folder written by 'hetscope export' (docs/scale.md): SELECT, WITH, DESCRIBE, SUMMARIZE, "
        + "EXPLAIN, SHOW, PRAGMA table_info. Files outside the store or dataset cannot be read or written.")
public final class SqlCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE")
    Path file;

    @Option(names = "--trace", paramLabel = "NAME",
            description = "Over a dataset: read only this trace (the views of the standard library that join by id "
                    + "need one trace).")
    String trace;

    @Parameters(index = "1", paramLabel = "QUERY")
    String query;

    @Mixin
    OutputOptions output;

    /** First words of the statements that only read. */
    private static final Set<String> READING = Set.of("SELECT", "WITH", "FROM", "VALUES", "TABLE", "DESCRIBE", "DESC",
            "SUMMARIZE", "SHOW", "PIVOT", "UNPIVOT");
    /** PRAGMAs that only describe the store. */
    private static final Set<String> READING_PRAGMAS = Set.of("TABLE_INFO", "SHOW", "SHOW_TABLES",
            "SHOW_TABLES_EXPANDED", "DATABASE_SIZE", "STORAGE_INFO", "VERSION");

    @Override
    public Integer call() throws Exception {
        String refused = refusal(query);
        if (refused != null) {
            System.err.println("hetscope: read-only: " + refused + "; 'hetscope sql' runs queries that read the "
                    + "store (SELECT, WITH, DESCRIBE, SUMMARIZE, EXPLAIN, SHOW, PRAGMA table_info)");
            return 1;
        }
        boolean dataset = java.nio.file.Files.isDirectory(file);
        if (trace != null && !dataset) {
            System.err.println("hetscope: --trace chooses a trace of a dataset folder; " + file + " is not one");
            return 2;
        }
        try {
            if (dataset) {
                try (ParquetDataset d = ParquetDataset.open(file, trace)) {
                    TablePrinter.print(System.out, output.style(), d.query(query));
                }
            } else {
                try (Store store = Store.open(file)) {
                    TablePrinter.print(System.out, output.style(), store.query(query));
                }
            }
        } catch (StoreException e) {
            String m = e.getMessage();
            if (m != null && m.startsWith("Permission Error")) {
                System.err.println("hetscope: read-only: a query over a " + (dataset ? "dataset" : "store")
                        + " cannot read or write other files, attach databases or load extensions (" + m + ")");
                return 1;
            }
            throw e;
        }
        return 0;
    }

    /** Why {@code sql} is refused (its first statement that does not only read), or null if it only reads. */
    static String refusal(String sql) {
        for (String statement : statements(sql)) {
            List<String> words = leadingWords(statement, 3);
            if (words.isEmpty()) {
                continue;
            }
            String first = words.get(0);
            int i = 0;
            // EXPLAIN [ANALYZE] runs the statement it explains when analysing: judge that statement
            while (i < words.size() && words.get(i).equals("EXPLAIN")) {
                i++;
                if (i < words.size() && (words.get(i).equals("ANALYZE") || words.get(i).equals("ANALYSE"))) {
                    i++;
                }
            }
            String verb = i < words.size() ? words.get(i) : first;
            if (first.equals("PRAGMA") || verb.equals("PRAGMA")) {
                int p = first.equals("PRAGMA") ? 1 : i + 1;
                String name = p < words.size() ? words.get(p) : "";
                if (!READING_PRAGMAS.contains(name)) {
                    return "PRAGMA " + name.toLowerCase(Locale.ROOT) + " is refused";
                }
            } else if (!READING.contains(verb)) {
                return verb + " statements are refused";
            }
        }
        return null;
    }

    /** The statements of {@code sql}, split at semicolons outside quotes and comments, comments removed. */
    static List<String> statements(String sql) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int n = sql.length();
        for (int i = 0; i < n; i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                int end = i + 1;
                while (end < n) {
                    if (sql.charAt(end) == c) {
                        if (end + 1 < n && sql.charAt(end + 1) == c) {
                            end += 2; // doubled quote inside the literal
                            continue;
                        }
                        break;
                    }
                    end++;
                }
                cur.append(sql, i, Math.min(n, end + 1));
                i = end;
            } else if (c == '$' && dollarTag(sql, i) != null) {
                String tag = dollarTag(sql, i);
                int end = sql.indexOf(tag, i + tag.length());
                end = end < 0 ? n : end + tag.length();
                cur.append(sql, i, end);
                i = end - 1;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end;
                cur.append(' ');
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 1;
                cur.append(' ');
            } else if (c == ';') {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }

    /** A dollar quote's opening tag ($$ or $name$) at {@code i}, or null. */
    private static String dollarTag(String sql, int i) {
        int j = i + 1;
        while (j < sql.length() && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
            j++;
        }
        return j < sql.length() && sql.charAt(j) == '$' ? sql.substring(i, j + 1) : null;
    }

    /** Up to {@code max} leading words of a statement, upper case, skipping opening parentheses. */
    private static List<String> leadingWords(String statement, int max) {
        List<String> words = new ArrayList<>();
        int i = 0;
        int n = statement.length();
        while (i < n && words.size() < max) {
            char c = statement.charAt(i);
            if (Character.isWhitespace(c) || c == '(') {
                i++;
            } else if (Character.isLetter(c) || c == '_') {
                int j = i;
                while (j < n && (Character.isLetterOrDigit(statement.charAt(j)) || statement.charAt(j) == '_')) {
                    j++;
                }
                words.add(statement.substring(i, j).toUpperCase(Locale.ROOT));
                i = j;
            } else {
                // a symbol ends the leading words ("PRAGMA table_info('x')" stops at the parenthesis)
                if (words.isEmpty()) {
                    words.add(String.valueOf(c));
                }
                break;
            }
        }
        return words;
    }
}
