package org.hetscope.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The open begins of begin/end pairs, one stack per lane (a thread, an OTF2 location): an end closes the innermost
 * open begin of its lane. How the two ways a pair can be broken are counted is decided here, for every reader: an
 * end with no open begin is skipped and counted as {@link SkipReason#UNMATCHED_END}; a begin still open when its
 * lane or the trace ends is closed there by the reader and counted as {@link SkipReason#UNENDED_SLICE}. Neither is
 * damage: traces recorded into a ring buffer start and stop inside slices.
 *
 * @param <K> the lane key
 * @param <T> what a reader keeps of an open begin
 */
public final class SliceStack<K, T> {
    /** Closes an open begin: {@code depth} is the number of begins still open below it on its lane. */
    public interface Closer<K, T> {
        void close(K lane, T open, int depth);
    }

    private final Map<K, ArrayDeque<T>> lanes = new HashMap<>();
    private final SkipTally skips;
    private final String beginDetail;
    private final String endDetail;

    /**
     * @param skips where the broken pairs are counted
     * @param beginDetail the skip detail of a begin never ended, e.g. {@code "'B' event"}
     * @param endDetail the skip detail of an end without its begin, e.g. {@code "'E' event"}
     */
    public SliceStack(SkipTally skips, String beginDetail, String endDetail) {
        this.skips = skips;
        this.beginDetail = beginDetail;
        this.endDetail = endDetail;
    }

    private ArrayDeque<T> lane(K lane, boolean create) {
        ArrayDeque<T> s = lanes.get(lane);
        if (s == null && create) {
            s = new ArrayDeque<>();
            lanes.put(lane, s);
        }
        return s;
    }

    /** Opens {@code open} on {@code lane}, inside what is open there. */
    public void begin(K lane, T open) {
        lane(lane, true).push(open);
    }

    /** The innermost open begin of {@code lane}, or null: for ends that must name what they close (OTF2 regions). */
    public T innermost(K lane) {
        ArrayDeque<T> s = lane(lane, false);
        return s == null ? null : s.peek();
    }

    /** Closes the innermost open begin of {@code lane} and returns it, or returns null when none is open. */
    public T end(K lane) {
        return lane(lane, true).poll(); // the lane is kept even so: closeAll goes through lanes in the map's order
    }

    /**
     * {@link #end}, and forgets the lane once nothing is open on it: for lanes that come and go, such as the id of
     * an operation or a thread that holds one system call at a time, which would otherwise pile up. A lane's place
     * in {@link #closeAll}'s order is then that of its latest opening.
     */
    public T endAndForget(K lane) {
        ArrayDeque<T> s = lane(lane, false);
        if (s == null) {
            return null;
        }
        T open = s.poll();
        if (s.isEmpty()) {
            lanes.remove(lane);
        }
        return open;
    }

    /** How many begins are open on {@code lane}: the depth of the next slice opened there. */
    public int depth(K lane) {
        ArrayDeque<T> s = lane(lane, false);
        return s == null ? 0 : s.size();
    }

    /** Counts an end that has no begin to close (or not the one it names): it is skipped. */
    public void unmatchedEnd(String where) {
        skips.add(SkipReason.UNMATCHED_END, endDetail, where);
    }

    /** Counts {@code count} begins closed at the end of their lane or of the trace. */
    public void unended(String where, long count) {
        skips.add(SkipReason.UNENDED_SLICE, beginDetail, where, count);
    }

    /** Closes what is open on {@code lane}, innermost first, counting each as unended at {@code where}. */
    public void close(K lane, Closer<K, T> closer, String where) {
        ArrayDeque<T> s = lanes.remove(lane);
        if (s == null) {
            return;
        }
        unended(where, s.size());
        while (!s.isEmpty()) {
            T open = s.pop();
            closer.close(lane, open, s.size());
        }
    }

    /** {@link #close} for every lane, in the map's order. */
    public void closeAll(Closer<K, T> closer, String where) {
        for (K lane : new ArrayList<>(lanes.keySet())) {
            close(lane, closer, where);
        }
    }

    /**
     * Drops every open begin, counted as {@link SkipReason#UNENDED_INTERVAL} at {@code where}: for a reader whose
     * slices are built from their end events (the ROCm profiler's), so a begin alone is not stored.
     *
     * @return how many were dropped
     */
    public long discardAll(String where) {
        long n = 0;
        for (ArrayDeque<T> s : lanes.values()) {
            n += s.size();
        }
        lanes.clear();
        skips.add(SkipReason.UNENDED_INTERVAL, beginDetail, where, n);
        return n;
    }

    /**
     * Takes every open begin out, not counted, for a reader that closes them in an order of its own (Chrome: in
     * file order) and counts them with {@link #unended}.
     */
    public List<T> drain() {
        List<T> open = new ArrayList<>();
        lanes.values().forEach(open::addAll);
        lanes.clear();
        return open;
    }
}
