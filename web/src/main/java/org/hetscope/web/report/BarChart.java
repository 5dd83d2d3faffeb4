package org.hetscope.web.report;

import java.util.List;

/** A horizontal bar chart (one labelled bar per row) for statistics: kernel time, utilisation. */
public final class BarChart {
    /** One bar: its label, its length and the text written after it. */
    public record Bar(String label, double value, String valueText) {
    }

    static final int BAR_H = 16;
    static final int LABEL_W = 300;

    private final String title;
    private final List<Bar> bars;
    private final double max;
    private final int width;

    public BarChart(String title, List<Bar> bars, double fixedMax, int width) {
        this.title = title;
        this.bars = List.copyOf(bars);
        this.max = fixedMax > 0 ? fixedMax : bars.stream().mapToDouble(Bar::value).max().orElse(1);
        this.width = width;
    }

    public int width() {
        return width;
    }

    public int height() {
        return 30 + bars.size() * (BAR_H + 4) + 8;
    }

    public List<Bar> bars() {
        return bars;
    }

    public void drawOn(Drawing d) {
        d.text(8, 18, title, 13, "#111827", "start", true);
        double plot = width - LABEL_W - 230; // room for the value text after the longest bar
        int y = 30;
        for (Bar b : bars) {
            String label = b.label().length() > 48 ? b.label().substring(0, 47) + "…" : b.label();
            d.text(LABEL_W - 6, y + BAR_H - 4, label, 10, "#1f2937", "end", false);
            double w = max <= 0 ? 0 : plot * Math.max(0, b.value()) / max;
            d.rect(LABEL_W, y, Math.max(0.5, w), BAR_H, Palette.name(b.label()), 1, b.label() + ": " + b.valueText());
            d.text(LABEL_W + w + 4, y + BAR_H - 4, b.valueText(), 10, "#374151", "start", false);
            y += BAR_H + 4;
        }
    }
}
