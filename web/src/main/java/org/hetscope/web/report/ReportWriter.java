package org.hetscope.web.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.hetscope.analysis.gpu.diff.TraceDiff;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import org.hetscope.web.AnalysisTables;
import org.hetscope.web.StatisticsTables;
import org.hetscope.web.TimeText;
import org.hetscope.web.TraceView;

/**
 * {@code hetscope report}: one self-contained HTML file (inline CSS and SVG, no script, no link to anything) with
 * the trace summary, statistics, utilisation per device and stream, and a static timeline overview.
 */
public final class ReportWriter {
    static final int ROWS_PER_TABLE = 100;

    private ReportWriter() {
    }

    public static void write(TraceView view, Path out) throws IOException {
        Files.writeString(out, html(view), StandardCharsets.UTF_8);
    }

    /**
     * The report of {@code view} with a section comparing it (the baseline, A) with {@code other} (B): the three
     * tables of {@code hetscope diff A B} ({@link TraceDiff}), with the same figures in each cell's {@code data-v}.
     */
    public static void write(TraceView view, String otherName, Store other, double alpha, Path out)
            throws IOException {
        Files.writeString(out, html(view, otherName, other, alpha), StandardCharsets.UTF_8);
    }

    public static String html(TraceView view) {
        return html(view, null, null, 0.05);
    }

    public static String html(TraceView view, String otherName, Store other, double alpha) {
        Store s = view.store();
        StringBuilder b = new StringBuilder(64 * 1024);
        b.append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>hetscope report: ")
                .append(SvgDrawing.esc(view.name())).append("</title>\n<style>\n")
                .append("body{font:13px/1.4 'DejaVu Sans',Arial,sans-serif;color:#1d2330;margin:24px;max-width:1500px}")
                .append("h1{font-size:20px}h3{font-size:14px;margin-top:16px}h2{font-size:16px;margin-top:28px;border-bottom:1px solid #cbd5e1}")
                .append("table{border-collapse:collapse;font-size:12px;margin:6px 0}")
                .append("th,td{border-bottom:1px solid #e5e7eb;padding:2px 8px;text-align:left;vertical-align:top}")
                .append("td.n{text-align:right;font-family:'DejaVu Sans Mono',monospace}")
                .append("td.name{max-width:640px;overflow-wrap:anywhere}.muted{color:#6b7280}")
                .append("svg{max-width:100%;height:auto;border:1px solid #e5e7eb}\n</style></head><body>\n");
        b.append("<h1>hetscope report: ").append(SvgDrawing.esc(view.name())).append("</h1>\n");
        if (s.partial()) {
            b.append("<p id=\"partial\"><strong>This store holds only the start of its trace:</strong> its import "
                    + "stopped at damaged input and kept what came before (--keep-partial).</p>\n");
        }
        summary(b, view);
        if (other != null) {
            diff(b, view, otherName, other, alpha);
        }
        Table util = StatisticsTables.utilisation(s);
        b.append("<h2 id=\"utilisation\">Utilisation per device and stream</h2>\n");
        if (util.size() > 0) {
            b.append(Plots.svg(wrap(Plots.utilisation(util, 1100)), false));
        }
        table(b, util, "utilisation-table");
        b.append("<h2 id=\"timeline\">Timeline overview</h2>\n<p class=\"muted\">Every track with slices (the "
                + TimelineOverview.MAX_ROWS + " with the most when there are more); slices "
                + "narrower than a pixel are merged, drawn fainter the less of their pixel they fill.</p>\n");
        TimelineOverview overview = new TimelineOverview(view, 1400);
        SvgDrawing d = new SvgDrawing(overview.width(), overview.height());
        overview.drawOn(d);
        b.append(d.toSvg(false));
        Table kernels = StatisticsTables.kernels(s);
        b.append("<h2 id=\"kernels\">Kernels</h2>\n");
        if (kernels.size() > 0) {
            b.append(Plots.svg(wrap(Plots.durationBars("Kernels by total time", kernels, 1100)), false));
        }
        table(b, kernels, "kernels-table");
        b.append("<h2 id=\"api\">API calls</h2>\n");
        table(b, StatisticsTables.apiCalls(s), "api-table");
        b.append("<h2 id=\"memcpy\">Memory transfers</h2>\n");
        table(b, StatisticsTables.memcpy(s), "memcpy-table");
        if (StatisticsTables.hasTasks(s)) {
            b.append("<h2 id=\"codelets\">Task codelets per worker kind</h2>\n");
            table(b, StatisticsTables.codelets(s), "codelets-table");
        }
        for (AnalysisTables.Provider p : AnalysisTables.standard().list(s)) {
            if (p.group().equals("store tables")) {
                b.append("<h2>").append(SvgDrawing.esc(p.title())).append(" <span class=\"muted\">(")
                        .append(SvgDrawing.esc(p.group())).append(")</span></h2>\n");
                table(b, p.compute().apply(s), null);
            }
        }
        Table skipped = s.query("skipped", "SELECT reason, severity, detail, location, count FROM "
                + org.hetscope.store.Schema.skipped(s) + " ORDER BY count DESC, reason, detail");
        if (skipped.size() > 0) {
            b.append("<h2 id=\"skipped\">Kept generically or skipped at import</h2>\n");
            table(b, skipped, "skipped-table");
        }
        b.append("<p class=\"muted\">Times are exact nanoseconds written in a fitting unit. Written by hetscope.</p>\n");
        b.append("</body></html>\n");
        return b.toString();
    }

    private static void diff(StringBuilder b, TraceView a, String otherName, Store other, double alpha) {
        TraceDiff diff = new TraceDiff(a.store(), other, alpha);
        b.append("<h2 id=\"diff\">Comparison: ").append(SvgDrawing.esc(a.name())).append(" (A) to ")
                .append(SvgDrawing.esc(otherName)).append(" (B)</h2>\n<p class=\"muted\">As <code>hetscope diff A B"
                        + "</code> gives them (docs/cli.md): per operation the change of the total time from A to B, "
                        + "largest first, with a Mann-Whitney U test of the durations (significance level ")
                .append(alpha).append("); per iteration; per device. Each run on its own timeline.</p>\n");
        Table operations = diff.operations();
        long added = 0;
        long removed = 0;
        long slower = 0;
        long faster = 0;
        int status = operations.column("status");
        for (Object[] r : operations.rows()) {
            switch (String.valueOf(r[status])) {
                case TraceDiff.ADDED -> added++;
                case TraceDiff.REMOVED -> removed++;
                case TraceDiff.SLOWER -> slower++;
                case TraceDiff.FASTER -> faster++;
                default -> { }
            }
        }
        b.append("<p id=\"diff-summary\">").append(operations.size()).append(" operations: ").append(slower)
                .append(" slower, ").append(faster).append(" faster, ").append(added).append(" only in B, ")
                .append(removed).append(" only in A.</p>\n");
        b.append("<h3>Operations</h3>\n");
        table(b, operations, "diff-operations-table");
        b.append("<h3>Iterations</h3>\n");
        table(b, diff.iterations(), "diff-iterations-table");
        b.append("<h3>Utilisation per device</h3>\n");
        table(b, diff.utilisation(), "diff-utilisation-table");
    }

    private static void summary(StringBuilder b, TraceView view) {
        Store s = view.store();
        b.append("<table id=\"summary\">\n");
        Long span = s.scalarLong("SELECT dur_ns FROM hs_trace_bounds");
        b.append("<tr><th>trace span</th><td id=\"trace-span\"").append(span == null ? "" : " data-v=\"" + span + "\"")
                .append('>').append(span == null ? "" : SvgDrawing.esc(TimeText.duration(span))).append("</td></tr>\n");
        Table window = s.query(null, "SELECT dur_ns FROM hs_utilisation_window");
        Object activity = window.size() == 0 ? null : window.rows().get(0)[0];
        if (activity instanceof Long a) {
            row(b, "device activity span (utilisation window)", TimeText.duration(a));
        }
        row(b, "origin (absolute ns)", Long.toString(view.origin()));
        for (Map.Entry<String, String> e : s.info().entrySet()) {
            if (e.getKey().startsWith("source.")) {
                row(b, e.getKey(), e.getValue());
            }
        }
        String[][] counts = {{"tracks", "SELECT count(*) FROM track"}, {"slices", "SELECT count(*) FROM slice"},
            {"kernels", "SELECT count(*) FROM slice WHERE category = 'kernel'"},
            {"API calls", "SELECT count(*) FROM slice WHERE category = 'api'"},
            {"memory transfers", "SELECT count(*) FROM transfer"}, {"flows", "SELECT count(*) FROM flow"},
            {"counter samples", "SELECT count(*) FROM counter"}, {"devices", "SELECT count(*) FROM device"}};
        for (String[] c : counts) {
            row(b, c[0], String.format(Locale.ROOT, "%,d", s.scalarLong(c[1])));
        }
        Table devices = s.query(null, "SELECT kind, ordinal, coalesce(name, '') FROM device ORDER BY id");
        for (Object[] r : devices.rows()) {
            row(b, "device " + r[0] + " " + r[1], String.valueOf(r[2]));
        }
        b.append("</table>\n");
    }

    private static void row(StringBuilder b, String k, String v) {
        b.append("<tr><th>").append(SvgDrawing.esc(k)).append("</th><td>").append(SvgDrawing.esc(v))
                .append("</td></tr>\n");
    }

    private static void table(StringBuilder b, Table t, String id) {
        if (t.size() == 0) {
            b.append("<p class=\"muted\">No rows in this trace.</p>\n");
            return;
        }
        b.append("<table").append(id == null ? "" : " id=\"" + id + "\"").append("><tr>");
        for (String c : t.columns()) {
            // data-col: the exact name, as --json and the web API give it; the text drops the unit the cells show.
            b.append("<th data-col=\"").append(SvgDrawing.esc(c)).append("\">")
                    .append(SvgDrawing.esc(TimeText.header(c, t.columns()))).append("</th>");
        }
        b.append("</tr>\n");
        for (Object[] r : t.rows().subList(0, Math.min(ROWS_PER_TABLE, t.size()))) {
            b.append("<tr>");
            for (int i = 0; i < r.length; i++) {
                Object v = r[i];
                String col = t.columns().get(i);
                String text = v == null ? "" : v instanceof Long l && col.endsWith("_ns") ? TimeText.duration(l)
                        : v instanceof Double dd && col.endsWith("_ns") ? "≈ " + TimeText.duration(Math.round(dd))
                        : v instanceof Double dd ? String.format(Locale.ROOT, "%.3f", dd)
                        : v instanceof Long l ? String.format(Locale.ROOT, "%,d", l) : v.toString();
                // data-v: the exact figure behind the text, as 'hetscope stats --json' and the web API give it.
                b.append("<td class=\"").append(v instanceof Number ? "n" : "name").append("\"")
                        .append(v instanceof Long l && col.endsWith("_ns") ? " data-ns=\"" + l + "\"" : "")
                        .append(v instanceof Number ? " data-v=\"" + v + "\"" : "")
                        .append('>').append(SvgDrawing.esc(text)).append("</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</table>\n");
        if (t.size() > ROWS_PER_TABLE) {
            b.append("<p class=\"muted\">").append(t.size() - ROWS_PER_TABLE).append(" more rows not shown.</p>\n");
        }
    }

    private static Plots.Picture wrap(BarChart c) {
        return new Plots.Picture() {
            public int width() {
                return c.width();
            }

            public int height() {
                return c.height();
            }

            public void drawOn(Drawing d) {
                c.drawOn(d);
            }
        };
    }
}
