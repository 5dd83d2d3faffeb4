package org.hetscope.capture.kernels.lang;

import java.util.Locale;

/** Values and types of numeric literals. */
public final class Literals {
    private Literals() {}

    public static boolean isFloating(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        if (t.startsWith("0x")) {
            return t.contains("p");
        }
        return t.contains(".") || t.contains("e") || t.endsWith("f") || t.endsWith("h");
    }

    public static long integer(Token t) {
        String s = t.text().toLowerCase(Locale.ROOT).replaceAll("[ul]+$", "");
        try {
            if (s.startsWith("0x")) {
                return Long.parseUnsignedLong(s.substring(2), 16);
            }
            if (s.startsWith("0b")) {
                return Long.parseUnsignedLong(s.substring(2), 2);
            }
            if (s.length() > 1 && s.startsWith("0")) {
                return Long.parseUnsignedLong(s.substring(1), 8);
            }
            return Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            throw new KernelSourceException(t.pos(), "bad integer literal '" + t.text() + "'");
        }
    }
}
