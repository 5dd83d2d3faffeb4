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

    void add(long t, long lineNo, byte o, double v) {
        if (n == time.length) {
            int cap = n * 2;
            time = java.util.Arrays.copyOf(time, cap);
            line = java.util.Arrays.copyOf(line, cap);
            op = java.util.Arrays.copyOf(op, cap);
            value = java.util.Arrays.copyOf(value, cap);
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
    }

    int[] order() {
        return TimeOrder.of(time, n, sorted);
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
