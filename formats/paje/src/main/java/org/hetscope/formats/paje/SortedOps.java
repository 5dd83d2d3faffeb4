package org.hetscope.formats.paje;

/** Operations of one (container, type) coming in time order, one at a time: from memory, or from a spill run. */
interface SortedOps {
    /** Moves to the next operation; false at the end. */
    boolean next();

    long time();

    long line();

    byte op();

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
