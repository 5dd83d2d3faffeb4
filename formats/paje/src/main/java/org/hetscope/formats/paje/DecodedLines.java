package org.hetscope.formats.paje;

/**
 * The body lines of one chunk of a Paje file as a {@link LineDecoder} left them: per line what it is, its
 * definition, time, variable value and field texts, in line order, so that the reader only has to resolve them
 * against the types and containers it knows. Comment and blank lines have no record but count in {@link #lines}.
 * Keeps the chunk's bytes for the few texts taken from them later (header lines, damage messages).
 */
final class DecodedLines {
    /** A line of a defined event with the right number of fields. */
    static final byte EVENT = 0;
    static final byte HEADER = 1;
    static final byte NOT_EVENT = 2;
    static final byte UNDEFINED = 3;
    static final byte UNTERMINATED = 4;
    static final byte FIELD_COUNT = 5;

    byte[] buf;
    int from;
    int to;
    /** Whether the chunk ends the input: its last line may then lack a newline. */
    boolean endsFile;
    /** Lines in the chunk, counting comments, blank lines and an unterminated last line. */
    int lines;
    /** The record of the unterminated last line of the input, or -1. */
    int lastRecord = -1;

    int n;
    int[] line;
    byte[] outcome;
    int[] id;
    int[] fieldCount;
    /** The line without its indentation and line end; {@link #next}: where the following line starts. */
    int[] textStart;
    int[] textEnd;
    int[] next;
    EventDefinition[] def;
    long[] time;
    boolean[] rounded;
    double[] value;
    /** Why the time or the variable value does not parse (the reader reports it in its turn), else null. */
    String[] timeError;
    String[] valueError;
    String[][] extras;
    /**
     * Field texts of every record, from {@code stringBase[k]}, null for the time and a variable's value; a link
     * line has one more: its type text and key joined, the reader's key of pending link halves.
     */
    String[] strings;
    int[] stringBase;
    int nStrings;

    DecodedLines(byte[] buf, int from, int to, boolean endsFile, int capacity) {
        reset(buf, from, to, endsFile);
        int c = Math.max(capacity, 1);
        line = new int[c];
        outcome = new byte[c];
        id = new int[c];
        fieldCount = new int[c];
        textStart = new int[c];
        textEnd = new int[c];
        next = new int[c];
        def = new EventDefinition[c];
        time = new long[c];
        rounded = new boolean[c];
        value = new double[c];
        timeError = new String[c];
        valueError = new String[c];
        extras = new String[c][];
        stringBase = new int[c];
        strings = new String[c * 6];
    }

    /** Forgets the records and takes other bytes, keeping the arrays (they are reused chunk after chunk). */
    void reset(byte[] bytes, int start, int end, boolean last) {
        buf = bytes;
        from = start;
        to = end;
        endsFile = last;
        n = 0;
        nStrings = 0;
        lastRecord = -1;
        lines = 0;
    }

    /**
     * Appends a record and returns its index. Only what every record needs is set here; the decoder sets the
     * arrays its outcome uses (the text range for header and non-event lines, the id for damage messages, time,
     * errors and extras for events), and the reader reads no others, so reused arrays need no clearing.
     */
    int add(byte what, int lineIndex) {
        if (n == line.length) {
            grow();
        }
        int k = n++;
        line[k] = lineIndex;
        outcome[k] = what;
        stringBase[k] = nStrings;
        return k;
    }

    /** Room for {@code count} more field texts. */
    void reserveStrings(int count) {
        if (nStrings + count > strings.length) {
            strings = java.util.Arrays.copyOf(strings, Math.max(strings.length * 2, nStrings + count));
        }
    }

    private void grow() {
        int c = line.length * 2;
        line = java.util.Arrays.copyOf(line, c);
        outcome = java.util.Arrays.copyOf(outcome, c);
        id = java.util.Arrays.copyOf(id, c);
        fieldCount = java.util.Arrays.copyOf(fieldCount, c);
        textStart = java.util.Arrays.copyOf(textStart, c);
        textEnd = java.util.Arrays.copyOf(textEnd, c);
        next = java.util.Arrays.copyOf(next, c);
        def = java.util.Arrays.copyOf(def, c);
        time = java.util.Arrays.copyOf(time, c);
        rounded = java.util.Arrays.copyOf(rounded, c);
        value = java.util.Arrays.copyOf(value, c);
        timeError = java.util.Arrays.copyOf(timeError, c);
        valueError = java.util.Arrays.copyOf(valueError, c);
        extras = java.util.Arrays.copyOf(extras, c);
        stringBase = java.util.Arrays.copyOf(stringBase, c);
    }

    /** A field text of record {@code k}. */
    String field(int k, int field) {
        return strings[stringBase[k] + field];
    }

    /** The text of a record's line (without indentation and line end). */
    String text(int k) {
        return new String(buf, textStart[k], textEnd[k] - textStart[k], java.nio.charset.StandardCharsets.UTF_8);
    }
}
