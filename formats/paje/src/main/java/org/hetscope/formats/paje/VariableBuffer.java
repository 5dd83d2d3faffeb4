package org.hetscope.formats.paje;

/**
 * The set/add/sub operations of one (container, variable type), replayed in time order at the end; past the
 * reader's budget they go to the {@link BufferSpill} as sorted runs, as states do.
 */
final class VariableBuffer extends OperationBuffer<VariableBuffer> {
    static final byte SET = 0;
    static final byte ADD = 1;
    static final byte SUB = 2;

    double[] value;

    VariableBuffer(int capacity) {
        super(capacity);
        value = new double[capacity];
    }

    /** Heap an operation takes here (its columns, with their growth slack). */
    static final long BYTES = 40;

    @Override
    void growValues(int cap) {
        value = java.util.Arrays.copyOf(value, cap);
    }

    @Override
    void copyValues(VariableBuffer from, int at) {
        System.arraycopy(from.value, 0, value, at, from.n);
    }

    @Override
    void clearValues() {
        value = new double[INITIAL];
    }

    void add(long t, long lineNo, byte o, double v) {
        beforeAdd(t);
        time[n] = t;
        line[n] = lineNo;
        op[n] = o;
        value[n] = v;
        n++;
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
