package org.hetscope.web.report;

import java.awt.AlphaComposite;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/** Rasterises a {@link Drawing} with Java2D into a PNG (headless; no display needed). */
public final class RasterDrawing implements Drawing {
    private final BufferedImage image;
    private final Graphics2D g;

    public RasterDrawing(int width, int height, double scale) {
        System.setProperty("java.awt.headless", "true");
        image = new BufferedImage((int) Math.ceil(width * scale), (int) Math.ceil(height * scale),
                BufferedImage.TYPE_INT_RGB);
        g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        g.scale(scale, scale);
    }

    private static Color colour(String hex) {
        return Color.decode(hex);
    }

    @Override
    public void rect(double x, double y, double w, double h, String fill, double opacity, String tooltip) {
        g.setComposite(AlphaComposite.getInstance(AlphaComposite.SRC_OVER, (float) Math.max(0, Math.min(1, opacity))));
        g.setColor(colour(fill));
        g.fill(new Rectangle2D.Double(x, y, w, h));
        g.setComposite(AlphaComposite.SrcOver);
    }

    @Override
    public void line(double x1, double y1, double x2, double y2, String stroke, double width) {
        g.setColor(colour(stroke));
        g.setStroke(new BasicStroke((float) width));
        g.draw(new Line2D.Double(x1, y1, x2, y2));
    }

    @Override
    public void text(double x, double y, String text, double size, String fill, String anchor, boolean bold) {
        g.setFont(new Font(Font.SANS_SERIF, bold ? Font.BOLD : Font.PLAIN, (int) Math.round(size)));
        g.setColor(colour(fill));
        double w = g.getFontMetrics().stringWidth(text);
        double at = switch (anchor) {
            case "middle" -> x - w / 2;
            case "end" -> x - w;
            default -> x;
        };
        g.drawString(text, (float) at, (float) y);
    }

    public BufferedImage image() {
        return image;
    }

    public void writePng(Path file) throws IOException {
        g.dispose();
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("no PNG writer available");
        }
    }
}
