package org.hetscope.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SliceStackTest {

    @Test
    void endsCloseTheInnermostBeginOfTheirLaneAndBrokenPairsAreCounted() {
        SkipTally skips = new SkipTally();
        SliceStack<String, String> s = new SliceStack<>(skips, "B", "E");
        s.begin("t1", "outer");
        s.begin("t1", "inner");
        s.begin("t2", "other");
        assertEquals(2, s.depth("t1"));
        assertEquals("inner", s.innermost("t1"));
        assertEquals("inner", s.end("t1"));
        assertEquals(1, s.depth("t1")); // the depth of the slice just closed
        assertNull(s.end("t3"));
        s.unmatchedEnd("f at 3");
        assertNull(s.innermost("t3"));
        List<String> closed = new ArrayList<>();
        s.close("t1", (lane, open, depth) -> closed.add(lane + " " + open + " " + depth), "end of t1");
        assertEquals(List.of("t1 outer 0"), closed);
        s.begin("t2", "deeper");
        s.closeAll((lane, open, depth) -> closed.add(lane + " " + open + " " + depth), "end of trace");
        assertEquals(List.of("t1 outer 0", "t2 deeper 1", "t2 other 0"), closed);
        assertEquals(0, s.depth("t2"));
        assertEquals(List.of(new SkipTally.Entry(SkipReason.UNMATCHED_END, "E", "f at 3", 1),
                new SkipTally.Entry(SkipReason.UNENDED_SLICE, "B", "end of t1", 3)), skips.entries());
    }

    @Test
    void drainHandsOverWhatIsOpenUncounted() {
        SkipTally skips = new SkipTally();
        SliceStack<Long, long[]> s = new SliceStack<>(skips, "enter", "leave");
        s.begin(1L, new long[] {1});
        s.begin(2L, new long[] {2});
        s.begin(1L, new long[] {3});
        List<long[]> open = s.drain();
        assertEquals(3, open.size());
        assertEquals(0, skips.total());
        s.unended("x", open.size());
        assertEquals(3, skips.count(SkipReason.UNENDED_SLICE, "enter"));
        assertEquals(0, s.depth(1L));
        assertNull(s.end(1L));
    }

    @Test
    void endAndForgetDropsEmptiedLanesSoIdsDoNotPileUp() {
        SkipTally skips = new SkipTally();
        SliceStack<Long, String> s = new SliceStack<>(skips, "start", "end");
        s.begin(1L, "a");
        s.begin(1L, "b"); // an id used twice: its ends pair innermost first
        s.begin(2L, "c");
        assertEquals("b", s.endAndForget(1L));
        assertEquals(1, s.depth(1L));
        assertEquals("a", s.endAndForget(1L));
        assertNull(s.endAndForget(1L));
        assertNull(s.endAndForget(9L));
        assertEquals(0, s.depth(9L));
        // only lane 2 is left: closeAll meets no other lane, and neither call above counted anything
        List<String> closed = new ArrayList<>();
        s.closeAll((lane, open, depth) -> closed.add(lane + " " + open), "end of trace");
        assertEquals(List.of("2 c"), closed);
        assertEquals(List.of(new SkipTally.Entry(SkipReason.UNENDED_SLICE, "start", "end of trace", 1)),
                skips.entries());
        assertEquals(0, s.drain().size());
    }

    @Test
    void discardAllCountsOpenBeginsAsUnendedIntervals() {
        SkipTally skips = new SkipTally();
        SliceStack<String, String> s = new SliceStack<>(skips, "start event", "end event");
        assertEquals(0, s.discardAll("end of trace"));
        assertEquals(0, skips.total());
        s.begin("k/1", "x");
        s.begin("k/2", "y");
        s.begin("k/2", "z");
        s.end("k/1");
        assertEquals(2, s.discardAll("end of trace"));
        assertEquals(List.of(new SkipTally.Entry(SkipReason.UNENDED_INTERVAL, "start event", "end of trace", 2)),
                skips.entries());
        assertEquals(0, s.depth("k/2"));
        assertNull(s.end("k/2"));
    }
}
