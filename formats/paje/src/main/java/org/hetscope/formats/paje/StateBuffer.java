package org.hetscope.formats.paje;

import java.util.ArrayList;
import java.util.List;

/**
 * The state operations of one (container, state type), kept compact until the replay at the end of the file. When
 * the reader's buffers outgrow their budget, what a buffer holds goes to the {@link BufferSpill} as one sorted run
 * and the buffer starts empty again; the replay then merges the runs with what is left here.
 */
final class StateBuffer {
    static final byte SET = 0;
    static final byte PUSH = 1;
    static final byte POP = 2;
    static final byte RESET = 3;

    long[] time = new long[16];
    long[] line = new long[16];
    byte[] op = new byte[16];
    PajeValue[] value = new PajeValue[16];
    EventDefinition[] def;
    String[][] extras;
    int n;
    private boolean sorted = true;
    /** Runs of this buffer in the spill file, oldest first; empty while nothing was spilled. */
    final List<BufferSpill.Run> runs = new ArrayList<>(0);

    void add(long t, long lineNo, byte o, PajeValue v, EventDefinition d, String[] x) {
        if (n > 0 && t < time[n - 1]) {
            sorted = false;
        }
        put(n, t, lineNo, o, v, d, x);
        n++;
    }

    /** Stores an operation at {@code at} (also how the replay keeps the open states of its stack). */
    void put(int at, long t, long lineNo, byte o, PajeValue v, EventDefinition d, String[] x) {
        if (at >= time.length) {
            int cap = Math.max(at + 1, time.length * 2);
            time = java.util.Arrays.copyOf(time, cap);
            line = java.util.Arrays.copyOf(line, cap);
            op = java.util.Arrays.copyOf(op, cap);
            value = java.util.Arrays.copyOf(value, cap);
            if (def != null) {
                def = java.util.Arrays.copyOf(def, cap);
                extras = java.util.Arrays.copyOf(extras, cap);
            }
        }
        if (x != null && def == null) {
            def = new EventDefinition[time.length];
            extras = new String[time.length][];
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

    /** Forgets the operations (they went to a spill run) and gives back the arrays that held them. */
    void clear() {
        time = new long[16];
        line = new long[16];
        op = new byte[16];
        value = new PajeValue[16];
        def = null;
        extras = null;
        n = 0;
        sorted = true;
    }

    int[] order() {
        return TimeOrder.of(time, n, sorted);
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
