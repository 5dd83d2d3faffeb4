package org.hetscope.formats.paje;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The columns that the state and variable operations of one (container, type) share: time, line and operation, in
 * the order they were added, and what comes before and after them: the runs already spilled, and the buffers of
 * blocks decoded on other threads, adopted as they are and gathered here when needed. Subclasses keep their value
 * columns.
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
    /** Buffers of blocks decoded on other threads, to come after this one's operations, and their line bases. */
    private List<B> parts;
    private List<Long> partBases;
    /** The replay order, once {@link #prepare} computed it; null again when operations are added. */
    private int[] order;

    OperationBuffer(int capacity) {
        time = new long[capacity];
        line = new long[capacity];
        op = new byte[capacity];
    }

    /** Makes the value columns {@code cap} long. */
    abstract void growValues(int cap);

    /** Copies the value columns of {@code from}'s operations to this buffer's positions from {@code at}. */
    abstract void copyValues(B from, int at);

    /** Starts the value columns empty again. */
    abstract void clearValues();

    final void grow(int cap) {
        time = Arrays.copyOf(time, cap);
        line = Arrays.copyOf(line, cap);
        op = Arrays.copyOf(op, cap);
        growValues(cap);
    }

    /** Before an operation with time {@code t} is added at {@link #n}: the adopted buffers first, and room. */
    final void beforeAdd(long t) {
        if (parts != null) {
            gather();
        }
        if (n == time.length) {
            grow(n * 2);
        }
        if (n > 0 && t < time[n - 1]) {
            sorted = false;
        }
        order = null;
    }

    /** Takes a block's buffer as it is, to be gathered into this one when needed; its lines count from lineBase. */
    final void adopt(B part, long lineBase) {
        if (parts == null) {
            parts = new ArrayList<>();
            partBases = new ArrayList<>();
        }
        parts.add(part);
        partBases.add(lineBase);
    }

    /** Operations held, the adopted ones included. */
    final int size() {
        int total = n;
        if (parts != null) {
            for (B p : parts) {
                total += p.n;
            }
        }
        return total;
    }

    /** Moves the operations of the adopted buffers into this one, in line order. */
    final void gather() {
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

    /** Adds the operations of another buffer, whose line numbers count from {@code lineBase}. */
    final void append(B o, long lineBase) {
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
        copyValues(o, n);
        n += o.n;
        order = null;
    }

    /** Gathers and sorts ahead of the replay (on any thread: the replay then only reads). */
    final void prepare() {
        gather();
        order = TimeOrder.of(time, n, sorted);
    }

    /** Indices of the operations in replay order: (time, arrival), stable. */
    final int[] order() {
        gather();
        return order != null ? order : TimeOrder.of(time, n, sorted);
    }

    /** Forgets the operations (they went to a spill run) and gives back the arrays that held them. */
    final void clear() {
        time = new long[INITIAL];
        line = new long[INITIAL];
        op = new byte[INITIAL];
        clearValues();
        n = 0;
        sorted = true;
        order = null;
    }
}
