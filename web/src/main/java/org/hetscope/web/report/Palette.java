package org.hetscope.web.report;

import java.awt.Color;
import java.util.Map;

/** The colours of the web page (web/frontend/src/colours.ts) for the static pictures: same name, same hue. */
public final class Palette {
    private static final Map<String, String> CATEGORY = Map.ofEntries(Map.entry("kernel", "#2f7ed8"),
            Map.entry("api", "#e69f00"), Map.entry("memcpy", "#009e73"), Map.entry("memset", "#56b4e9"),
            Map.entry("sync", "#d55e00"), Map.entry("cpu_op", "#8e6bbf"), Map.entry("annotation", "#999999"),
            Map.entry("task", "#cc79a7"), Map.entry("state", "#7f7f7f"), Map.entry("alloc", "#b8860b"),
            Map.entry("marker", "#444444"), Map.entry("other", "#a0a0a0"));

    private Palette() {
    }

    public static String category(String category) {
        return CATEGORY.getOrDefault(category, "#a0a0a0");
    }

    /** FNV-1a over UTF-16 units, as the page computes it, mapped to a hue. */
    public static String name(String name) {
        int h = 0x811c9dc5;
        for (int i = 0; i < name.length(); i++) {
            h ^= name.charAt(i);
            h *= 16777619;
        }
        long u = Integer.toUnsignedLong(h);
        float hue = (u % 360) / 360f;
        float sat = (45 + (u >> 9) % 25) / 100f;
        float light = (45 + (u >> 17) % 15) / 100f;
        return hex(hslToRgb(hue, sat, light));
    }

    private static Color hslToRgb(float h, float s, float l) {
        float q = l < 0.5f ? l * (1 + s) : l + s - l * s;
        float p = 2 * l - q;
        return new Color(channel(p, q, h + 1f / 3), channel(p, q, h), channel(p, q, h - 1f / 3));
    }

    private static float channel(float p, float q, float t) {
        if (t < 0) {
            t += 1;
        }
        if (t > 1) {
            t -= 1;
        }
        if (t < 1f / 6) {
            return p + (q - p) * 6 * t;
        }
        if (t < 0.5f) {
            return q;
        }
        if (t < 2f / 3) {
            return p + (q - p) * (2f / 3 - t) * 6;
        }
        return p;
    }

    private static String hex(Color c) {
        return String.format("#%02x%02x%02x", c.getRed(), c.getGreen(), c.getBlue());
    }
}
