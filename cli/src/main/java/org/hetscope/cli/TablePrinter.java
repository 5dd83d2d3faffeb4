package org.hetscope.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.List;
import org.hetscope.store.Table;

/** Prints {@link Table}s as aligned text, CSV or JSON. */
public final class TablePrinter {
    /** Output style chosen with {@link OutputOptions}. */
    public enum Style { TEXT, CSV, JSON }

    private TablePrinter() {}

    public static void print(PrintStream out, Style style, List<Table> tables) {
        switch (style) {
            case TEXT -> tables.forEach(t -> text(out, t));
            case CSV -> {
                boolean first = true;
                for (Table t : tables) {
                    if (!first) {
                        out.println();
                    }
                    first = false;
                    csv(out, t);
                }
            }
            case JSON -> json(out, tables);
        }
        out.flush();
    }

    public static void print(PrintStream out, Style style, Table table) {
        print(out, style, List.of(table));
    }

    static String cell(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) {
                return d.toString();
            }
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                return Long.toString(d.longValue());
            }
            if (Math.abs(d) >= 1e4) {
                return String.format(java.util.Locale.ROOT, "%.1f", d);
            }
            String t = String.format(java.util.Locale.ROOT, "%.4g", d);
            if (t.contains("e")) {
                return t;
            }
            return t.contains(".") ? t.replaceAll("0+$", "").replaceAll("\\.$", "") : t;
        }
        return v.toString();
    }

    /** Longest text cell in the aligned table; --csv and --json keep full values. */
    static final int MAX_TEXT_WIDTH = 80;

    private static String clip(String s) {
        return s.length() <= MAX_TEXT_WIDTH ? s : s.substring(0, MAX_TEXT_WIDTH - 3) + "...";
    }

    static void text(PrintStream out, Table t) {
        List<String> cols = t.columns();
        int[] width = new int[cols.size()];
        boolean[] numeric = new boolean[cols.size()];
        for (int c = 0; c < cols.size(); c++) {
            width[c] = cols.get(c).length();
            numeric[c] = true;
        }
        String[][] cells = new String[t.size()][cols.size()];
        for (int r = 0; r < t.size(); r++) {
            Object[] row = t.rows().get(r);
            for (int c = 0; c < cols.size(); c++) {
                cells[r][c] = clip(cell(row[c]));
                width[c] = Math.max(width[c], cells[r][c].length());
                if (row[c] != null && !(row[c] instanceof Number)) {
                    numeric[c] = false;
                }
            }
        }
        if (t.title() != null) {
            out.println(t.title());
        }
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < cols.size(); c++) {
            pad(line, cols.get(c), width[c], numeric[c]);
        }
        out.println(line.toString().stripTrailing());
        line.setLength(0);
        for (int c = 0; c < cols.size(); c++) {
            line.append("-".repeat(width[c])).append("  ");
        }
        out.println(line.toString().stripTrailing());
        for (String[] row : cells) {
            line.setLength(0);
            for (int c = 0; c < cols.size(); c++) {
                pad(line, row[c], width[c], numeric[c]);
            }
            out.println(line.toString().stripTrailing());
        }
        if (cells.length == 0) {
            out.println("(none)"); // a bare header reads like output cut short
        }
        out.println();
    }

    private static void pad(StringBuilder line, String s, int width, boolean right) {
        if (right) {
            line.append(" ".repeat(width - s.length())).append(s);
        } else {
            line.append(s).append(" ".repeat(width - s.length()));
        }
        line.append("  ");
    }

    static void csv(PrintStream out, Table t) {
        out.println(String.join(",", t.columns().stream().map(TablePrinter::csvCell).toList()));
        for (Object[] row : t.rows()) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < row.length; c++) {
                if (c > 0) {
                    line.append(',');
                }
                line.append(csvCell(row[c] == null ? "" : row[c] instanceof Double d ? Double.toString(d)
                        : row[c].toString()));
            }
            out.println(line);
        }
    }

    private static String csvCell(String s) {
        if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0) {
            return '"' + s.replace("\"", "\"\"") + '"';
        }
        return s;
    }

    static void json(PrintStream out, List<Table> tables) {
        try {
            JsonGenerator g = new JsonFactory().createGenerator(out);
            g.useDefaultPrettyPrinter();
            boolean single = tables.size() == 1;
            if (!single) {
                g.writeStartObject();
            }
            for (Table t : tables) {
                if (!single) {
                    g.writeFieldName(t.title() == null ? "table" : t.title());
                }
                g.writeStartArray();
                for (Object[] row : t.rows()) {
                    g.writeStartObject();
                    for (int c = 0; c < row.length; c++) {
                        g.writeFieldName(t.columns().get(c));
                        Object v = row[c];
                        if (v == null) {
                            g.writeNull();
                        } else if (v instanceof Long l) {
                            g.writeNumber(l);
                        } else if (v instanceof Double d) {
                            if (Double.isFinite(d)) {
                                g.writeNumber(d);
                            } else {
                                g.writeNull();
                            }
                        } else if (v instanceof Number n) {
                            g.writeNumber(n.toString());
                        } else if (v instanceof Boolean b) {
                            g.writeBoolean(b);
                        } else {
                            g.writeString(v.toString());
                        }
                    }
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            if (!single) {
                g.writeEndObject();
            }
            g.flush();
            out.println();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
