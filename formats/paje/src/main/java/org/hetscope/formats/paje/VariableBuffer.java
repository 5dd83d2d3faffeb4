package org.hetscope.formats.paje;

import java.util.ArrayList;
import java.util.List;

/**
 * The set/add/sub operations of one (container, variable type), replayed in time order at the end; past the
 * reader's budget they go to the {@link BufferSpill} as sorted runs, as states do.
 */
final class VariableBuffer {
    static final byte SET = 0;
    static final byte ADD = 1;
    static final byte SUB = 2;

    long[] time = new long[16];
    long[] line = new long[16];
    byte[] op = new byte[16];
    double[] value = new double[16];
    int n;
    private boolean sorted = true;
    /** Runs of this buffer in the spill file, oldest first; empty while nothing was spilled. */
    final List<BufferSpill.Run> runs = new ArrayList<>(0);
    /** Buffers of blocks decoded on other threads, to come after this one's operations, and their line bases. */
    private List<VariableBuffer> parts;
    private List<Long> partBases;
    /** The replay order, once {@link #prepare} computed it. */
    private int[] order;

    /** Takes a block's buffer as it is, to be gathered into this one when needed; its lines count from lineBase. */
    void adopt(VariableBuffer part, long lineBase) {
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
            for (VariableBuffer p : parts) {
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

    /** Heap an operation takes here (its columns, with their growth slack). */
    static final long BYTES = 40;

    /** Adds the operations of another buffer, whose line numbers count from {@code lineBase}. */
    void append(VariableBuffer o, long lineBase) {
        if (o.n == 0) {
            return;
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
        n += o.n;
    }

    private void grow(int cap) {
        time = java.util.Arrays.copyOf(time, cap);
        line = java.util.Arrays.copyOf(line, cap);
        op = java.util.Arrays.copyOf(op, cap);
        value = java.util.Arrays.copyOf(value, cap);
    }

    void add(long t, long lineNo, byte o, double v) {
        if (parts != null) {
            gather();
        }
        if (n == time.length) {
            grow(n * 2);
        }
        if (n > 0 && t < time[n - 1]) {
            sorted = false;
        }
        time[n] = t;
        line[n] = lineNo;
        op[n] = o;
        value[n] = v;
        n++;
    }

    /** Forgets the operations (they went to a spill run) and gives back the arrays that held them. */
    void clear() {
        time = new long[16];
        line = new long[16];
        op = new byte[16];
        value = new double[16];
        n = 0;
        sorted = true;
        order = null;
    }

    int[] order() {
        gather();
        return order != null && order.length == n ? order : TimeOrder.of(time, n, sorted);
    }

    Cursor cursor() {
        return new Cursor(this);
    }

    /** Operations of one (container, variable type) in replay order. */
    interface Ops extends SortedOps {
        double value();
    }

    /** Spill runs and memory merged. */
    static final class Merge extends SortedOps.Merge<Ops> implements Ops {
        Merge(Ops[] parts) {
            super(parts);
        }

        @Override
        public double value() {
            return current.value();
        }
    }

    /** The operations still in memory, in time order. */
    static final class Cursor extends SortedOps.InMemory implements Ops {
        private final double[] value;

        Cursor(VariableBuffer b) {
            super(b.time, b.line, b.op, b.order(), b.n);
            this.value = b.value;
        }

        @Override
        public double value() {
            return value[i];
        }
    }
}
