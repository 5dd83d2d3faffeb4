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
        print(out, style, tables, null);
    }

    /**
     * Prints the tables; in the aligned text form, time columns ({@link Kind#TIME}) count from {@code origin}, the
     * trace start ({@link TraceTime#traceBounds}), when it is given. On a terminal, wide text columns wrap to fit.
     */
    public static void print(PrintStream out, Style style, List<Table> tables, Long origin) {
        switch (style) {
            case TEXT -> {
                int width = out == System.out ? terminalWidth() : 0;
                tables.forEach(t -> text(out, t, origin, width));
            }
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

    public static void print(PrintStream out, Style style, Table table, Long origin) {
        print(out, style, List.of(table), origin);
    }

    static String cell(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) {
                return d.toString();
            }
            // a whole number computed in doubles (a percentile of integers) prints as one: 32700, not 32700.0
            if (Math.abs(d) < 1e15 && (d == Math.rint(d) || Math.abs(d) >= 1 && Math.abs(d - Math.rint(d)) < 1e-6)) {
                return Long.toString(Math.round(d));
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

    /** What a column holds, read from its name (docs/cli.md, "Numbers in tables"). */
    enum Kind {
        /** {@code *_ns}: a duration in ns. */
        DURATION,
        /**
         * {@code ts}, {@code *_ts}, {@code ts_ns}, {@code *_ts_ns}, and the bounds {@code start_ns}, {@code end_ns},
         * {@code first_ns}, {@code last_ns}: a time on the trace's clock. Only those exact bounds: a name that ends
         * in them may be a duration ({@code input_before_start_ns}).
         */
        TIME,
        /** {@code *_pct}, or a name with {@code percent}: a percentage. */
        PERCENT,
        /** {@code bytes}, {@code *_bytes}, {@code bytes_*}: a byte count. */
        BYTES,
        OTHER;

        private static final java.util.Set<String> TIME_BOUNDS = java.util.Set.of("start_ns", "end_ns",
                "first_ns", "last_ns");

        static Kind of(String column) {
            String c = column.toLowerCase(java.util.Locale.ROOT);
            if (c.equals("ts") || c.endsWith("_ts") || c.equals("ts_ns") || c.endsWith("_ts_ns")
                    || TIME_BOUNDS.contains(c)) {
                return TIME;
            }
            if (c.endsWith("_ns")) {
                return DURATION;
            }
            if (c.endsWith("_pct") || c.contains("percent")) {
                return PERCENT;
            }
            if (c.equals("bytes") || c.endsWith("_bytes") || c.startsWith("bytes_")) {
                return BYTES;
            }
            return OTHER;
        }

        /** The header people read: the unit moves from the name into the cells ({@code total_ns} is "total"). */
        String header(String column) {
            return switch (this) {
                case DURATION -> column.substring(0, column.length() - 3);
                case TIME -> column.endsWith("_ns") ? column.substring(0, column.length() - 3) : column;
                case PERCENT -> column.endsWith("_pct") ? column.substring(0, column.length() - 4) + " %" : column;
                case BYTES -> column.endsWith("_bytes") ? column.substring(0, column.length() - 6) : column;
                case OTHER -> column;
            };
        }
    }

    /** A number of parts of a composite cell: an integer after an optional key ({@code 0:43447893000}). */
    private static final java.util.regex.Pattern PART = java.util.regex.Pattern.compile("(?:(.*?):)?(-?\\d+)");

    /**
     * A cell as people read it, by its column's kind: durations and bytes with units, percentages with one decimal,
     * times from {@code origin} (null: the trace's clock as is). Text cells of a duration column made of
     * {@code key:ns} parts show each part with its unit.
     */
    static String humanCell(Object v, Kind kind, Long origin, boolean micro) {
        if (v == null) {
            return "";
        }
        if (v instanceof Number num) {
            double d = num.doubleValue();
            switch (kind) {
                case DURATION:
                    return Units.duration(d, micro);
                case TIME:
                    if (origin != null) {
                        return v instanceof Long l ? Units.time(l - origin, micro) : Units.duration(d - origin, micro);
                    }
                    return cell(v);
                case PERCENT:
                    return Double.isFinite(d) ? String.format(java.util.Locale.ROOT, "%.1f", d) : cell(v);
                case BYTES:
                    return Units.bytes(d);
                default:
                    return cell(v);
            }
        }
        if (kind == Kind.DURATION && v instanceof String s && !s.isBlank()) {
            String[] parts = s.strip().split("\\s+");
            StringBuilder b = new StringBuilder();
            for (String p : parts) {
                java.util.regex.Matcher m = PART.matcher(p);
                if (!m.matches()) {
                    return s; // not a list of durations after all: as it is
                }
                if (b.length() > 0) {
                    b.append(", ");
                }
                if (m.group(1) != null) {
                    b.append(m.group(1)).append(": ");
                }
                b.append(Units.duration(Long.parseLong(m.group(2)), micro));
            }
            return b.toString();
        }
        return cell(v);
    }

    /** Up to this many rows, the aligned form formats each cell once and keeps it; above, twice, holding none. */
    static int keptCellsRows = 50_000;

    /** The narrowest a text column gets when it wraps to fit a terminal (or its header, if longer). */
    static final int MIN_WRAP_WIDTH = 16;

    /**
     * The width to fit tables in: the terminal's when standard output is one, else 0 (no limit: a file or a pipe
     * gets every value whole).
     */
    static int terminalWidth() {
        java.io.Console console = System.console();
        if (console == null || !console.isTerminal()) {
            return 0;
        }
        String columns = System.getenv("COLUMNS");
        if (columns != null && columns.strip().matches("0*[1-9][0-9]{0,4}")) {
            return Math.max(40, Integer.parseInt(columns.strip()));
        }
        try {
            // the shell does not export COLUMNS; stty asks the terminal itself
            Process p = new ProcessBuilder("stty", "size").redirectInput(ProcessBuilder.Redirect.from(
                    new java.io.File("/dev/tty"))).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
            if (p.waitFor(2, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 0) {
                String[] f = out.strip().split("\\s+");
                if (f.length == 2 && f[1].matches("0*[1-9][0-9]{0,4}")) { // 0: a terminal that does not know
                    return Math.max(40, Integer.parseInt(f[1]));
                }
            }
        } catch (IOException | RuntimeException e) {
            // no stty or no terminal after all: the default below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 120;
    }

    static void text(PrintStream out, Table t) {
        text(out, t, null, 0);
    }

    /**
     * Prints the aligned table. {@code origin}: the trace start that time columns count from (null: as stored);
     * {@code maxWidth}: the line width to fit by wrapping the widest text columns (0: no limit).
     */
    static void text(PrintStream out, Table t, Long origin, int maxWidth) {
        boolean micro = out.charset().newEncoder().canEncode('\u00b5');
        if (t.columns().equals(List.of("item", "value"))) {
            t = itemValues(t, origin, micro);
        }
        List<String> cols = t.columns();
        int n = cols.size();
        int[] width = new int[n];
        boolean[] numeric = new boolean[n];
        Kind[] kinds = new Kind[n];
        String[] headers = new String[n];
        for (int c = 0; c < n; c++) {
            kinds[c] = Kind.of(cols.get(c));
            headers[c] = kinds[c].header(cols.get(c));
        }
        for (int c = 0; c < n; c++) {
            // "top_thread_ns" beside "top_thread" keeps its name: two columns must not read alike
            if (!headers[c].equals(cols.get(c)) && (cols.contains(headers[c])
                    || java.util.Collections.frequency(java.util.Arrays.asList(headers), headers[c]) > 1)) {
                headers[c] = cols.get(c);
            }
            width[c] = headers[c].length();
            numeric[c] = true;
        }
        // Column widths need every cell first. A small table keeps its formatted cells for the second pass; a large
        // one (the arrows of a trace of millions of kernels) formats each cell again instead of holding them all,
        // which took several times the table's own memory.
        boolean keep = t.size() <= keptCellsRows;
        String[][] cells = keep ? new String[t.size()][] : null;
        String[] scratch = new String[n];
        int r0 = 0;
        for (Object[] row : t.rows()) {
            String[] formatted = keep ? new String[n] : scratch;
            for (int c = 0; c < n; c++) {
                formatted[c] = humanCell(row[c], kinds[c], origin, micro);
                width[c] = Math.max(width[c], formatted[c].length());
                if (row[c] != null && !(row[c] instanceof Number)) {
                    numeric[c] = false;
                }
            }
            if (keep) {
                cells[r0++] = formatted;
            }
        }
        if (maxWidth > 0) {
            fit(width, numeric, headers, maxWidth);
        }
        if (t.title() != null) {
            out.println(t.title());
        }
        StringBuilder line = new StringBuilder();
        printRow(out, line, headers, width, numeric);
        line.setLength(0);
        for (int c = 0; c < n; c++) {
            line.append("-".repeat(width[c])).append("  ");
        }
        out.println(line.toString().stripTrailing());
        if (keep) {
            for (String[] row : cells) {
                printRow(out, line, row, width, numeric);
            }
        } else {
            for (Object[] row : t.rows()) {
                for (int c = 0; c < n; c++) {
                    scratch[c] = humanCell(row[c], kinds[c], origin, micro);
                }
                printRow(out, line, scratch, width, numeric);
            }
        }
        if (t.size() == 0) {
            out.println("(none)"); // a bare header reads like output cut short
        }
        out.println();
    }

    /**
     * A table of named figures (info's "trace": {@code span_ns} = 3367344000) for people: the item's name says what
     * its value holds, as a column's name does, so a duration reads "span  3.367 s". Times stay as stored unless an
     * origin is given; values that are not numbers, as they are.
     */
    private static Table itemValues(Table t, Long origin, boolean micro) {
        List<Object[]> rows = new java.util.ArrayList<>();
        for (Object[] r : t.rows()) {
            String item = String.valueOf(r[0]);
            Kind kind = Kind.of(item);
            Object v = r[1];
            if (v instanceof String s && s.matches("-?\\d{1,18}")) {
                v = Long.parseLong(s);
            }
            boolean shown = v instanceof Number && kind != Kind.OTHER && (kind != Kind.TIME || origin != null);
            rows.add(shown ? new Object[] {kind.header(item), humanCell(v, kind, origin, micro)} : r);
        }
        return new Table(t.title(), t.columns(), rows);
    }

    /** Narrows the widest text columns, one character at a time, until the line fits or none can give more. */
    private static void fit(int[] width, boolean[] numeric, String[] headers, int maxWidth) {
        int total = 0;
        for (int w : width) {
            total += w + 2;
        }
        total -= 2;
        while (total > maxWidth) {
            int widest = -1;
            for (int c = 0; c < width.length; c++) {
                int floor = Math.max(MIN_WRAP_WIDTH, headers[c].length());
                if (!numeric[c] && width[c] > floor && (widest < 0 || width[c] > width[widest])) {
                    widest = c;
                }
            }
            if (widest < 0) {
                return;
            }
            width[widest]--;
            total--;
        }
    }

    /** One row, on as many lines as its widest wrapped cell needs. */
    private static void printRow(PrintStream out, StringBuilder line, String[] row, int[] width, boolean[] numeric) {
        List<List<String>> parts = new java.util.ArrayList<>();
        int lines = 1;
        for (int c = 0; c < row.length; c++) {
            List<String> p = row[c].length() <= width[c] ? List.of(row[c]) : wrap(row[c], width[c]);
            parts.add(p);
            lines = Math.max(lines, p.size());
        }
        for (int l = 0; l < lines; l++) {
            line.setLength(0);
            for (int c = 0; c < row.length; c++) {
                List<String> p = parts.get(c);
                pad(line, l < p.size() ? p.get(l) : "", width[c], numeric[c]);
            }
            out.println(line.toString().stripTrailing());
        }
    }

    /** Splits text into lines of at most {@code width}, at spaces where it can, mid-word where it must. */
    static List<String> wrap(String s, int width) {
        List<String> lines = new java.util.ArrayList<>();
        String rest = s;
        while (rest.length() > width) {
            int cut = rest.lastIndexOf(' ', width);
            if (cut <= 0) {
                lines.add(rest.substring(0, width));
                rest = rest.substring(width);
            } else {
                lines.add(rest.substring(0, cut));
                rest = rest.substring(cut + 1);
            }
        }
        lines.add(rest);
        return lines;
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
        boolean[] nanos = nanoColumns(t);
        out.println(String.join(",", t.columns().stream().map(TablePrinter::csvCell).toList()));
        for (Object[] row : t.rows()) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < row.length; c++) {
                if (c > 0) {
                    line.append(',');
                }
                Object v = row[c] instanceof Double d ? machineNumber(d, nanos[c]) : row[c];
                line.append(csvCell(v == null ? "" : v instanceof Double d ? plain(d) : v.toString()));
            }
            out.println(line);
        }
    }

    /** Which columns hold ns (durations and times), whose machine form is a whole number where it is one. */
    private static boolean[] nanoColumns(Table t) {
        boolean[] nanos = new boolean[t.columns().size()];
        for (int c = 0; c < nanos.length; c++) {
            Kind k = Kind.of(t.columns().get(c));
            nanos[c] = k == Kind.DURATION || k == Kind.TIME;
        }
        return nanos;
    }

    /**
     * A double of a ns column as an exact integer when it is one up to floating-point noise (a percentile of whole
     * ns computed in doubles); a mean or an interpolated percentile keeps its fraction.
     */
    static Object machineNumber(double d, boolean nanos) {
        if (nanos && Double.isFinite(d) && Math.abs(d) < 9e15 && Math.abs(d - Math.rint(d)) < 1e-6) {
            return (long) Math.rint(d);
        }
        return d;
    }

    /** A double without an exponent ({@code 65996900.5}, not {@code 6.59969005E7}). */
    static String plain(double d) {
        if (!Double.isFinite(d)) {
            return Double.toString(d);
        }
        String s = java.math.BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
        return s.equals("-0") ? "0" : s;
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
                boolean[] nanos = nanoColumns(t);
                g.writeStartArray();
                for (Object[] row : t.rows()) {
                    g.writeStartObject();
                    for (int c = 0; c < row.length; c++) {
                        g.writeFieldName(t.columns().get(c));
                        Object v = row[c] instanceof Double d ? machineNumber(d, nanos[c]) : row[c];
                        if (v == null) {
                            g.writeNull();
                        } else if (v instanceof Long l) {
                            g.writeNumber(l);
                        } else if (v instanceof Double d) {
                            if (Double.isFinite(d)) {
                                g.writeNumber(plain(d)); // 16623819.757365685, not 1.6623819757365685E7
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
