package org.hetscope.analysis.memory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.hetscope.store.Table;

/**
 * SVG pictures drawn only from the analysis tables, so that every mark on them is a row one can print: residency
 * per block in time bins, the presence heatmap, and a snapshot of blocks and running tasks.
 */
public final class Pictures {
    private Pictures() {}

    /** Parses "i j" block coordinates; null when the block has none. */
    static int[] coords(Object text) {
        if (text == null) {
            return null;
        }
        String[] p = text.toString().replaceAll("[(),]", " ").trim().split("\\s+");
        if (p.length < 2) {
            return null;
        }
        try {
            return new int[] {Integer.parseInt(p[0]), Integer.parseInt(p[1])};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * One panel per block; in each time bin one bar per node, its height the bin's percentage (100 % = panel
     * height; shared replicas may fill several bars).
     */
    public static String residency(Table bins) {
        int cBlock = bins.column("block");
        int cNode = bins.column("node");
        int cStart = bins.column("bin_start_ts");
        int cEnd = bins.column("bin_end_ts");
        int cPct = bins.column("percent");
        Map<String, List<Object[]>> byBlock = new LinkedHashMap<>();
        TreeSet<String> nodes = new TreeSet<>();
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (Object[] r : bins.rows()) {
            byBlock.computeIfAbsent((String) r[cBlock], k -> new ArrayList<>()).add(r);
            nodes.add((String) r[cNode]);
            first = Math.min(first, (Long) r[cStart]);
            last = Math.max(last, (Long) r[cEnd]);
        }
        List<String> nodeList = new ArrayList<>(nodes);
        int cols = Math.max(1, (int) Math.ceil(Math.sqrt(byBlock.size())));
        double pw = 220;
        double ph = 90;
        int rows = (byBlock.size() + cols - 1) / cols;
        SvgCanvas svg = new SvgCanvas(cols * (pw + 20) + 20, rows * (ph + 40) + 60);
        svg.text(20, 20, bins.title(), 14, "start");
        for (int i = 0; i < nodeList.size(); i++) {
            svg.rect(20 + i * 120, 30, 10, 10, SvgCanvas.PALETTE[i % 8], null);
            svg.text(34 + i * 120, 39, nodeList.get(i), 11, "start");
        }
        double span = Math.max(1, last - first);
        int k = 0;
        for (var e : byBlock.entrySet()) {
            double x0 = 20 + (k % cols) * (pw + 20);
            double y0 = 60 + (k / cols) * (ph + 40);
            svg.text(x0, y0 + 12, e.getKey(), 11, "start");
            svg.frame(x0, y0 + 16, pw, ph);
            for (Object[] r : e.getValue()) {
                int ni = nodeList.indexOf((String) r[cNode]);
                double bx = x0 + pw * (((Long) r[cStart]) - first) / span;
                double bw = pw * (((Long) r[cEnd]) - ((Long) r[cStart])) / span / nodeList.size();
                double h = ph * Math.min(100, (Double) r[cPct]) / 100;
                svg.rect(bx + ni * bw, y0 + 16 + ph - h, Math.max(0.5, bw - 0.5), h, SvgCanvas.PALETTE[ni % 8],
                        r[cNode] + " " + String.format(Locale.ROOT, "%.2f%%", (Double) r[cPct]));
            }
            k++;
        }
        return svg.toString();
    }

    /** One panel per node, a cell per block coordinate, coloured by the normalised presence. */
    public static String heatmap(Table heat) {
        int cNode = heat.column("node");
        int cCoord = heat.column("coordinates");
        int cValue = heat.column("value");
        int cBlock = heat.column("block");
        Map<String, List<Object[]>> byNode = new LinkedHashMap<>();
        int maxI = 0;
        int maxJ = 0;
        double max = 0;
        for (Object[] r : heat.rows()) {
            byNode.computeIfAbsent((String) r[cNode], k -> new ArrayList<>()).add(r);
            int[] c = coords(r[cCoord]);
            if (c != null) {
                maxI = Math.max(maxI, c[0]);
                maxJ = Math.max(maxJ, c[1]);
            }
            if (r[cValue] != null) {
                max = Math.max(max, (Double) r[cValue]);
            }
        }
        boolean fraction = heat.title().contains("LIFETIME") || heat.title().contains("RUN")
                || heat.title().contains("FACET_MAX");
        double scale = fraction ? 1.0 : Math.max(max, 1e-12);
        double cell = 22;
        double pw = (maxJ + 1) * cell;
        double ph = (maxI + 1) * cell;
        SvgCanvas svg = new SvgCanvas(byNode.size() * (pw + 40) + 40, ph + 90);
        svg.text(20, 20, heat.title(), 12, "start");
        int k = 0;
        for (var e : byNode.entrySet()) {
            double x0 = 20 + k * (pw + 40);
            double y0 = 50;
            svg.text(x0, y0 - 6, e.getKey(), 12, "start");
            svg.frame(x0, y0, pw, ph);
            for (Object[] r : e.getValue()) {
                int[] c = coords(r[cCoord]);
                if (c == null || r[cValue] == null) {
                    continue;
                }
                double v = (Double) r[cValue];
                svg.rect(x0 + c[1] * cell, y0 + c[0] * cell, cell - 1, cell - 1, SvgCanvas.ramp(v / scale),
                        r[cBlock] + " " + String.format(Locale.ROOT, "%.4g", v));
            }
            k++;
        }
        return svg.toString();
    }

    /**
     * One panel per node, a cell per block coordinate coloured by its state (red owner, blue shared, white
     * absent); running tasks drawn in the blocks they use: a square for write access, a circle for read.
     */
    public static String snapshot(Table blocks, Table tasks) {
        int bNode = blocks.column("node");
        int bCoord = blocks.column("coordinates");
        int bState = blocks.column("state");
        int bBlock = blocks.column("block");
        TreeSet<String> nodes = new TreeSet<>();
        int maxI = 0;
        int maxJ = 0;
        for (Object[] r : blocks.rows()) {
            nodes.add((String) r[bNode]);
            int[] c = coords(r[bCoord]);
            if (c != null) {
                maxI = Math.max(maxI, c[0]);
                maxJ = Math.max(maxJ, c[1]);
            }
        }
        for (Object[] r : tasks.rows()) {
            if (r[tasks.column("node")] != null) {
                nodes.add((String) r[tasks.column("node")]);
            }
            int[] c = coords(r[tasks.column("block")]);
            if (c != null) {
                maxI = Math.max(maxI, c[0]);
                maxJ = Math.max(maxJ, c[1]);
            }
        }
        double cell = 24;
        double pw = (maxJ + 1) * cell;
        double ph = (maxI + 1) * cell;
        List<String> nodeList = new ArrayList<>(nodes);
        SvgCanvas svg = new SvgCanvas(nodeList.size() * (pw + 40) + 40, ph + 90);
        svg.text(20, 20, blocks.title() + " (red owner, blue shared; square = write, circle = read)", 12,
                "start");
        for (int k = 0; k < nodeList.size(); k++) {
            double x0 = 20 + k * (pw + 40);
            double y0 = 50;
            svg.text(x0, y0 - 6, nodeList.get(k), 12, "start");
            svg.frame(x0, y0, pw, ph);
            for (Object[] r : blocks.rows()) {
                int[] c = coords(r[bCoord]);
                if (c == null || !nodeList.get(k).equals(r[bNode])) {
                    continue;
                }
                String fill = "owner".equals(r[bState]) ? "#d62728" : "#1f77b4";
                svg.rect(x0 + c[1] * cell, y0 + c[0] * cell, cell - 1, cell - 1, fill, r[bBlock] + " " + r[bState]);
            }
            for (Object[] r : tasks.rows()) {
                int[] c = coords(r[tasks.column("block")]);
                if (c == null || !nodeList.get(k).equals(r[tasks.column("node")])) {
                    continue;
                }
                String mode = String.valueOf(r[tasks.column("mode")]);
                String title = "job " + r[tasks.column("job_id")] + " " + r[tasks.column("name")] + " " + mode;
                double cx = x0 + c[1] * cell + cell / 2;
                double cy = y0 + c[0] * cell + cell / 2;
                if (mode.contains("W")) {
                    svg.rect(cx - 6, cy - 6, 12, 12, "#ffdd00", title);
                } else {
                    svg.circle(cx, cy, 6, "#ffdd00", "#333", title);
                }
            }
        }
        return svg.toString();
    }
}
