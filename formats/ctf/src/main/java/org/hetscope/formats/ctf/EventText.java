package org.hetscope.formats.ctf;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * Writes an event's fields as one line in the style of babeltrace2's {@code sink.text.pretty}
 * ({@code name: { packet context }, { stream event context }, { event context }, { payload }}), so that the two can
 * be compared field by field. Reuse one instance; {@link #format} returns the text of one event.
 */
public final class EventText implements FieldVisitor {
    private final StringBuilder out = new StringBuilder(256);
    private final boolean[] first = new boolean[64];
    private int depth;
    private boolean firstScope;

    public String format(CtfEvent e) {
        out.setLength(0);
        out.append(e.name()).append(':');
        firstScope = true;
        depth = 0;
        e.visit(this);
        return out.toString();
    }

    @Override
    public void beginScope(String scope) {
        out.append(firstScope ? " " : ", ");
        firstScope = false;
        out.append('{');
        first[++depth] = true;
    }

    @Override
    public void endScope(String scope) {
        out.append(first[depth] ? " }" : " }");
        depth--;
    }

    private void name(String name) {
        out.append(first[depth] ? " " : ", ");
        first[depth] = false;
        if (name != null) {
            out.append(name).append(" = ");
        }
    }

    private boolean inArray;
    private final int[] arrayIndex = new int[64];
    private final boolean[] isArray = new boolean[64];

    private void label(String name) {
        if (isArray[depth]) {
            out.append(first[depth] ? " " : ", ");
            first[depth] = false;
            out.append('[').append(arrayIndex[depth]++).append("] = ");
        } else {
            name(name);
        }
    }

    @Override
    public void beginStruct(String name) {
        label(name);
        out.append('{');
        first[++depth] = true;
        isArray[depth] = false;
    }

    @Override
    public void endStruct(String name) {
        out.append(" }");
        depth--;
    }

    @Override
    public void beginArray(String name, int length) {
        label(name);
        out.append('[');
        first[++depth] = true;
        isArray[depth] = true;
        arrayIndex[depth] = 0;
    }

    @Override
    public void endArray(String name) {
        out.append(" ]");
        isArray[depth] = false;
        depth--;
    }

    @Override
    public void beginVariant(String name, String option) {
        label(name);
        out.append('{');
        first[++depth] = true;
        isArray[depth] = false;
    }

    @Override
    public void endVariant(String name) {
        out.append(" }");
        depth--;
    }

    @Override
    public void integer(String name, long value, boolean signed, int size, int base) {
        label(name);
        appendInteger(out, value, signed, size, base);
    }

    static void appendInteger(StringBuilder out, long value, boolean signed, int size, int base) {
        long masked = size < 64 ? value & ((1L << size) - 1) : value;
        switch (base) {
            case 16 -> out.append("0x").append(Long.toHexString(masked).toUpperCase(java.util.Locale.ROOT));
            case 8 -> out.append('0').append(Long.toOctalString(masked));
            case 2 -> {
                out.append("0b");
                for (int i = size - 1; i >= 0; i--) {
                    out.append((masked >>> i & 1) != 0 ? '1' : '0');
                }
            }
            default -> out.append(signed ? Long.toString(value) : Long.toUnsignedString(value));
        }
    }

    @Override
    public void enumeration(String name, long value, boolean signed, String[] labels) {
        label(name);
        out.append("( ");
        if (labels.length == 0) {
            out.append("<unknown>");
        } else if (labels.length == 1) {
            out.append('"').append(labels[0]).append('"');
        } else {
            out.append("{ ");
            for (int i = 0; i < labels.length; i++) {
                out.append(i == 0 ? "" : ", ").append('"').append(labels[i]).append('"');
            }
            out.append(" }");
        }
        out.append(" : container = ").append(signed ? Long.toString(value) : Long.toUnsignedString(value)).append(" )");
    }

    @Override
    public void real(String name, double value) {
        label(name);
        out.append(cFormatG(value));
    }

    @Override
    public void string(String name, String value) {
        label(name);
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> out.append(c);
            }
        }
        out.append('"');
    }

    @Override
    public void blob(String name, byte[] bytes) {
        label(name);
        for (byte b : bytes) {
            out.append(String.format("%02x", b & 0xff));
        }
    }

    @Override
    public void absent(String name) {
        label(name);
        out.append("<none>");
    }

    /** C's {@code printf("%g")}: 6 significant digits, trailing zeros dropped, exponent form outside 1e-4..1e6. */
    static String cFormatG(double v) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == 0) {
            return (1 / v < 0) ? "-0" : "0";
        }
        BigDecimal d = new BigDecimal(v).round(new MathContext(6));
        int exp = d.precision() - d.scale() - 1;
        if (exp < -4 || exp >= 6) {
            BigDecimal mant = d.movePointLeft(exp).stripTrailingZeros();
            String m = mant.toPlainString();
            String e = String.format("%02d", Math.abs(exp));
            return m + "e" + (exp < 0 ? "-" : "+") + e;
        }
        String s = d.setScale(Math.max(0, 5 - exp), java.math.RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
        return s;
    }
}
