package org.hetscope.web.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.hetscope.web.TimeText;
import org.hetscope.web.TraceView;
import org.hetscope.web.WindowItem;

/**
 * A static picture of the whole trace: one row per track with slices or counter samples, slices aggregated to the
 * picture's pixel width by the same window query the page uses, and a time axis. A trace with more than
 * {@link #MAX_ROWS} such tracks (a kernel trace has one per thread: 16,000 and more) shows the {@link #MAX_ROWS}
 * with the most slices, in tree order, and says in a last line how many tracks and slices it left out: a picture
 * hundreds of thousands of pixels high would help nobody, and the browser's timeline shows them all.
 */
public final class TimelineOverview {
    static final int LABEL_W = 230;
    static final int LANE_H = 10;
    static final int MAX_LANES = 6;
    static final int AXIS_H = 26;
    public static final int MAX_ROWS = 400;
    static final int NOTE_H = 16;

    private record Row(TraceView.TrackInfo track, int y, int lanes) {
    }

    private final TraceView view;
    private final int plotWidth;
    private final List<Row> rows = new ArrayList<>();
    private final Map<Long, List<WindowItem>> items;
    private final int height;
    /** Tracks with slices and their slices that have no row (more than {@link #MAX_ROWS} tracks). */
    private final long omittedTracks;
    private final long omittedSlices;

    public TimelineOverview(TraceView view, int width) {
        this.view = view;
        this.plotWidth = Math.max(50, width - LABEL_W - 10);
        List<TraceView.TrackInfo> withSlices = new ArrayList<>();
        for (TraceView.TrackInfo t : view.treeOrder()) {
            if (t.slices() > 0) {
                withSlices.add(t);
            }
        }
        Set<Long> shown = shownTracks(withSlices);
        long tracksLeft = 0;
        long slicesLeft = 0;
        int y = AXIS_H;
        List<Long> ids = new ArrayList<>();
        for (TraceView.TrackInfo t : withSlices) {
            if (!shown.contains(t.id())) {
                tracksLeft++;
                slicesLeft += t.slices();
                continue;
            }
            int lanes = Math.min(MAX_LANES, Math.max(1, t.lanes()));
            rows.add(new Row(t, y, lanes));
            ids.add(t.id());
            y += lanes * LANE_H + 6;
        }
        this.omittedTracks = tracksLeft;
        this.omittedSlices = slicesLeft;
        Map<Long, List<WindowItem>> all = new HashMap<>();
        // one window query per batch, each within what the view answers in one request
        for (int i = 0; i < ids.size(); i += TraceView.MAX_TRACKS_PER_REQUEST) {
            all.putAll(view.window(ids.subList(i, Math.min(ids.size(), i + TraceView.MAX_TRACKS_PER_REQUEST)), 0,
                    view.span(), plotWidth, null));
        }
        this.items = all;
        this.height = y + 8 + (tracksLeft > 0 ? NOTE_H : 0);
    }

    /** All tracks when they fit, else the {@link #MAX_ROWS} with the most slices (ties: the earlier in tree order). */
    private static Set<Long> shownTracks(List<TraceView.TrackInfo> tracks) {
        Set<Long> ids = new HashSet<>();
        if (tracks.size() <= MAX_ROWS) {
            tracks.forEach(t -> ids.add(t.id()));
            return ids;
        }
        Integer[] order = new Integer[tracks.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingLong((Integer i) -> -tracks.get(i).slices()).thenComparingInt(i -> i));
        for (int i = 0; i < MAX_ROWS; i++) {
            ids.add(tracks.get(order[i]).id());
        }
        return ids;
    }

    /** Tracks with slices that the picture has no row for. */
    public long omittedTracks() {
        return omittedTracks;
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
        if (omittedTracks > 0) {
            d.text(LABEL_W, height - 10, String.format(Locale.ROOT, "%,d more tracks with %,d slices not drawn: the %d"
                    + " tracks with the most slices are shown (all of them in hetscope serve)", omittedTracks,
                    omittedSlices, MAX_ROWS), 11, "#6b7280", "start", false);
        }
    }

    private static String label(TraceView.TrackInfo t) {
        String name = t.name() == null ? "track " + t.id() : t.name();
        return name.length() > 38 ? name.substring(0, 37) + "…" : name;
    }
}
