package org.hetscope.formats.paje;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The columns that the state and variable operations of one (container, type) share: time, line and operation, in
 * the order they were added, and the runs already spilled. Subclasses keep their value columns.
 */
abstract class OperationBuffer<B extends OperationBuffer<B>> {
    /** Operations a new buffer has room for. */
    static final int INITIAL = 16;
    long[] time;
    long[] line;
    byte[] op;
    int n;
    boolean sorted = true;
    /** Runs of this buffer in the spill file, oldest first; empty while nothing was spilled. */
    final List<BufferSpill.Run> runs = new ArrayList<>(0);

    OperationBuffer(int capacity) {
        time = new long[capacity];
        line = new long[capacity];
        op = new byte[capacity];
    }

    /** Makes the value columns {@code cap} long. */
    abstract void growValues(int cap);

    /** Starts the value columns empty again. */
    abstract void clearValues();

    final void grow(int cap) {
        time = Arrays.copyOf(time, cap);
        line = Arrays.copyOf(line, cap);
        op = Arrays.copyOf(op, cap);
        growValues(cap);
    }

    /** Before an operation with time {@code t} is added at {@link #n}: room, and whether time order still holds. */
    final void beforeAdd(long t) {
        if (n == time.length) {
            grow(n * 2);
        }
        if (n > 0 && t < time[n - 1]) {
            sorted = false;
        }
    }

    /** Operations held. */
    final int size() {
        return n;
    }

    /** Indices of the operations in replay order: (time, arrival), stable. */
    final int[] order() {
        return TimeOrder.of(time, n, sorted);
    }

    /** Forgets the operations (they went to a spill run) and gives back the arrays that held them. */
    final void clear() {
        time = new long[INITIAL];
        line = new long[INITIAL];
        op = new byte[INITIAL];
        clearValues();
        n = 0;
        sorted = true;
    }
}
