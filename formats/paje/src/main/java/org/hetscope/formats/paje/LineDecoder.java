package org.hetscope.formats.paje;

import java.nio.charset.StandardCharsets;
import org.hetscope.formats.paje.EventDefinition.Field;
import org.hetscope.model.SkipReason;

/**
 * Decodes the body lines of a Paje file: splits a line into its fields, parses times and numbers, resolves type,
 * container and value texts against the {@link PajeDictionary}, and hands the line's operation to
 * {@link BodyOperations}. A decoder belongs to one thread (its field positions, string tables and tallies are its
 * own) and never changes the dictionary: header lines and definition lines go back to its caller.
 */
final class LineDecoder {
    /** {@link #decode} decoded the line, skipped it (blank, comment) or reported it as damage. */
    static final int DONE = 0;
    /** A '%' header line: the caller reads it. */
    static final int HEADER = 1;
    /** A line that defines a type, a value or a container ({@link #definition()}, fields split): for the caller. */
    static final int DEFINITION = 2;
    /** The first body line, and the header not yet announced: the caller announces it and decodes it again. */
    static final int FIRST_BODY = 3;

    private final PajeDictionary dictionary;
    /** Decimal exponent from the file's time unit to nanoseconds. */
    int timeShift = 9;
    /** Number of the line being decoded: the caller counts every line, blank and comment lines included. */
    long line;
    Tally tally = new Tally();

    private int[] fs = new int[32];
    private int[] fe = new int[32];
    private int nf;
    private EventDefinition definition;
    private final DecimalText decimals = new DecimalText();
    private final ByteStrings.Allowance allowance;
    /** String table per (event id, field). */
    private ByteStrings[][] tables = new ByteStrings[0][];

    /** What the decoded lines added up to: times seen, rounded times, accepted lines per kind. */
    static final class Tally {
        long minTime = Long.MAX_VALUE;
        long maxTime = Long.MIN_VALUE;
        long roundedTimes;
        long firstRoundedLine = -1;
        final long[] kindCounts = new long[PajeEventKind.values().length];

        /** Adds another tally whose line numbers start after {@code lineBase}. */
        void add(Tally o, long lineBase) {
            minTime = Math.min(minTime, o.minTime);
            maxTime = Math.max(maxTime, o.maxTime);
            roundedTimes += o.roundedTimes;
            if (firstRoundedLine < 0 && o.firstRoundedLine >= 0) {
                firstRoundedLine = o.firstRoundedLine + lineBase;
            }
            for (int k = 0; k < kindCounts.length; k++) {
                kindCounts[k] += o.kindCounts[k];
            }
        }
    }

    /** @param share which part of a reader's string allowance this decoder may use (1 / decoders) */
    LineDecoder(PajeDictionary dictionary, int share) {
        this.dictionary = dictionary;
        this.allowance = new ByteStrings.Allowance(ByteStrings.MAX_ENTRIES / share);
    }

    /** The definition of the line that {@link #decode} last returned {@link #DEFINITION} for. */
    EventDefinition definition() {
        return definition;
    }

    /** Gives the tally so far and starts a new one. */
    Tally takeTally() {
        Tally t = tally;
        tally = new Tally();
        return t;
    }

    /**
     * Decodes one line (without its '\n'); {@code last} when it is the file's last line and had no '\n'.
     * @return {@link #DONE}, {@link #HEADER}, {@link #DEFINITION} or {@link #FIRST_BODY}
     */
    int decode(byte[] buf, int start, int end, boolean last, BodyOperations out) {
        if (end > start && buf[end - 1] == '\r') {
            end--;
        }
        int i = start;
        while (i < end && (buf[i] == ' ' || buf[i] == '\t')) {
            i++;
        }
        if (i == end || buf[i] == '#') {
            return DONE;
        }
        if (buf[i] == '%') {
            return HEADER;
        }
        int id = 0;
        int j = i;
        while (j < end && buf[j] >= '0' && buf[j] <= '9' && j - i < 9) {
            id = id * 10 + (buf[j] - '0');
            j++;
        }
        if (j == i || (j < end && buf[j] != ' ' && buf[j] != '\t')) {
            damage(out, SkipReason.DAMAGED_RECORD, "line that is neither a header line nor an event",
                    "'" + text(buf, i, Math.min(end, i + 40)) + "'");
            return DONE;
        }
        if (!dictionary.announced) {
            return FIRST_BODY;
        }
        EventDefinition def = dictionary.definition(id);
        if (def == null) {
            damage(out, SkipReason.DAMAGED_RECORD, "undefined event id", "id " + id);
            return DONE;
        }
        if (!tokenize(buf, j, end)) {
            damage(out, last ? SkipReason.TRUNCATED : SkipReason.DAMAGED_RECORD,
                    last ? "last line" : "unterminated quoted string", "event id " + id);
            return DONE;
        }
        if (nf != def.fieldCount()) {
            if (nf < def.fieldCount()) {
                damage(out, last ? SkipReason.TRUNCATED : SkipReason.DAMAGED_RECORD,
                        last ? "last line" : "line with missing fields",
                        def.kind().pajeName() + " " + id + " needs " + def.fieldCount() + " fields, found " + nf);
            } else {
                damage(out, SkipReason.DAMAGED_RECORD, "line with extra fields",
                        def.kind().pajeName() + " " + id + " has " + def.fieldCount() + " fields, found " + nf);
            }
            return DONE;
        }
        if (def.kind().defines()) {
            definition = def;
            return DEFINITION;
        }
        try {
            body(def, buf, out);
        } catch (IllegalArgumentException e) {
            damage(out, SkipReason.DAMAGED_RECORD, "bad field value", e.getMessage());
        }
        return DONE;
    }

    /** A line that cannot be used: skipped and reported as damage in the input. */
    void damage(BodyOperations out, SkipReason reason, String what, String detail) {
        out.problem(reason, what, line, detail);
    }

    static String text(byte[] buf, int from, int to) {
        return new String(buf, from, to - from, StandardCharsets.UTF_8);
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
                int close = i + 1;
                while (close < end && buf[close] != '"') {
                    close++;
                }
                if (close >= end) {
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

    private ByteStrings table(EventDefinition def, int field) {
        int id = def.id();
        if (id >= tables.length) {
            tables = java.util.Arrays.copyOf(tables, Math.max(id + 1, tables.length * 2));
        }
        ByteStrings[] row = tables[id];
        if (row == null || row.length < def.fieldCount()) {
            row = new ByteStrings[def.fieldCount()];
            tables[id] = row;
        }
        ByteStrings t = row[field];
        if (t == null) {
            t = new ByteStrings(allowance);
            row[field] = t;
        }
        return t;
    }

    /** The text of field {@code field} of the line. */
    String str(byte[] buf, EventDefinition def, int field) {
        return table(def, field).get(buf, fs[field], fe[field] - fs[field]);
    }

    /** The text of field {@code f}, or {@code otherwise} when the line's definition has no such field. */
    String str(byte[] buf, EventDefinition def, Field f, String otherwise) {
        int i = def.index(f);
        return i >= 0 ? str(buf, def, i) : otherwise;
    }

    /** The TIME field in nanoseconds. */
    long time(byte[] buf, EventDefinition def) {
        int f = def.index(Field.TIME);
        long t;
        try {
            t = decimals.scaled(buf, fs[f], fe[f] - fs[f], timeShift);
            if (decimals.lastRounded()) {
                tally.roundedTimes++;
                if (tally.firstRoundedLine < 0) {
                    tally.firstRoundedLine = line;
                }
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad time '" + text(buf, fs[f], fe[f]) + "'");
        }
        // min/max rather than ifs: a branch taken only on a block's first line would make the JIT recompile this
        tally.minTime = Math.min(tally.minTime, t);
        tally.maxTime = Math.max(tally.maxTime, t);
        return t;
    }

    private String[] extras(byte[] buf, EventDefinition def) {
        int[] idx = def.extraIndex();
        if (idx.length == 0) {
            return null;
        }
        String[] out = new String[idx.length];
        for (int k = 0; k < idx.length; k++) {
            out[k] = str(buf, def, idx[k]);
        }
        return out;
    }

    /** The type named by the TYPE field; {@code expected} null accepts any kind. */
    PajeType type(byte[] buf, EventDefinition def, PajeType.Kind expected) {
        int f = def.index(Field.TYPE);
        ByteStrings table = table(def, f);
        int slot = table.slot(buf, fs[f], fe[f] - fs[f]);
        if (slot >= 0 && table.meaning(slot) instanceof PajeType t && (expected == null || t.kind() == expected)) {
            return t;
        }
        String text = table.string(slot);
        PajeType type = dictionary.types.get(text);
        if (type == null) {
            throw new IllegalArgumentException("unknown type '" + text + "'");
        }
        if (expected != null && type.kind() != expected) {
            throw new IllegalArgumentException("type '" + text + "' is a " + type.kind().name().toLowerCase()
                    + " type, not a " + expected.name().toLowerCase() + " type");
        }
        // A text, once it names a type, always names that type: aliases and names are never redefined.
        if (slot >= 0) {
            table.mean(slot, type);
        }
        return type;
    }

    /** The container named by field {@code f} of a line, resolved once per distinct text of that field. */
    PajeContainer container(byte[] buf, EventDefinition def, int f) {
        ByteStrings table = table(def, f);
        int slot = table.slot(buf, fs[f], fe[f] - fs[f]);
        if (slot >= 0 && table.meaning(slot) instanceof PajeContainer c) {
            return c;
        }
        PajeContainer c = container(table.string(slot));
        if (slot >= 0) {
            table.mean(slot, c);
        }
        return c;
    }

    PajeContainer container(String alias) {
        PajeContainer c = dictionary.containers.get(alias);
        if (c == null) {
            throw new IllegalArgumentException("unknown container '" + alias + "'");
        }
        return c;
    }

    /** What the VALUE field of a line names among the values of {@code type}. */
    private PajeValue value(byte[] buf, EventDefinition def, PajeType type) {
        int f = def.index(Field.VALUE);
        ByteStrings table = table(def, f);
        int slot = table.slot(buf, fs[f], fe[f] - fs[f]);
        if (slot < 0) {
            return type.value(table.string(slot));
        }
        // One text may be a value of several types (StarPU's worker and thread states share theirs).
        ValuesByType memo;
        if (table.meaning(slot) instanceof ValuesByType m) {
            memo = m;
        } else {
            memo = new ValuesByType();
            table.mean(slot, memo);
        }
        int t = type.slot;
        int version = type.valuesVersion();
        if (t < memo.values.length && memo.values[t] != null && memo.versions[t] == version) {
            return memo.values[t];
        }
        PajeValue v = type.value(table.string(slot));
        if (t >= memo.values.length) {
            memo.values = java.util.Arrays.copyOf(memo.values, t + 1);
            memo.versions = java.util.Arrays.copyOf(memo.versions, t + 1);
        }
        memo.values[t] = v;
        memo.versions[t] = version;
        return v;
    }

    /**
     * What one value text was resolved to, per type (by {@link PajeType#slot}); an entry is valid while its type
     * declares no further values.
     */
    private static final class ValuesByType {
        PajeValue[] values = new PajeValue[0];
        int[] versions = new int[0];
    }

    /** Decodes a line of a kind that does not define anything. */
    private void body(EventDefinition def, byte[] buf, BodyOperations out) {
        PajeEventKind kind = def.kind();
        switch (kind) {
            case DESTROY_CONTAINER -> {
                long t = time(buf, def);
                out.destroy(container(buf, def, def.index(Field.NAME)), t, line);
                // Counted where it is applied: destroying twice is only known in file order.
                return;
            }
            case NEW_EVENT -> {
                long t = time(buf, def);
                PajeType type = type(buf, def, PajeType.Kind.EVENT);
                PajeContainer c = container(buf, def, def.index(Field.CONTAINER));
                PajeValue v = value(buf, def, type);
                out.event(new PajeEvent(c, type, t, v, def, extras(buf, def), line));
            }
            case SET_STATE, PUSH_STATE, POP_STATE, RESET_STATE -> {
                long t = time(buf, def);
                PajeType type = type(buf, def, PajeType.Kind.STATE);
                PajeContainer c = container(buf, def, def.index(Field.CONTAINER));
                PajeValue v = def.index(Field.VALUE) >= 0 ? value(buf, def, type) : null;
                byte op = switch (kind) {
                    case SET_STATE -> StateBuffer.SET;
                    case PUSH_STATE -> StateBuffer.PUSH;
                    case POP_STATE -> StateBuffer.POP;
                    default -> StateBuffer.RESET;
                };
                String[] x = extras(buf, def);
                out.state(c, type, t, line, op, v, x == null ? null : def, x);
            }
            case SET_VARIABLE, ADD_VARIABLE, SUB_VARIABLE -> {
                long t = time(buf, def);
                PajeType type = type(buf, def, PajeType.Kind.VARIABLE);
                PajeContainer c = container(buf, def, def.index(Field.CONTAINER));
                int f = def.index(Field.VALUE);
                double value;
                try {
                    value = decimals.toDouble(buf, fs[f], fe[f] - fs[f]);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("bad variable value '" + text(buf, fs[f], fe[f]) + "'");
                }
                byte op = kind == PajeEventKind.SET_VARIABLE ? VariableBuffer.SET
                        : kind == PajeEventKind.ADD_VARIABLE ? VariableBuffer.ADD : VariableBuffer.SUB;
                out.variable(c, type, t, line, op, value);
            }
            case START_LINK, END_LINK -> {
                long t = time(buf, def);
                PajeType type = type(buf, def, PajeType.Kind.LINK);
                PajeContainer c = container(buf, def, def.index(Field.CONTAINER));
                boolean start = kind == PajeEventKind.START_LINK;
                PajeContainer other = container(buf, def, def.index(start ? Field.START_CONTAINER
                        : Field.END_CONTAINER));
                String value = str(buf, def, Field.VALUE, null);
                String key = str(buf, def, def.index(Field.KEY));
                out.link(type, key, start, t, c, other, value, line);
            }
            default -> throw new IllegalStateException(kind.toString());
        }
        tally.kindCounts[kind.ordinal()]++;
    }
}
