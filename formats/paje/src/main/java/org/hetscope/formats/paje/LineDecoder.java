package org.hetscope.formats.paje;

import org.hetscope.formats.paje.EventDefinition.Field;

/**
 * Decodes Paje body lines into {@link DecodedLines}: splits the fields, parses times and variable values, and
 * turns the other fields into shared Strings. Needs only the event definitions and the time unit, not what the
 * lines before defined, so the chunks of a file can be decoded on several threads (one decoder per thread). A
 * line that does not decode gets a record saying why, and the reader reports it in its turn, with its line.
 */
final class LineDecoder {
    private EventDefinition[] byId;
    private int timeShift;
    private boolean headerKnown;
    private final FieldTexts strings = new FieldTexts();
    private final DecimalText decimals = new DecimalText();
    private int[] fs = new int[32];
    private int[] fe = new int[32];
    private int nf;

    /**
     * @param headerKnown whether the header is complete: until then, the first event line is not decoded (its
     *                    time unit may depend on the header)
     */
    void use(EventDefinition[] definitions, int shift, boolean header) {
        this.byId = definitions;
        this.timeShift = shift;
        this.headerKnown = header;
    }

    /** Decodes every line of {@code buf[from, to)}, which holds whole lines, into {@code out} (reset first). */
    DecodedLines decode(DecodedLines out, byte[] buf, int from, int to, boolean endsFile) {
        out.reset(buf, from, to, endsFile);
        int pos = from;
        int index = 0;
        while (pos < to) {
            int nl = indexOf(buf, pos, to, (byte) '\n');
            int end = nl < 0 ? to : nl;
            int next = nl < 0 ? to : nl + 1;
            line(out, buf, pos, end, nl < 0, index++, next);
            pos = next;
        }
        out.lines = index;
        return out;
    }

    static int indexOf(byte[] buf, int from, int to, byte b) {
        for (int i = from; i < to; i++) {
            if (buf[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Decodes one line ({@code end}: its newline, or the end of input for the {@code last} line without one) and
     * adds its record to {@code out}, none for a comment or a blank line. False when this is the first event line
     * and the header is not known yet: nothing was added.
     */
    boolean line(DecodedLines out, byte[] buf, int start, int end, boolean last, int index, int next) {
        if (end > start && buf[end - 1] == '\r') {
            end--;
        }
        int i = start;
        while (i < end && (buf[i] == ' ' || buf[i] == '\t')) {
            i++;
        }
        if (i == end || buf[i] == '#') {
            return true;
        }
        if (buf[i] == '%') {
            text(out, out.add(DecodedLines.HEADER, index), i, end, next);
            return true;
        }
        int id = 0;
        int j = i;
        while (j < end && buf[j] >= '0' && buf[j] <= '9' && j - i < 9) {
            id = id * 10 + (buf[j] - '0');
            j++;
        }
        if (j == i || (j < end && buf[j] != ' ' && buf[j] != '\t')) {
            text(out, out.add(DecodedLines.NOT_EVENT, index), i, end, next);
            return true;
        }
        if (!headerKnown) {
            return false;
        }
        EventDefinition def = id < byId.length ? byId[id] : null;
        int k;
        if (def == null) {
            k = out.add(DecodedLines.UNDEFINED, index);
        } else if (!tokenize(buf, j, end)) {
            k = out.add(DecodedLines.UNTERMINATED, index);
        } else if (nf != def.fieldCount()) {
            k = out.add(DecodedLines.FIELD_COUNT, index);
            out.fieldCount[k] = nf;
        } else {
            k = out.add(DecodedLines.EVENT, index);
            fields(out, k, buf, id, def);
        }
        out.id[k] = id;
        out.def[k] = def;
        if (last) {
            out.lastRecord = k;
        }
        return true;
    }

    private static void text(DecodedLines out, int k, int start, int end, int next) {
        out.textStart[k] = start;
        out.textEnd[k] = end;
        out.next[k] = next;
    }

    /** Splits fields after the id; quoted fields lose their quotes. False for an unterminated quote. */
    private boolean tokenize(byte[] buf, int i, int end) {
        nf = 0;
        while (true) {
            while (i < end && (buf[i] == ' ' || buf[i] == '\t')) {
                i++;
            }
            if (i >= end) {
                return true;
            }
            if (nf == fs.length) {
                fs = java.util.Arrays.copyOf(fs, nf * 2);
                fe = java.util.Arrays.copyOf(fe, nf * 2);
            }
            if (buf[i] == '"') {
                int close = indexOf(buf, i + 1, end, (byte) '"');
                if (close < 0) {
                    return false;
                }
                fs[nf] = i + 1;
                fe[nf] = close;
                i = close + 1;
            } else {
                int s = i;
                while (i < end && buf[i] != ' ' && buf[i] != '\t') {
                    i++;
                }
                fs[nf] = s;
                fe[nf] = i;
            }
            nf++;
        }
    }

    private void fields(DecodedLines out, int k, byte[] buf, int id, EventDefinition def) {
        PajeEventKind kind = def.kind();
        boolean timed = kind.ordinal() >= PajeEventKind.CREATE_CONTAINER.ordinal();
        boolean variable = kind == PajeEventKind.SET_VARIABLE || kind == PajeEventKind.ADD_VARIABLE
                || kind == PajeEventKind.SUB_VARIABLE;
        int tf = timed ? def.index(Field.TIME) : -1;
        int vf = variable ? def.index(Field.VALUE) : -1;
        boolean link = kind == PajeEventKind.START_LINK || kind == PajeEventKind.END_LINK;
        out.reserveStrings(nf + 1);
        String[] texts = out.strings;
        int base = out.nStrings;
        for (int f = 0; f < nf; f++) {
            texts[base + f] = f == tf || f == vf ? null : strings.get(id, f, buf, fs[f], fe[f] - fs[f]);
        }
        out.nStrings = base + nf;
        if (link) {
            // The reader's key of pending link halves, joined and hashed here rather than on its thread.
            String key = texts[base + def.index(Field.TYPE)] + '\u0000' + texts[base + def.index(Field.KEY)];
            key.hashCode();
            texts[base + nf] = key;
            out.nStrings++;
        }
        if (tf >= 0) {
            try {
                out.time[k] = decimals.scaled(buf, fs[tf], fe[tf] - fs[tf], timeShift);
                out.rounded[k] = decimals.lastRounded();
                out.timeError[k] = null;
            } catch (IllegalArgumentException e) {
                out.rounded[k] = false;
                out.timeError[k] = "bad time '" + text(buf, fs[tf], fe[tf]) + "'";
            }
        }
        if (vf >= 0) {
            try {
                out.value[k] = decimals.toDouble(buf, fs[vf], fe[vf] - fs[vf]);
                out.valueError[k] = null;
            } catch (NumberFormatException e) {
                out.valueError[k] = "bad variable value '" + text(buf, fs[vf], fe[vf]) + "'";
            }
        }
        int[] idx = def.extraIndex();
        if (kind == PajeEventKind.NEW_EVENT || kind.ordinal() >= PajeEventKind.SET_STATE.ordinal()
                && kind.ordinal() <= PajeEventKind.RESET_STATE.ordinal()) {
            String[] x = null;
            if (idx.length > 0) {
                x = new String[idx.length];
                for (int e = 0; e < idx.length; e++) {
                    x[e] = texts[base + idx[e]];
                }
            }
            out.extras[k] = x;
        }
    }

    private static String text(byte[] buf, int from, int to) {
        return new String(buf, from, to - from, java.nio.charset.StandardCharsets.UTF_8);
    }
}
