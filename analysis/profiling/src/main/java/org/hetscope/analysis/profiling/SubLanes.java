package org.hetscope.analysis.profiling;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Places overlapping intervals of one lane into sub-lanes (spec §2.1): sorted by (start, end, id), each interval
 * goes into the first sub-lane whose last interval ends no later than its start; touching intervals share a lane.
 * The lane tree ({@link LaneTree}) and the web timeline both place device slices with {@link Sweep}, so the two
 * draw the same rows.
 */
public final class SubLanes {
    /** An interval to place. */
    public record Interval(long id, long start, long end) {}

    private SubLanes() {
    }

    /** Track kinds whose slices are placed in sub-lanes; other tracks draw their slices by nesting depth. */
    public static boolean subLaned(String trackKind) {
        return "stream".equals(trackKind) || "queue".equals(trackKind) || "device".equals(trackKind);
    }

    /**
     * The sub-lane rule over intervals fed in (start, end, id) order, one lane at a time: O(log lanes) per interval
     * (free lanes in a heap by index, busy ones in a heap by end), with primitive state only.
     */
    public static final class Sweep {
        private final PriorityQueue<long[]> busy = new PriorityQueue<>(
                Comparator.<long[]>comparingLong(a -> a[0]).thenComparingLong(a -> a[1]));
        private int[] free = new int[8];
        private int freeCount;
        private int lanes;

        /** Starts a new lane: no sub-lane is in use. */
        public void reset() {
            busy.clear();
            freeCount = 0;
            lanes = 0;
        }

        /** Sub-lanes opened since the last reset. */
        public int lanes() {
            return lanes;
        }

        /** The sub-lane of the next interval; calls must come in (start, end, id) order. */
        public int place(long start, long end) {
            while (!busy.isEmpty() && busy.peek()[0] <= start) {
                pushFree((int) busy.poll()[1]);
            }
            int lane = freeCount > 0 ? popFree() : lanes++;
            busy.add(new long[] {end, lane});
            return lane;
        }

        private void pushFree(int lane) {
            if (freeCount == free.length) {
                free = Arrays.copyOf(free, freeCount * 2);
            }
            int i = freeCount++;
            free[i] = lane;
            while (i > 0 && free[(i - 1) / 2] > free[i]) {
                int up = (i - 1) / 2;
                free[i] = free[up];
                free[up] = lane;
                i = up;
            }
        }

        private int popFree() {
            int top = free[0];
            int last = free[--freeCount];
            int i = 0;
            while (true) {
                int c = 2 * i + 1;
                if (c >= freeCount) {
                    break;
                }
                if (c + 1 < freeCount && free[c + 1] < free[c]) {
                    c++;
                }
                if (free[c] >= last) {
                    break;
                }
                free[i] = free[c];
                i = c;
            }
            if (freeCount > 0) {
                free[i] = last;
            }
            return top;
        }
    }

    /** The sub-lane index of each interval, in the order of {@code intervals}. */
    public static int[] assign(List<Interval> intervals) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < intervals.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.<Integer>comparingLong(i -> intervals.get(i).start())
                .thenComparingLong(i -> intervals.get(i).end()).thenComparingLong(i -> intervals.get(i).id()));
        Sweep sweep = new Sweep();
        int[] lane = new int[intervals.size()];
        for (int i : order) {
            Interval iv = intervals.get(i);
            lane[i] = sweep.place(iv.start(), iv.end());
        }
        return lane;
    }
}
