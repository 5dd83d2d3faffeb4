package org.hetscope.formats.paje.starpu;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hetscope.formats.paje.SpillFile;

/**
 * Records of a fixed number of longs that the StarPU import needs sorted by their leading columns once the trace is
 * read (residencies by block, node and start; task executions by JobId; transfers by block). Past a budget, the
 * records held in memory are sorted and written to a temporary file as one run; reading merges the runs with what
 * is left in memory, so any number of records needs at most one budget of heap. Records with equal keys come out
 * in the order they were added.
 */
final class SortedLongRecords implements Closeable {
    private final String what;
    private final int width;
    private final int keys;
    private final int budget;
    private long[] memory;
    private int n;
    /** The order of the records in memory once sorted; dropped when a record is added. */
    private int[] sorted;
    /** Whether the records in memory came in key order (events of a time-ordered file do): no sort then. */
    private boolean inOrder = true;
    private final List<long[]> runs = new ArrayList<>();
    private SpillFile file;

    /**
     * @param what   what the records are, for error messages
     * @param width  longs per record
     * @param keys   how many leading columns order the records
     * @param budget records held in memory before they go to a run
     */
    SortedLongRecords(String what, int width, int keys, long budget) {
        this.what = what;
        this.width = width;
        this.keys = keys;
        this.budget = (int) Math.max(1, Math.min(budget, (Integer.MAX_VALUE - 8) / width));
        this.memory = new long[width * (int) Math.min(this.budget, 256)];
    }

    /** Budget for records of {@code width} longs: a twentieth of the heap, or the tests' hetscope.starpu.spillEvery. */
    static long budget(int width) {
        return Long.getLong("hetscope.starpu.spillEvery",
                Math.max(1024, Runtime.getRuntime().maxMemory() / 20 / (8L * width + 8)));
    }

    /** Adds the first {@code width} values of {@code record}. */
    void add(long... record) {
        if (n == budget) {
            spill();
        }
        if ((n + 1) * width > memory.length) {
            int cap = (int) Math.min((long) budget * width, memory.length + (long) (memory.length >> 1) + width);
            memory = Arrays.copyOf(memory, cap);
        }
        sorted = null;
        System.arraycopy(record, 0, memory, n * width, width);
        if (inOrder && n > 0 && compare(memory, (n - 1) * width, memory, n * width) > 0) {
            inOrder = false;
        }
        n++;
    }

    /** How many records were added. */
    long size() {
        long total = n;
        for (long[] r : runs) {
            total += r[1];
        }
        return total;
    }

    private int compare(long[] a, int ia, long[] b, int ib) {
        // The first key that differs decides. Written without a branch on each key's result: whether first keys
        // tie changes partway through a file, and each change made the JIT throw away and recompile every caller.
        int c = 0;
        for (int k = keys - 1; k >= 0; k--) {
            int d = Long.compare(a[ia + k], b[ib + k]);
            int differs = (d | -d) >> 31;
            c = d & differs | c & ~differs;
        }
        return c;
    }

    /** Sorts the records in memory now, so that the next cursor starts at once. */
    void sort() {
        if (sorted == null) {
            sorted = order();
        }
    }

    /** Indices of the records in memory in key order, stable. */
    private int[] order() {
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        if (!inOrder) {
            mergeSort(idx, new int[n], 0, n);
        }
        return idx;
    }

    private void mergeSort(int[] a, int[] tmp, int from, int to) {
        if (to - from < 24) {
            for (int i = from + 1; i < to; i++) {
                int v = a[i];
                int j = i - 1;
                while (j >= from && compare(memory, a[j] * width, memory, v * width) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(a, tmp, from, mid);
        mergeSort(a, tmp, mid, to);
        if (compare(memory, a[mid - 1] * width, memory, a[mid] * width) <= 0) {
            return;
        }
        System.arraycopy(a, from, tmp, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || (i < mid && compare(memory, tmp[i] * width, memory, tmp[j] * width) <= 0)) {
                a[k] = tmp[i++];
            } else {
                a[k] = tmp[j++];
            }
        }
    }

    private void spill() {
        if (file == null) {
            try {
                file = SpillFile.create("hetscope-starpu-" + what.replace(' ', '-') + "-", "the StarPU " + what);
            } catch (IOException e) {
                throw new UncheckedIOException(e.getMessage(), e);
            }
        }
        try {
            int[] idx = order();
            runs.add(new long[] {file.size(), n});
            for (int i : idx) {
                for (int c = 0; c < width; c++) {
                    file.out().writeLong(memory[i * width + c]);
                }
            }
            n = 0;
            sorted = null;
            inOrder = true;
        } catch (IOException e) {
            throw file.writeError(e);
        }
    }

    /**
     * The records in key order; equal keys in the order added. Each call reads them again from the start; records
     * are added before the first call.
     */
    Cursor cursor() {
        Part[] parts = new Part[runs.size() + 1];
        for (int r = 0; r < runs.size(); r++) {
            parts[r] = new RunPart(runs.get(r)[0], runs.get(r)[1]);
        }
        sort();
        parts[runs.size()] = new MemoryPart(sorted);
        return new Cursor(parts);
    }

    @Override
    public void close() throws IOException {
        if (file != null) {
            try {
                file.close();
            } finally {
                file = null;
            }
        }
    }

    /** One sorted source: the current record is {@code rec[at .. at + width)}. */
    private abstract static class Part {
        long[] rec;
        int at;

        abstract boolean advance();
    }

    private final class MemoryPart extends Part {
        private final int[] idx;
        private int k = -1;

        MemoryPart(int[] idx) {
            this.idx = idx;
            this.rec = memory;
        }

        @Override
        boolean advance() {
            if (++k >= idx.length) {
                return false;
            }
            at = idx[k] * width;
            return true;
        }
    }

    /** A run on disk, read with positioned reads so that runs can be read side by side. */
    private final class RunPart extends Part {
        private final SpillFile.Input in;
        private long left;

        RunPart(long offset, long count) {
            this.in = file.read(offset);
            this.left = count;
            this.rec = new long[width];
        }

        @Override
        boolean advance() {
            if (left == 0) {
                return false;
            }
            left--;
            ByteBuffer buf = in.need(8 * width);
            for (int c = 0; c < width; c++) {
                rec[c] = buf.getLong();
            }
            return true;
        }
    }

    /** Walks the merged records; the runs were written first, so they win ties over later runs and memory. */
    final class Cursor {
        private final Part[] parts;
        private final boolean[] live;
        private int current = -1;
        private boolean started;

        private Cursor(Part[] parts) {
            this.parts = parts;
            this.live = new boolean[parts.length];
        }

        /** Moves to the next record; false at the end. */
        boolean next() {
            if (!started) {
                started = true;
                for (int p = 0; p < parts.length; p++) {
                    live[p] = parts[p].advance();
                }
            } else if (current >= 0) {
                live[current] = parts[current].advance();
            }
            current = -1;
            for (int p = 0; p < parts.length; p++) {
                if (live[p] && (current < 0
                        || compare(parts[p].rec, parts[p].at, parts[current].rec, parts[current].at) < 0)) {
                    current = p;
                }
            }
            return current >= 0;
        }

        /** Column {@code c} of the current record. */
        long get(int c) {
            Part part = parts[current];
            return part.rec[part.at + c];
        }
    }
}
