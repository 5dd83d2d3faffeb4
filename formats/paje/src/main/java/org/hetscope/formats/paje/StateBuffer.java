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
    /** Buffers of blocks decoded on other threads, to come after this one's operations, and their line bases. */
    private List<StateBuffer> parts;
    private List<Long> partBases;
    /** The replay order, once {@link #prepare} computed it. */
    private int[] order;

    /** Takes a block's buffer as it is, to be gathered into this one when needed; its lines count from lineBase. */
    void adopt(StateBuffer part, long lineBase) {
        if (parts == null) {
            parts = new ArrayList<>();
            partBases = new ArrayList<>();
        }
        parts.add(part);
        partBases.add(lineBase);
    }

    /** Operations held, the adopted ones included. */
    int size() {
        int total = n;
        if (parts != null) {
            for (StateBuffer p : parts) {
                total += p.n;
            }
        }
        return total;
    }

    /** Moves the operations of the adopted buffers into this one, in line order. */
    void gather() {
        if (parts == null) {
            return;
        }
        int total = size();
        if (total > time.length) {
            grow(total);
        }
        for (int i = 0; i < parts.size(); i++) {
            append(parts.get(i), partBases.get(i));
        }
        parts = null;
        partBases = null;
    }

    /** Gathers and sorts ahead of the replay (on any thread: the replay then only reads). */
    void prepare() {
        gather();
        order = TimeOrder.of(time, n, sorted);
    }

    /** Heap an operation takes here: its columns, and the array of its extra fields. */
    static long bytes(String[] extras) {
        return 40 + (extras == null ? 0 : 16 + 4L * extras.length);
    }

    /** Adds the operations of another buffer, whose line numbers count from {@code lineBase}. */
    void append(StateBuffer o, long lineBase) {
        if (o.n == 0) {
            return;
        }
        if (o.def != null && def == null) {
            def = new EventDefinition[time.length];
            extras = new String[time.length][];
        }
        if (n + o.n > time.length) {
            grow(Math.max(n + o.n, time.length * 2));
        }
        if (!o.sorted || (n > 0 && o.time[0] < time[n - 1])) {
            sorted = false;
        }
        System.arraycopy(o.time, 0, time, n, o.n);
        for (int k = 0; k < o.n; k++) {
            line[n + k] = o.line[k] + lineBase;
        }
        System.arraycopy(o.op, 0, op, n, o.n);
        System.arraycopy(o.value, 0, value, n, o.n);
        if (o.def != null) {
            System.arraycopy(o.def, 0, def, n, o.n);
            System.arraycopy(o.extras, 0, extras, n, o.n);
        }
        n += o.n;
    }

    private void grow(int cap) {
        time = java.util.Arrays.copyOf(time, cap);
        line = java.util.Arrays.copyOf(line, cap);
        op = java.util.Arrays.copyOf(op, cap);
        value = java.util.Arrays.copyOf(value, cap);
        if (def != null) {
            def = java.util.Arrays.copyOf(def, cap);
            extras = java.util.Arrays.copyOf(extras, cap);
        }
    }

    void add(long t, long lineNo, byte o, PajeValue v, EventDefinition d, String[] x) {
        if (parts != null) {
            gather();
        }
        if (n > 0 && t < time[n - 1]) {
            sorted = false;
        }
        put(n, t, lineNo, o, v, d, x);
        n++;
    }

    /** Stores an operation at {@code at} (also how the replay keeps the open states of its stack). */
    void put(int at, long t, long lineNo, byte o, PajeValue v, EventDefinition d, String[] x) {
        if (at >= time.length) {
            grow(Math.max(at + 1, time.length * 2));
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
        order = null;
    }

    int[] order() {
        gather();
        return order != null && order.length == n ? order : TimeOrder.of(time, n, sorted);
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
