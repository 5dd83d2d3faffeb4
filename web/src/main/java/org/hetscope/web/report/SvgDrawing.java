package org.hetscope.web.report;

import java.util.Locale;

/** Writes a {@link Drawing} as SVG text: standalone (with XML namespace) or for inlining in HTML. */
public final class SvgDrawing implements Drawing {
    private final StringBuilder body = new StringBuilder();
    private final int width;
    private final int height;
    private int elements;

    public SvgDrawing(int width, int height) {
        this.width = width;
        this.height = height;
    }

    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> {
                    if (c >= 0x20 || c == '\t' || c == '\n') {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }

    private static String n(double v) {
        return String.format(Locale.ROOT, "%.2f", v).replaceAll("\\.?0+$", "");
    }

    @Override
    public void rect(double x, double y, double w, double h, String fill, double opacity, String tooltip) {
        elements++;
        body.append("<rect x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" width=\"").append(n(w))
                .append("\" height=\"").append(n(h)).append("\" fill=\"").append(fill).append('"');
        if (opacity < 1) {
            body.append(" fill-opacity=\"").append(n(opacity)).append('"');
        }
        if (tooltip != null) {
            body.append("><title>").append(esc(tooltip)).append("</title></rect>\n");
        } else {
            body.append("/>\n");
        }
    }

    @Override
    public void line(double x1, double y1, double x2, double y2, String stroke, double w) {
        elements++;
        body.append("<line x1=\"").append(n(x1)).append("\" y1=\"").append(n(y1)).append("\" x2=\"").append(n(x2))
                .append("\" y2=\"").append(n(y2)).append("\" stroke=\"").append(stroke).append("\" stroke-width=\"")
                .append(n(w)).append("\"/>\n");
    }

    @Override
    public void text(double x, double y, String text, double size, String fill, String anchor, boolean bold) {
        elements++;
        body.append("<text x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" font-size=\"").append(n(size))
                .append("\" fill=\"").append(fill).append("\" text-anchor=\"").append(anchor).append('"')
                .append(bold ? " font-weight=\"bold\"" : "").append('>').append(esc(text)).append("</text>\n");
    }

    public int elements() {
        return elements;
    }

    /** The SVG document; {@code standalone} adds the XML declaration and namespace a separate file needs. */
    public String toSvg(boolean standalone) {
        String open = "<svg " + (standalone ? "xmlns=\"http://www.w3.org/2000/svg\" " : "")
                + "width=\"" + width + "\" height=\"" + height + "\" viewBox=\"0 0 " + width + " " + height
                + "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n";
        return (standalone ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" : "") + open
                + "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n" + body + "</svg>\n";
    }
}
