package org.hetscope.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which SQL only reads a store: the statements 'hetscope sql' and the web UI's query console accept. The store's
 * connection also refuses anything that would touch other files ({@link Store#open}), so this check gives a clear
 * message and keeps statements that change the connection's own state (temporary views, settings) out.
 */
public final class ReadOnlySql {
    private ReadOnlySql() {
    }

    /** First words of the statements that only read. */
    private static final Set<String> READING = Set.of("SELECT", "WITH", "FROM", "VALUES", "TABLE", "DESCRIBE", "DESC",
            "SUMMARIZE", "SHOW", "PIVOT", "UNPIVOT");
    /**
     * First words of DuckDB's other statements (they write, or change the connection): refused as such. Any other
     * first word is no statement at all (a typo such as {@code selec}), and is told so.
     */
    private static final Set<String> STATEMENTS = Set.of("INSERT", "UPDATE", "DELETE", "MERGE", "TRUNCATE", "CREATE",
            "DROP", "ALTER", "COMMENT", "COPY", "EXPORT", "IMPORT", "ATTACH", "DETACH", "USE", "SET", "RESET", "CALL", "INSTALL", "UNINSTALL", "LOAD", "CHECKPOINT", "FORCE", "VACUUM", "ANALYZE", "BEGIN",
            "START", "COMMIT", "END", "ROLLBACK", "ABORT", "PREPARE", "EXECUTE", "DEALLOCATE", "EXPLAIN");
    /** PRAGMAs that only describe the store. */
    private static final Set<String> READING_PRAGMAS = Set.of("TABLE_INFO", "SHOW", "SHOW_TABLES",
            "SHOW_TABLES_EXPANDED", "DATABASE_SIZE", "STORAGE_INFO", "VERSION");

    /**
     * Why {@code sql} is refused (its first statement that does not only read: "read-only: ...", or a first word
     * that begins no statement), or null if it only reads.
     */
    public static String refusal(String sql) {
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
                    return "read-only: PRAGMA " + name.toLowerCase(Locale.ROOT) + " is refused";
                }
            } else if (!READING.contains(verb)) {
                return STATEMENTS.contains(verb) ? "read-only: " + verb + " statements are refused"
                        : "'" + verb.toLowerCase(Locale.ROOT) + "' begins no SQL statement";
            }
        }
        return null;
    }

    /** The statements of {@code sql}, split at semicolons outside quotes and comments, comments removed. */
    public static List<String> statements(String sql) {
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
