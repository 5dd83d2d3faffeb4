package org.hetscope.web.report;

/**
 * The few drawing operations the static pictures need, so one picture can be written as SVG or rasterised to PNG.
 * Coordinates are pixels from the top left; colours are CSS hex colours ({@code #rrggbb}).
 */
public interface Drawing {
    void rect(double x, double y, double w, double h, String fill, double opacity, String tooltip);

    void line(double x1, double y1, double x2, double y2, String stroke, double width);

    /** Text with its baseline at y; anchor is "start", "middle" or "end". */
    void text(double x, double y, String text, double size, String fill, String anchor, boolean bold);
}
