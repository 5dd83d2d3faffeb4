package org.hetscope.analysis.memory;

import java.util.Locale;

/** A minimal SVG writer: rectangles, circles, lines and text, in user units. */
final class SvgCanvas {
    private final StringBuilder b = new StringBuilder();
    private final double width;
    private final double height;

    SvgCanvas(double width, double height) {
        this.width = width;
        this.height = height;
    }

    private static String n(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String escape(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("\"", "&quot;");
    }

    SvgCanvas rect(double x, double y, double w, double h, String fill, String title) {
        b.append("<rect x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" width=\"").append(n(w))
                .append("\" height=\"").append(n(h)).append("\" fill=\"").append(fill).append('"');
        if (title != null) {
            b.append("><title>").append(escape(title)).append("</title></rect>\n");
        } else {
            b.append("/>\n");
        }
        return this;
    }

    SvgCanvas frame(double x, double y, double w, double h) {
        b.append("<rect x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" width=\"").append(n(w))
                .append("\" height=\"").append(n(h)).append("\" fill=\"none\" stroke=\"#999\"/>\n");
        return this;
    }

    SvgCanvas circle(double cx, double cy, double r, String fill, String stroke, String title) {
        b.append("<circle cx=\"").append(n(cx)).append("\" cy=\"").append(n(cy)).append("\" r=\"").append(n(r))
                .append("\" fill=\"").append(fill).append("\" stroke=\"").append(stroke).append("\"><title>")
                .append(escape(title)).append("</title></circle>\n");
        return this;
    }

    SvgCanvas text(double x, double y, String s, int size, String anchor) {
        b.append("<text x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" font-size=\"").append(size)
                .append("\" font-family=\"sans-serif\" text-anchor=\"").append(anchor).append("\">")
                .append(escape(s)).append("</text>\n");
        return this;
    }

    @Override
    public String toString() {
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + n(width) + "\" height=\"" + n(height)
                + "\" viewBox=\"0 0 " + n(width) + " " + n(height) + "\">\n<rect width=\"100%\" height=\"100%\" "
                + "fill=\"white\"/>\n" + b + "</svg>\n";
    }

    static final String[] PALETTE = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
        "#e377c2", "#7f7f7f"};

    /** White to dark blue for a value in [0, 1]. */
    static String ramp(double v) {
        double c = Math.max(0, Math.min(1, v));
        int r = (int) Math.round(255 * (1 - c * 0.9));
        int g = (int) Math.round(255 * (1 - c * 0.7));
        int bl = (int) Math.round(255 * (1 - c * 0.3));
        return String.format(Locale.ROOT, "#%02x%02x%02x", r, g, bl);
    }
}
