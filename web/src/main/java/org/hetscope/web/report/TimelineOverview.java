package org.hetscope.web.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hetscope.web.TimeText;
import org.hetscope.web.TraceView;
import org.hetscope.web.WindowItem;

/**
 * A static picture of the whole trace: one row per track with slices or counter samples, slices aggregated to the
 * picture's pixel width by the same window query the page uses, and a time axis.
 */
public final class TimelineOverview {
    static final int LABEL_W = 230;
    static final int LANE_H = 10;
    static final int MAX_LANES = 6;
    static final int AXIS_H = 26;

    private record Row(TraceView.TrackInfo track, int y, int lanes) {
    }

    private final TraceView view;
    private final int plotWidth;
    private final List<Row> rows = new ArrayList<>();
    private final Map<Long, List<WindowItem>> items;
    private final int height;

    public TimelineOverview(TraceView view, int width) {
        this.view = view;
        this.plotWidth = Math.max(50, width - LABEL_W - 10);
        int y = AXIS_H;
        List<Long> ids = new ArrayList<>();
        for (TraceView.TrackInfo t : view.treeOrder()) {
            if (t.slices() > 0) {
                int lanes = Math.min(MAX_LANES, Math.max(1, t.lanes()));
                rows.add(new Row(t, y, lanes));
                ids.add(t.id());
                y += lanes * LANE_H + 6;
            }
        }
        this.items = ids.isEmpty() ? Map.of() : view.window(ids, 0, view.span(), plotWidth, null);
        this.height = y + 8;
    }

    public int width() {
        return LABEL_W + plotWidth + 10;
    }

    public int height() {
        return height;
    }

    /** Items drawn per track (each at most the plot width). */
    public Map<Long, List<WindowItem>> items() {
        return items;
    }

    public int plotWidth() {
        return plotWidth;
    }

    public void drawOn(Drawing d) {
        long span = view.span();
        double k = (double) plotWidth / span;
        // Axis: about eight ticks at a 1-2-5 step.
        long step = TimeText.tickStep(span, 8);
        d.line(LABEL_W, AXIS_H - 4, LABEL_W + plotWidth, AXIS_H - 4, "#94a3b8", 1);
        for (long t = 0; t <= span; t += step) {
            double x = LABEL_W + t * k;
            d.line(x, AXIS_H - 10, x, AXIS_H - 4, "#94a3b8", 1);
            d.text(x + 2, AXIS_H - 12, TimeText.duration(t), 10, "#1f2937", "start", false);
        }
        for (Row r : rows) {
            d.text(LABEL_W - 6, r.y() + Math.min(r.lanes(), 2) * LANE_H - 2, label(r.track()), 10, "#1f2937", "end",
                    false);
            d.line(LABEL_W, r.y() + r.lanes() * LANE_H + 3, LABEL_W + plotWidth, r.y() + r.lanes() * LANE_H + 3,
                    "#e5e7eb", 1);
            for (WindowItem it : items.getOrDefault(r.track().id(), List.of())) {
                if (it.depth() >= r.lanes()) {
                    continue;
                }
                double x0 = LABEL_W + Math.max(0, it.start()) * k;
                double x1 = LABEL_W + Math.min(span, it.end()) * k;
                double opacity = it.count() == 1 ? 1 : 0.35 + 0.65 * it.busyFraction();
                String tip = it.count() == 1 ? it.name() + " (" + TimeText.duration(it.end() - it.start()) + ")"
                        : it.count() + " slices, e.g. " + it.name();
                d.rect(x0, r.y() + it.depth() * LANE_H, Math.max(0.6, x1 - x0), LANE_H - 1,
                        Palette.name(it.name()), opacity, tip);
            }
        }
    }

    private static String label(TraceView.TrackInfo t) {
        String name = t.name() == null ? "track " + t.id() : t.name();
        return name.length() > 38 ? name.substring(0, 37) + "…" : name;
    }
}
