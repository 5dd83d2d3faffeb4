package org.hetscope.formats.ctf.mapping;

import org.hetscope.formats.ctf.CtfEvent;
import org.hetscope.formats.ctf.FieldVisitor;
import org.hetscope.model.JsonText;

/**
 * Writes all fields of an event (contexts and payload, flattened into one object; nested structures and arrays
 * as JSON objects and arrays) as the args JSON text of a model record. Unsigned 64-bit values above
 * {@code Long.MAX_VALUE} are written as their unsigned decimal text; hexadecimal fields as "0x..." strings.
 */
final class ArgsJson implements FieldVisitor {
    private final StringBuilder out = new StringBuilder(256);
    private final boolean[] first = new boolean[64];
    private final boolean[] array = new boolean[64];
    private int depth;

    String of(CtfEvent e) {
        out.setLength(0);
        out.append('{');
        depth = 0;
        first[0] = true;
        array[0] = false;
        e.visit(this);
        out.append('}');
        return out.toString();
    }

    private void key(String name) {
        if (!first[depth]) {
            out.append(',');
        }
        first[depth] = false;
        if (!array[depth]) {
            JsonText.quote(out, name);
            out.append(':');
        }
    }

    private void open(String name, char c, boolean isArray) {
        key(name);
        out.append(c);
        depth++;
        first[depth] = true;
        array[depth] = isArray;
    }

    @Override
    public void beginStruct(String name) {
        open(name, '{', false);
    }

    @Override
    public void endStruct(String name) {
        out.append('}');
        depth--;
    }

    @Override
    public void beginArray(String name, int length) {
        open(name, '[', true);
    }

    @Override
    public void endArray(String name) {
        out.append(']');
        depth--;
    }

    @Override
    public void beginVariant(String name, String option) {
        open(name, '{', false);
    }

    @Override
    public void endVariant(String name) {
        out.append('}');
        depth--;
    }

    @Override
    public void integer(String name, long value, boolean signed, int size, int base) {
        key(name);
        if (base == 16) {
            long masked = size < 64 ? value & ((1L << size) - 1) : value;
            out.append("\"0x").append(Long.toHexString(masked)).append('"');
        } else if (signed || value >= 0) {
            out.append(value);
        } else {
            out.append(Long.toUnsignedString(value));
        }
    }

    @Override
    public void enumeration(String name, long value, boolean signed, String[] labels) {
        key(name);
        if (labels.length > 0) {
            JsonText.quote(out, String.join("|", labels));
        } else {
            out.append(signed ? Long.toString(value) : Long.toUnsignedString(value));
        }
    }

    @Override
    public void real(String name, double value) {
        key(name);
        if (Double.isFinite(value)) {
            out.append(value);
        } else {
            out.append("null");
        }
    }

    @Override
    public void string(String name, String value) {
        key(name);
        JsonText.quote(out, value);
    }

    @Override
    public void blob(String name, byte[] bytes) {
        key(name);
        out.append('"');
        for (byte b : bytes) {
            out.append(Character.forDigit((b >> 4) & 15, 16)).append(Character.forDigit(b & 15, 16));
        }
        out.append('"');
    }

    @Override
    public void absent(String name) {
        key(name);
        out.append("null");
    }
}
