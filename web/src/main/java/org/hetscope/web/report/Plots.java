package org.hetscope.web.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hetscope.store.Table;
import org.hetscope.web.BadQueryException;
import org.hetscope.web.StatisticsTables;
import org.hetscope.web.TimeText;
import org.hetscope.web.TraceView;

/** The pictures {@code hetscope plot} writes: named views of a store, as SVG or PNG. */
public final class Plots {
    public static final List<String> VIEWS = List.of("timeline", "kernels", "api", "utilisation");

    /** A picture that knows its size and draws itself. */
    public interface Picture {
        int width();

        int height();

        void drawOn(Drawing d);
    }

    private Plots() {
    }

    public static Picture view(TraceView trace, String name, int width) {
        return switch (name) {
            case "timeline" -> wrap(new TimelineOverview(trace, width));
            case "kernels" -> wrap(durationBars("Kernels by total time", StatisticsTables.kernels(trace.store()),
                    width));
            case "api" -> wrap(durationBars("API calls by total time", StatisticsTables.apiCalls(trace.store()),
                    width));
            case "utilisation" -> wrap(utilisation(StatisticsTables.utilisation(trace.store()), width));
            default -> throw new BadQueryException("unknown view '" + name + "'; views: " + VIEWS);
        };
    }

    /** The top 20 names of a per-name statistics table as bars of their total time. */
    public static BarChart durationBars(String title, Table stats, int width) {
        List<BarChart.Bar> bars = new ArrayList<>();
        for (int i = 0; i < Math.min(20, stats.size()); i++) {
            long total = (Long) stats.get(i, "total_ns");
            Object share = stats.get(i, "share_pct");
            bars.add(new BarChart.Bar((String) stats.get(i, "name"), total, TimeText.duration(total) + "  ("
                    + stats.get(i, "count") + "×, " + String.format(Locale.ROOT, "%.1f %%",
                    share == null ? 0.0 : ((Number) share).doubleValue()) + ")"));
        }
        return new BarChart(title, bars, 0, width);
    }

    /** Bars of a utilisation chart at most; the rest are counted in its title. */
    public static final int MAX_UTILISATION_BARS = 60;

    /**
     * Busy percentage of each device and stream; of more than {@link #MAX_UTILISATION_BARS} rows (a trace with one
     * track per thread), the devices and the busiest streams, in the table's order.
     */
    public static BarChart utilisation(Table u, int width) {
        List<Integer> rows = new ArrayList<>();
        for (int i = 0; i < u.size(); i++) {
            rows.add(i);
        }
        String title = "Utilisation (busy time / device activity span)";
        if (rows.size() > MAX_UTILISATION_BARS) {
            rows.sort(java.util.Comparator.comparingInt((Integer i) -> "device".equals(u.get(i, "level")) ? 0 : 1)
                    .thenComparingDouble(i -> -percent(u, i)).thenComparingInt(i -> i));
            rows = new ArrayList<>(rows.subList(0, MAX_UTILISATION_BARS));
            rows.sort(null);
            title += String.format(Locale.ROOT, ", the %d busiest of %,d", MAX_UTILISATION_BARS, u.size());
        }
        List<BarChart.Bar> bars = new ArrayList<>();
        for (int i : rows) {
            double pct = percent(u, i);
            Object unit = u.get(i, "unit");
            String label = unit == null ? "device: " + u.get(i, "device") : u.get(i, "level") + ": " + unit;
            bars.add(new BarChart.Bar(label, pct,
                    String.format(Locale.ROOT, "%.1f %% busy (%s)", pct, TimeText.duration((Long) u.get(i, "busy_ns")))));
        }
        return new BarChart(title, bars, 100, width);
    }

    private static double percent(Table u, int row) {
        return u.get(row, "busy_pct") == null ? 0 : ((Number) u.get(row, "busy_pct")).doubleValue();
    }

    private static Picture wrap(TimelineOverview t) {
        return new Picture() {
            public int width() {
                return t.width();
            }

            public int height() {
                return t.height();
            }

            public void drawOn(Drawing d) {
                t.drawOn(d);
            }
        };
    }

    private static Picture wrap(BarChart c) {
        return new Picture() {
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

    public static String svg(Picture p, boolean standalone) {
        SvgDrawing d = new SvgDrawing(p.width(), p.height());
        p.drawOn(d);
        return d.toSvg(standalone);
    }

    /** Writes the picture as SVG or PNG, chosen by the file name's extension. */
    public static void write(Picture p, Path out) throws IOException {
        String name = out.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".svg")) {
            Files.writeString(out, svg(p, true), StandardCharsets.UTF_8);
        } else if (name.endsWith(".png")) {
            RasterDrawing r = new RasterDrawing(p.width(), p.height(), 2.0);
            p.drawOn(r);
            r.writePng(out);
        } else {
            throw new BadQueryException(out + ": the output must end in .svg or .png");
        }
    }
}
