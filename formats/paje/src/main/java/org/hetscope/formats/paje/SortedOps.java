package org.hetscope.formats.paje;

/** Operations of one (container, type) coming in time order, one at a time: from memory, or from a spill run. */
interface SortedOps {
    /** Moves to the next operation; false at the end. */
    boolean next();

    long time();

    long line();

    byte op();

    /** A buffer's operations still in memory, visited in their sort order (the buffer does not change meanwhile). */
    abstract class InMemory implements SortedOps {
        private final long[] time;
        private final long[] line;
        private final byte[] op;
        private final int[] order;
        private final int n;
        private int k = -1;
        /** Index of the current operation in the buffer's columns. */
        protected int i;

        protected InMemory(long[] time, long[] line, byte[] op, int[] order, int n) {
            this.time = time;
            this.line = line;
            this.op = op;
            this.order = order;
            this.n = n;
        }

        @Override
        public boolean next() {
            if (++k >= n) {
                return false;
            }
            i = order[k];
            return true;
        }

        @Override
        public long time() {
            return time[i];
        }

        @Override
        public long line() {
            return line[i];
        }

        @Override
        public byte op() {
            return op[i];
        }
    }

    /**
     * Several sources in time order merged into one: on equal times the earlier source first (spill runs are in
     * arrival order and memory comes last), so the merge is the stable time order of the whole buffer.
     */
    abstract class Merge<T extends SortedOps> implements SortedOps {
        private final T[] parts;
        private final boolean[] live;
        private int chosen = -1;
        /** The source that holds the current operation. */
        protected T current;

        protected Merge(T[] parts) {
            this.parts = parts;
            this.live = new boolean[parts.length];
            for (int p = 0; p < parts.length; p++) {
                live[p] = parts[p].next();
            }
        }

        @Override
        public boolean next() {
            if (chosen >= 0) {
                live[chosen] = parts[chosen].next();
            }
            chosen = -1;
            for (int p = 0; p < parts.length; p++) {
                if (live[p] && (chosen < 0 || parts[p].time() < parts[chosen].time())) {
                    chosen = p;
                }
            }
            current = chosen < 0 ? null : parts[chosen];
            return current != null;
        }

        @Override
        public long time() {
            return current.time();
        }

        @Override
        public long line() {
            return current.line();
        }

        @Override
        public byte op() {
            return current.op();
        }
    }
}
