package org.hetscope.formats.ctf.mapping;

/**
 * The heap blocks of one process that are allocated and not yet freed, keyed by pointer: size, allocation time and
 * lane of each. An open-addressing table on primitive arrays, because a libc trace looks a pointer up on every
 * malloc and free (millions per second of trace) and boxed keys made that the mapper's main cost.
 * Pointer 0 is never stored (it marks a free slot; the mapper ignores null pointers anyway).
 */
final class LiveBlocks {
    private long[] keys = new long[1024];
    private long[] sizes = new long[1024];
    private long[] starts = new long[1024];
    private int[] lanes = new int[1024];
    private int count;
    /** Sum of the live blocks' sizes: what a heap counter shows. */
    private long bytes;

    // Result of the last remove(): valid until the next call.
    long removedSize;
    long removedStart;
    int removedLane;

    int size() {
        return count;
    }

    /** Bytes in the live blocks. */
    long bytes() {
        return bytes;
    }

    /** Stores a block; if the pointer was live already, returns true and leaves the old one in removed*. */
    boolean put(long ptr, long size, long start, int lane) {
        if ((count + 1) * 4L > keys.length * 3L) {
            grow();
        }
        int mask = keys.length - 1;
        int i = slot(ptr, keys.length);
        boolean replaced = false;
        for (long k = keys[i]; k != 0; k = keys[i]) {
            if (k == ptr) {
                removedSize = sizes[i];
                removedStart = starts[i];
                removedLane = lanes[i];
                replaced = true;
                break;
            }
            i = (i + 1) & mask;
        }
        if (replaced) {
            bytes -= removedSize;
        } else {
            keys[i] = ptr;
            count++;
        }
        bytes += size;
        sizes[i] = size;
        starts[i] = start;
        lanes[i] = lane;
        return replaced;
    }

    /** Removes a block; true if it was live, its values then in removed*. */
    boolean remove(long ptr) {
        int mask = keys.length - 1;
        int i = slot(ptr, keys.length);
        while (true) {
            long k = keys[i];
            if (k == 0) {
                return false;
            }
            if (k == ptr) {
                break;
            }
            i = (i + 1) & mask;
        }
        removedSize = sizes[i];
        removedStart = starts[i];
        removedLane = lanes[i];
        count--;
        bytes -= removedSize;
        // Backward-shift deletion: move later members of the probe run into the hole so lookups need no tombstones.
        int hole = i;
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            long k = keys[j];
            if (k == 0) {
                break;
            }
            int home = slot(k, keys.length);
            boolean between = hole <= j ? hole < home && home <= j : hole < home || home <= j;
            if (!between) {
                keys[hole] = k;
                sizes[hole] = sizes[j];
                starts[hole] = starts[j];
                lanes[hole] = lanes[j];
                hole = j;
            }
        }
        keys[hole] = 0;
        return true;
    }

    /** Calls back with the slot of every live block (read it with ptrAt/sizeAt/startAt/laneAt). */
    void forEachSlot(java.util.function.IntConsumer slotAction) {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != 0) {
                slotAction.accept(i);
            }
        }
    }

    long ptrAt(int slot) {
        return keys[slot];
    }

    long sizeAt(int slot) {
        return sizes[slot];
    }

    long startAt(int slot) {
        return starts[slot];
    }

    int laneAt(int slot) {
        return lanes[slot];
    }

    private void grow() {
        long[] k = keys;
        long[] s = sizes;
        long[] t = starts;
        int[] l = lanes;
        int n = k.length * 2;
        keys = new long[n];
        sizes = new long[n];
        starts = new long[n];
        lanes = new int[n];
        for (int i = 0; i < k.length; i++) {
            if (k[i] != 0) {
                int j = slot(k[i], n);
                while (keys[j] != 0) {
                    j = (j + 1) & (n - 1);
                }
                keys[j] = k[i];
                sizes[j] = s[i];
                starts[j] = t[i];
                lanes[j] = l[i];
            }
        }
    }

    private static int slot(long ptr, int capacity) {
        long h = ptr * 0x9E3779B97F4A7C15L; // Fibonacci hashing: allocators return aligned pointers, low bits are 0
        return (int) (h >>> 32) & (capacity - 1);
    }
}
