package org.hetscope.formats.sqlite;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads the column list out of the CREATE TABLE text that sqlite_schema keeps: names (bare, "quoted", [bracketed],
 * `backticked` or 'string'), type names with their parentheses, column and table constraints, comments, and the
 * WITHOUT ROWID option. Only what decides the record layout is kept; CHECK and REFERENCES clauses are skipped.
 */
public final class CreateTableParser {
    private static final Set<String> CONSTRAINT_WORDS = Set.of("CONSTRAINT", "PRIMARY", "NOT", "NULL", "UNIQUE",
            "CHECK", "DEFAULT", "COLLATE", "REFERENCES", "GENERATED", "AS");
    private static final Set<String> TABLE_CONSTRAINT_WORDS = Set.of("CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK",
            "FOREIGN");

    private enum Kind { WORD, QUOTED, STRING, NUMBER, BLOB, PUNCT }

    private record Token(Kind kind, String text) {
        boolean is(String word) {
            return kind == Kind.WORD && text.equalsIgnoreCase(word);
        }

        boolean punct(char c) {
            return kind == Kind.PUNCT && text.charAt(0) == c;
        }

        boolean name() {
            return kind == Kind.WORD || kind == Kind.QUOTED || kind == Kind.STRING;
        }
    }

    private final String sql;
    private final List<Token> tokens = new ArrayList<>();
    private int pos;

    private CreateTableParser(String sql) {
        this.sql = sql;
    }

    /** Parses one CREATE TABLE statement; throws IllegalArgumentException when it is not one. */
    public static TableDefinition parse(String sql) {
        CreateTableParser p = new CreateTableParser(sql);
        p.tokenize();
        return p.table();
    }

    // ---- tokens ---------------------------------------------------------------------------------------------

    private void tokenize() {
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == '"' || c == '`') {
                i = quoted(i, c, c, Kind.QUOTED);
            } else if (c == '[') {
                int end = sql.indexOf(']', i + 1);
                if (end < 0) {
                    throw error("unterminated [identifier]");
                }
                tokens.add(new Token(Kind.QUOTED, sql.substring(i + 1, end)));
                i = end + 1;
            } else if (c == '\'') {
                i = quoted(i, '\'', '\'', Kind.STRING);
            } else if ((c == 'x' || c == 'X') && i + 1 < n && sql.charAt(i + 1) == '\'') {
                int end = sql.indexOf('\'', i + 2);
                if (end < 0) {
                    throw error("unterminated blob literal");
                }
                tokens.add(new Token(Kind.BLOB, sql.substring(i + 2, end)));
                i = end + 1;
            } else if (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1)))) {
                int start = i;
                i++;
                while (i < n) {
                    char d = sql.charAt(i);
                    boolean exponentSign = (d == '+' || d == '-') && (sql.charAt(i - 1) == 'e'
                            || sql.charAt(i - 1) == 'E') && !sql.substring(start, i).toLowerCase(Locale.ROOT)
                            .startsWith("0x");
                    if (Character.isLetterOrDigit(d) || d == '.' || exponentSign) {
                        i++;
                    } else {
                        break;
                    }
                }
                tokens.add(new Token(Kind.NUMBER, sql.substring(start, i)));
            } else if (Character.isLetter(c) || c == '_' || c > 127) {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_'
                        || sql.charAt(i) == '$' || sql.charAt(i) > 127)) {
                    i++;
                }
                tokens.add(new Token(Kind.WORD, sql.substring(start, i)));
            } else {
                tokens.add(new Token(Kind.PUNCT, String.valueOf(c)));
                i++;
            }
        }
    }

    /** A quoted token whose quote character is escaped by doubling it. */
    private int quoted(int open, char quote, char close, Kind kind) {
        StringBuilder text = new StringBuilder();
        int i = open + 1;
        while (true) {
            if (i >= sql.length()) {
                throw error("unterminated quoted text");
            }
            char c = sql.charAt(i);
            if (c == close) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    text.append(c);
                    i += 2;
                    continue;
                }
                tokens.add(new Token(kind, text.toString()));
                return i + 1;
            }
            text.append(c);
            i++;
        }
    }

    // ---- statement ------------------------------------------------------------------------------------------

    private TableDefinition table() {
        expectWord("CREATE");
        if (peek().is("TEMP") || peek().is("TEMPORARY")) {
            pos++;
        }
        expectWord("TABLE");
        if (peek().is("IF")) {
            expectWord("IF");
            expectWord("NOT");
            expectWord("EXISTS");
        }
        String name = nameToken();
        if (peek().punct('.')) {
            pos++;
            name = nameToken();
        }
        if (!next().punct('(')) {
            throw error("expected the column list after the table name");
        }
        List<List<Token>> elements = new ArrayList<>();
        List<Token> current = new ArrayList<>();
        int depth = 0;
        while (true) {
            Token t = next();
            if (t.punct('(')) {
                depth++;
            } else if (t.punct(')')) {
                if (depth == 0) {
                    elements.add(current);
                    break;
                }
                depth--;
            } else if (t.punct(',') && depth == 0) {
                elements.add(current);
                current = new ArrayList<>();
                continue;
            }
            current.add(t);
        }
        boolean withoutRowid = false;
        while (pos < tokens.size()) {
            Token t = next();
            if (t.is("WITHOUT") && pos < tokens.size() && peek().is("ROWID")) {
                withoutRowid = true;
                pos++;
            }
        }
        List<TableDefinition.Column> columns = new ArrayList<>();
        int aliasByColumn = -1;
        String tablePrimaryKey = null;
        boolean virtual = false;
        for (List<Token> e : elements) {
            if (e.isEmpty()) {
                throw error("empty column definition");
            }
            Token first = e.get(0);
            if (first.kind == Kind.WORD && TABLE_CONSTRAINT_WORDS.contains(first.text.toUpperCase(Locale.ROOT))) {
                String pk = tablePrimaryKeyColumn(e);
                if (pk != null) {
                    tablePrimaryKey = pk;
                }
                continue;
            }
            ColumnParse c = column(e);
            if (c.integerPrimaryKey) {
                aliasByColumn = columns.size();
            }
            virtual |= c.virtual;
            columns.add(c.column);
        }
        if (columns.isEmpty()) {
            throw error("no columns");
        }
        int alias = aliasByColumn;
        if (alias < 0 && tablePrimaryKey != null) {
            for (int i = 0; i < columns.size(); i++) {
                if (columns.get(i).name().equalsIgnoreCase(tablePrimaryKey)
                        && columns.get(i).declaredType().equalsIgnoreCase("INTEGER")) {
                    alias = i;
                }
            }
        }
        return new TableDefinition(name, List.copyOf(columns), withoutRowid ? -1 : alias, withoutRowid, virtual);
    }

    private record ColumnParse(TableDefinition.Column column, boolean integerPrimaryKey, boolean virtual) {
    }

    private ColumnParse column(List<Token> e) {
        Token nameToken = e.get(0);
        if (!nameToken.name()) {
            throw error("expected a column name, found '" + nameToken.text + "'");
        }
        int i = 1;
        StringBuilder type = new StringBuilder();
        while (i < e.size() && e.get(i).name() && e.get(i).kind != Kind.STRING
                && !CONSTRAINT_WORDS.contains(e.get(i).text.toUpperCase(Locale.ROOT))) {
            if (!type.isEmpty()) {
                type.append(' ');
            }
            type.append(e.get(i).text);
            i++;
        }
        if (i < e.size() && e.get(i).punct('(') && !type.isEmpty()) {
            int depth = 0;
            do {
                Token t = e.get(i);
                depth += t.punct('(') ? 1 : t.punct(')') ? -1 : 0;
                type.append(t.kind == Kind.PUNCT && t.text.equals(",") ? ", " : t.text);
                i++;
            } while (depth > 0 && i < e.size());
        }
        boolean primaryKey = false;
        boolean descending = false;
        boolean generated = false;
        boolean stored = false;
        Object defaultValue = null;
        int depth = 0;
        for (; i < e.size(); i++) {
            Token t = e.get(i);
            if (t.punct('(')) {
                depth++;
                continue;
            }
            if (t.punct(')')) {
                depth--;
                continue;
            }
            if (depth > 0) {
                continue;
            }
            if (t.is("PRIMARY") && i + 1 < e.size() && e.get(i + 1).is("KEY")) {
                primaryKey = true;
                i++;
                if (i + 1 < e.size() && e.get(i + 1).is("DESC")) {
                    descending = true;
                }
            } else if (t.is("DEFAULT") && i + 1 < e.size()) {
                i++;
                Token v = e.get(i);
                boolean negative = false;
                if ((v.punct('-') || v.punct('+')) && i + 1 < e.size()) {
                    negative = v.punct('-');
                    i++;
                    v = e.get(i);
                }
                if (v.punct('(')) {
                    i--; // an expression: the next turn of the loop walks over its parentheses
                } else {
                    defaultValue = literal(v, negative);
                }
            } else if (t.is("AS") || t.is("GENERATED")) {
                generated = true;
            } else if (t.is("STORED")) {
                stored = true;
            }
        }
        String declared = type.toString();
        TableDefinition.Column column = new TableDefinition.Column(nameToken.text, declared,
                TableDefinition.affinityOf(declared), defaultValue);
        return new ColumnParse(column, primaryKey && !descending && declared.equalsIgnoreCase("INTEGER"),
                generated && !stored);
    }

    private Object literal(Token v, boolean negative) {
        switch (v.kind) {
            case NUMBER -> {
                String text = (negative ? "-" : "") + v.text;
                try {
                    if (text.toLowerCase(Locale.ROOT).contains("0x")) {
                        long x = Long.parseUnsignedLong(v.text.substring(2), 16);
                        return negative ? -x : x;
                    }
                    if (text.contains(".") || text.contains("e") || text.contains("E")) {
                        return Double.parseDouble(text);
                    }
                    return Long.parseLong(text);
                } catch (NumberFormatException tooLarge) {
                    return Double.parseDouble(text);
                }
            }
            case STRING -> {
                return v.text;
            }
            case BLOB -> {
                return HexFormat.of().parseHex(v.text);
            }
            case WORD -> {
                if (v.is("TRUE")) {
                    return 1L;
                }
                if (v.is("FALSE")) {
                    return 0L;
                }
                return null; // NULL; CURRENT_TIME and friends are not allowed for columns added later
            }
            case QUOTED -> {
                return v.text; // SQLite reads a double-quoted DEFAULT that names no column as a string
            }
            default -> {
                return null;
            }
        }
    }

    /** The single column of a table-level PRIMARY KEY (...) constraint, or null. */
    private static String tablePrimaryKeyColumn(List<Token> e) {
        for (int i = 0; i + 2 < e.size(); i++) {
            if (e.get(i).is("PRIMARY") && e.get(i + 1).is("KEY") && e.get(i + 2).punct('(')) {
                List<String> names = new ArrayList<>();
                int depth = 0;
                boolean expectName = true;
                for (int j = i + 3; j < e.size(); j++) {
                    Token t = e.get(j);
                    if (t.punct('(')) {
                        depth++;
                    } else if (t.punct(')')) {
                        if (depth == 0) {
                            break;
                        }
                        depth--;
                    } else if (t.punct(',') && depth == 0) {
                        expectName = true;
                    } else if (expectName && t.name()) {
                        names.add(t.text);
                        expectName = false;
                    }
                }
                return names.size() == 1 ? names.get(0) : null;
            }
        }
        return null;
    }

    private Token peek() {
        if (pos >= tokens.size()) {
            throw error("statement ends early");
        }
        return tokens.get(pos);
    }

    private Token next() {
        Token t = peek();
        pos++;
        return t;
    }

    private void expectWord(String word) {
        Token t = next();
        if (!t.is(word)) {
            throw error("expected " + word + ", found '" + t.text + "'");
        }
    }

    private String nameToken() {
        Token t = next();
        if (!t.name()) {
            throw error("expected a name, found '" + t.text + "'");
        }
        return t.text;
    }

    private IllegalArgumentException error(String reason) {
        return new IllegalArgumentException("CREATE TABLE statement not understood (" + reason + "): " + sql);
    }
}
