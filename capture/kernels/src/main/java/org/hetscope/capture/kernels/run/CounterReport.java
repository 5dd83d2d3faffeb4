package org.hetscope.capture.kernels.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.hetscope.capture.kernels.instrument.CounterSite;
import org.hetscope.capture.kernels.lang.Ast;
import org.hetscope.capture.kernels.lang.SourcePos;

/**
 * Presents counters on the kernel's own source (the layout of SPOC's Fig. 4, but on the real source, so
 * nothing is renamed or reordered): memory and FLOP counters after the kernel signature line, visits on the
 * line after each construct's opening line. Also the per-counter rows behind {@code --json}.
 */
public final class CounterReport {
    /** One counter with its place and values; min/max are null unless measured per work-item. */
    public record Row(int index, String kind, String space, String construct, String label, String file, int line,
                      int column, long value, Long min, Long max, Long minItem, Long maxItem) {}

    private CounterReport() {}

    public static List<Row> rows(CounterResult r) {
        List<Row> out = new ArrayList<>();
        if (!r.instrumented()) {
            return out;
        }
        for (CounterSite s : r.plan().counters()) {
            int i = s.index();
            SourcePos p = s.pos();
            out.add(new Row(i, s.kind(), s.space(), s.construct(), s.label(), p.file(), p.line(), p.column(),
                    r.totals()[i], r.min() == null ? null : r.min()[i], r.max() == null ? null : r.max()[i],
                    r.minItem() == null ? null : r.minItem()[i], r.maxItem() == null ? null : r.maxItem()[i]));
        }
        return out;
    }

    /** The source of {@code file} with counter comments inserted as lines. */
    public static String annotate(String file, String source, CounterResult r) {
        String[] lines = source.split("\n", -1);
        Map<Integer, List<String>> after = new TreeMap<>();
        if (r.instrumented()) {
            Ast.FunctionDef k = r.plan().scope().kernel();
            int signatureLine = r.plan().scope().pos(k.body().first()).line();
            for (Row row : rows(r)) {
                if (!row.file().equals(file)) {
                    continue;
                }
                int line = row.construct() == null ? signatureLine : row.line();
                String text = "### " + row.label() + " : " + row.value();
                if (row.min() != null) {
                    text += String.format(Locale.ROOT, " (per work-item min %d at %d, max %d at %d)", row.min(),
                            row.minItem(), row.max(), row.maxItem());
                }
                after.computeIfAbsent(line, x -> new ArrayList<>()).add(text);
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int l = 1; l <= lines.length; l++) {
            sb.append(lines[l - 1]);
            if (l < lines.length || after.containsKey(l)) {
                sb.append('\n');
            }
            List<String> notes = after.get(l);
            if (notes != null) {
                String indent = indentOf(l < lines.length ? lines[l] : "", lines[l - 1]);
                for (String n : notes) {
                    sb.append(indent).append("/* ").append(n).append(" */\n");
                }
            }
        }
        return sb.toString();
    }

    private static String indentOf(String next, String current) {
        String src = next.isBlank() ? current + "    " : next;
        int k = 0;
        while (k < src.length() && (src.charAt(k) == ' ' || src.charAt(k) == '\t')) {
            k++;
        }
        return src.substring(0, k);
    }

    /** The JSON document of spec section 3.2: {kernel, launch:{global,local}, counters:[...]}. */
    public static String json(CounterResult r, String kernel) {
        StringBuilder sb = new StringBuilder();
        sb.append("{\"kernel\":").append(quote(kernel)).append(",\"launch\":{\"global\":")
                .append(java.util.Arrays.toString(r.range().global()).replace(" ", "")).append(",\"local\":")
                .append(r.range().local() == null ? "null"
                        : java.util.Arrays.toString(r.range().local()).replace(" ", ""))
                .append("},\"instrumented\":").append(r.instrumented());
        if (r.warning() != null) {
            sb.append(",\"warning\":").append(quote(r.warning()));
        }
        sb.append(",\"counters\":[");
        boolean first = true;
        for (Row row : rows(r)) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            sb.append("{\"index\":").append(row.index()).append(",\"kind\":").append(quote(row.kind()))
                    .append(",\"space\":").append(row.space() == null ? "null" : quote(row.space()))
                    .append(",\"construct\":").append(row.construct() == null ? "null" : quote(row.construct()))
                    .append(",\"line\":").append(row.line()).append(",\"column\":").append(row.column())
                    .append(",\"value\":").append(row.value());
            if (row.min() != null) {
                sb.append(",\"min\":").append(row.min()).append(",\"min_work_item\":").append(row.minItem())
                        .append(",\"max\":").append(row.max()).append(",\"max_work_item\":").append(row.maxItem());
            }
            sb.append('}');
        }
        sb.append("]}");
        return sb.toString();
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
