package org.hetscope.formats.paje;

/**
 * The state operations of one (container, state type), kept compact until the replay at the end of the file. When
 * the reader's buffers outgrow their budget, what a buffer holds goes to the {@link BufferSpill} as one sorted run
 * and the buffer starts empty again; the replay then merges the runs with what is left here.
 */
final class StateBuffer extends OperationBuffer<StateBuffer> {
    static final byte SET = 0;
    static final byte PUSH = 1;
    static final byte POP = 2;
    static final byte RESET = 3;

    PajeValue[] value;
    /** The definition and extra fields of each operation; null until an operation has extra fields. */
    EventDefinition[] def;
    String[][] extras;

    StateBuffer() {
        this(INITIAL);
    }

    StateBuffer(int capacity) {
        super(capacity);
        value = new PajeValue[capacity];
    }

    /** Heap an operation takes here: its columns, and the array of its extra fields. */
    static long bytes(String[] extras) {
        return 40 + (extras == null ? 0 : 16 + 4L * extras.length);
    }

    @Override
    void growValues(int cap) {
        value = java.util.Arrays.copyOf(value, cap);
        if (def != null) {
            def = java.util.Arrays.copyOf(def, cap);
            extras = java.util.Arrays.copyOf(extras, cap);
        }
    }

    @Override
    void copyValues(StateBuffer from, int at) {
        System.arraycopy(from.value, 0, value, at, from.n);
        if (from.def != null) {
            extrasColumns();
            System.arraycopy(from.def, 0, def, at, from.n);
            System.arraycopy(from.extras, 0, extras, at, from.n);
        }
    }

    @Override
    void clearValues() {
        value = new PajeValue[INITIAL];
        def = null;
        extras = null;
    }

    /** Makes the definition and extra-field columns, as long as the others, unless they are there. */
    private void extrasColumns() {
        if (def == null) {
            def = new EventDefinition[time.length];
            extras = new String[time.length][];
        }
    }

    void add(long t, long lineNo, byte o, PajeValue v, EventDefinition d, String[] x) {
        beforeAdd(t);
        put(n, t, lineNo, o, v, d, x);
        n++;
    }

    /** Stores an operation at {@code at} (also how the replay keeps the open states of its stack). */
    void put(int at, long t, long lineNo, byte o, PajeValue v, EventDefinition d, String[] x) {
        if (at >= time.length) {
            grow(Math.max(at + 1, time.length * 2));
        }
        if (x != null) {
            extrasColumns();
        }
        time[at] = t;
        line[at] = lineNo;
        op[at] = o;
        value[at] = v;
        if (def != null) {
            def[at] = d;
            extras[at] = x;
        }
    }

    /** This buffer's operations in replay order: (time, arrival), stable. */
    Cursor cursor() {
        return new Cursor(this);
    }

    /** Operations of one (container, state type) in replay order. */
    interface Ops extends SortedOps {
        /** Copies the current operation into {@code to} at {@code at}. */
        void copyTo(StateBuffer to, int at);
    }

    /** Spill runs and memory merged. */
    static final class Merge extends SortedOps.Merge<Ops> implements Ops {
        Merge(Ops[] parts) {
            super(parts);
        }

        @Override
        public void copyTo(StateBuffer to, int at) {
            current.copyTo(to, at);
        }
    }

    /** The operations still in memory, in time order. */
    static final class Cursor extends SortedOps.InMemory implements Ops {
        private final StateBuffer b;

        Cursor(StateBuffer b) {
            super(b.time, b.line, b.op, b.order(), b.n);
            this.b = b;
        }

        @Override
        public void copyTo(StateBuffer to, int at) {
            to.put(at, b.time[i], b.line[i], b.op[i], b.value[i], b.def == null ? null : b.def[i],
                    b.extras == null ? null : b.extras[i]);
        }
    }
}
