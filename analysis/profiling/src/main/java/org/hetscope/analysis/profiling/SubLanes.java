package org.hetscope.analysis.profiling;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Places overlapping intervals of one lane into sub-lanes (spec §2.1): sorted by (start, end, id), each interval
 * goes into the first sub-lane whose last interval ends no later than its start; touching intervals share a lane.
 */
public final class SubLanes {
    /** An interval to place. */
    public record Interval(long id, long start, long end) {}

    private SubLanes() {
    }

    /** The sub-lane index of each interval, in the order of {@code intervals}. */
    public static int[] assign(List<Interval> intervals) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < intervals.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.<Integer>comparingLong(i -> intervals.get(i).start())
                .thenComparingLong(i -> intervals.get(i).end()).thenComparingLong(i -> intervals.get(i).id()));
        List<Long> laneEnds = new ArrayList<>();
        int[] lane = new int[intervals.size()];
        for (int i : order) {
            Interval iv = intervals.get(i);
            int chosen = -1;
            for (int l = 0; l < laneEnds.size(); l++) {
                if (laneEnds.get(l) <= iv.start()) {
                    chosen = l;
                    break;
                }
            }
            if (chosen < 0) {
                chosen = laneEnds.size();
                laneEnds.add(iv.end());
            } else {
                laneEnds.set(chosen, iv.end());
            }
            lane[i] = chosen;
        }
        return lane;
    }
}
