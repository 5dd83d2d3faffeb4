package org.hetscope.model;

/**
 * Builds the small JSON object texts kept in {@code args} columns, without a JSON library.
 * Reuse one instance per reader thread: {@link #reset()} then {@code put...} then {@link #toString()}.
 */
public final class JsonText {
    private final StringBuilder out = new StringBuilder(128);
    private boolean empty = true;

    public JsonText reset() {
        out.setLength(0);
        out.append('{');
        empty = true;
        return this;
    }

    public JsonText() {
        reset();
    }

    private void member() {
        if (!empty) {
            out.append(',');
        }
        empty = false;
    }

    private void key(String key) {
        member();
        quote(out, key);
        out.append(':');
    }

    private JsonText string(String value) {
        if (value == null) {
            out.append("null");
        } else {
            quote(out, value);
        }
        return this;
    }

    public JsonText put(String key, String value) {
        key(key);
        return string(value);
    }

    /**
     * Puts a string member under a key encoded once by {@link #encodeKey}: for objects that repeat the same keys
     * millions of times (the extra fields of a trace's events), so that only the values are escaped each time.
     */
    public JsonText putEncoded(String encodedKey, String value) {
        member();
        out.append(encodedKey);
        return string(value);
    }

    /** A key as {@link #putEncoded} takes it: quoted, escaped and followed by its colon. */
    public static String encodeKey(String key) {
        StringBuilder b = new StringBuilder(key.length() + 3);
        quote(b, key);
        return b.append(':').toString();
    }

    public JsonText put(String key, long value) {
        key(key);
        out.append(value);
        return this;
    }

    public JsonText put(String key, double value) {
        key(key);
        if (Double.isFinite(value)) {
            out.append(value);
        } else {
            out.append("null");
        }
        return this;
    }

    public JsonText put(String key, boolean value) {
        key(key);
        out.append(value);
        return this;
    }

    /** Puts an already encoded JSON value (number, array, object) as it is. */
    public JsonText putRaw(String key, CharSequence json) {
        key(key);
        out.append(json);
        return this;
    }

    public boolean isEmpty() {
        return empty;
    }

    /** The object text, or null when nothing was put. */
    public String toStringOrNull() {
        return empty ? null : toString();
    }

    @Override
    public String toString() {
        return out + "}";
    }

    public static void quote(StringBuilder out, CharSequence s) {
        out.append('"');
        if (s instanceof String str && plain(str)) {
            out.append(str);
            out.append('"');
            return;
        }
        int n = s.length();
        int clean = 0; // start of the run not yet copied: runs without escapes are copied in one call
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\') {
                out.append(s, clean, i);
                escape(out, c);
                clean = i + 1;
            }
        }
        out.append(s, clean, n);
        out.append('"');
    }

    /** {@link #quote(StringBuilder, CharSequence)} for a range of a character buffer (a parser's, say). */
    public static void quote(StringBuilder out, char[] chars, int offset, int length) {
        out.append('"');
        int end = offset + length;
        int clean = offset;
        for (int i = offset; i < end; i++) {
            char c = chars[i];
            if (c < 0x20 || c == '"' || c == '\\') {
                out.append(chars, clean, i - clean);
                escape(out, c);
                clean = i + 1;
            }
        }
        out.append(chars, clean, end - clean);
        out.append('"');
    }

    /** Whether a text needs no escape (most do not: a bulk copy then beats copying between escapes). */
    private static boolean plain(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    private static void escape(StringBuilder out, char c) {
        switch (c) {
            case '"' -> out.append("\\\"");
            case '\\' -> out.append("\\\\");
            case '\n' -> out.append("\\n");
            case '\r' -> out.append("\\r");
            case '\t' -> out.append("\\t");
            default -> out.append(String.format("\\u%04x", (int) c));
        }
    }
}
