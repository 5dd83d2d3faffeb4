package org.hetscope.formats.paje;

import org.hetscope.model.SkipReason;

import java.util.ArrayList;
import java.util.List;

/**
 * The operations of one block of a Paje file, decoded on a thread of its own: what must reach the listener in
 * file order (events, link ends, container destructions, problems) in line order, and the state and variable
 * operations per (container, type). Line numbers count from the block's first line; the reader adds the lines
 * before the block when it applies the log.
 */
final class BlockLog extends BufferingOperations {
    /** One end of a link, to be matched in file order. */
    record LinkEnd(PajeType type, String key, boolean start, long time, PajeContainer container,
                   PajeContainer other, String value, long line) {}

    record Destroy(PajeContainer container, long time, long line) {}

    record Problem(SkipReason reason, String what, long line, String detail) {}

    /** File offsets of the lines this block holds: those that start in [from, to). */
    final long from;
    final long to;
    /** The dictionary's epoch before the block was decoded: the log holds only if it is the same when applied. */
    final long epoch;
    /** Events, link ends, destructions and problems, in line order. */
    final List<Object> inOrder = new ArrayList<>();
    /** Per container index, per type slot: a {@link StateBuffer} or a {@link VariableBuffer}. */
    Object[][] buffers = new Object[0][];
    /** Lines decoded. */
    long lines;
    /** Offset of the first line left to the reader (a header or definition line), or -1: all were decoded. */
    long stop = -1;
    LineDecoder.Tally tally;

    /** Sizes of the buffers of the last block a thread decoded. */
    private final Sizes sizes;

    /**
     * How many operations each (container, type) buffer held in the last block a thread decoded: the next block's
     * buffers start that large (blocks of one trace look alike), instead of growing to it by copies.
     */
    static final class Sizes {
        private int[][] counts = new int[0][];

        private int capacity(int container, int slot) {
            int[] row = container < counts.length ? counts[container] : null;
            int n = row != null && slot < row.length ? row[slot] : 0;
            return Math.max(OperationBuffer.INITIAL, n + (n >> 3));
        }
    }

    BlockLog(long from, long to, long epoch, Sizes sizes) {
        this.from = from;
        this.to = to;
        this.epoch = epoch;
        this.sizes = sizes;
    }

    /** Remembers the sizes of this block's buffers for the next block of the same thread. */
    void recordSizes() {
        int[][] counts = new int[buffers.length][];
        for (int c = 0; c < buffers.length; c++) {
            Object[] row = buffers[c];
            if (row != null) {
                counts[c] = new int[row.length];
                for (int slot = 0; slot < row.length; slot++) {
                    if (row[slot] instanceof OperationBuffer<?> b) {
                        counts[c][slot] = b.n;
                    }
                }
            }
        }
        sizes.counts = counts;
    }

    @Override
    public void event(PajeEvent event) {
        inOrder.add(event);
    }

    @Override
    @SuppressWarnings("unchecked")
    <B extends OperationBuffer<B>> B buffer(PajeContainer c, PajeType type, java.util.function.IntFunction<B> make) {
        if (c.index >= buffers.length) {
            buffers = java.util.Arrays.copyOf(buffers, Math.max(c.index + 1, buffers.length * 2));
        }
        Object[] row = buffers[c.index];
        if (row == null || type.slot >= row.length) {
            row = row == null ? new Object[type.slot + 8] : java.util.Arrays.copyOf(row, type.slot + 8);
            buffers[c.index] = row;
        }
        if (row[type.slot] == null) {
            row[type.slot] = make.apply(sizes.capacity(c.index, type.slot));
        }
        return (B) row[type.slot];
    }

    @Override
    public void link(PajeType type, String key, boolean start, long time, PajeContainer c, PajeContainer other,
                     String value, long line) {
        inOrder.add(new LinkEnd(type, key, start, time, c, other, value, line));
    }

    @Override
    public void destroy(PajeContainer c, long time, long line) {
        inOrder.add(new Destroy(c, time, line));
    }

    @Override
    public void problem(SkipReason reason, String what, long line, String detail) {
        inOrder.add(new Problem(reason, what, line, detail));
    }
}
