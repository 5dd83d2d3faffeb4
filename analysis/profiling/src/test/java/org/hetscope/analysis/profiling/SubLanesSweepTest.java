package org.hetscope.analysis.profiling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The heap-based sweep places every interval where the spec's literal first-fit scan over the sub-lanes does. */
class SubLanesSweepTest {
    /** Spec §2.1 as written: sorted by (start, end, id), the first sub-lane whose last end is at or before the start. */
    private static int[] firstFit(List<SubLanes.Interval> in) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.<Integer>comparingLong(i -> in.get(i).start())
                .thenComparingLong(i -> in.get(i).end()).thenComparingLong(i -> in.get(i).id()));
        List<Long> ends = new ArrayList<>();
        int[] lane = new int[in.size()];
        for (int i : order) {
            int l = 0;
            while (l < ends.size() && ends.get(l) > in.get(i).start()) {
                l++;
            }
            if (l == ends.size()) {
                ends.add(in.get(i).end());
            } else {
                ends.set(l, in.get(i).end());
            }
            lane[i] = l;
        }
        return lane;
    }

    @Test
    void sweepEqualsTheLiteralFirstFitScan() {
        Random rnd = new Random(11);
        for (int round = 0; round < 300; round++) {
            List<SubLanes.Interval> in = new ArrayList<>();
            int n = 1 + rnd.nextInt(120);
            for (int i = 0; i < n; i++) {
                long s = rnd.nextInt(round % 2 == 0 ? 50 : 2000);
                // zero-length and touching intervals included
                in.add(new SubLanes.Interval(i, s, s + rnd.nextInt(round % 3 == 0 ? 5 : 200)));
            }
            assertArrayEquals(firstFit(in), SubLanes.assign(in), "round " + round);
        }
    }

    @Test
    void sweepResetsBetweenLanes() {
        SubLanes.Sweep s = new SubLanes.Sweep();
        assertEquals(0, s.place(0, 10));
        assertEquals(1, s.place(5, 15));
        assertEquals(0, s.place(10, 12));
        assertEquals(0, s.place(16, 20));
        assertEquals(2, s.lanes());
        s.reset();
        assertEquals(0, s.place(5, 6));
        assertEquals(1, s.lanes());
    }
}
