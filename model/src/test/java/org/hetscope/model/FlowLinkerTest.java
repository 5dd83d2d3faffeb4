package org.hetscope.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FlowLinkerTest {

    private static List<String> flows(CollectingSink s) {
        return s.flows.stream().map(f -> f.id() + ":" + f.fromSliceId() + "->" + f.toSliceId() + " " + f.kind() + " "
                + f.correlationId() + " " + f.rule()).toList();
    }

    @Test
    void idsArePerProcessAndTheFirstCallOfAKeyIsLinked() {
        CollectingSink s = new CollectingSink();
        FlowLinker l = new FlowLinker(s, false, 4);
        assertTrue(l.call(1, 7, 100));
        assertTrue(l.call(2, 7, 200)); // the same id in another process is another call
        assertFalse(l.call(1, 7, 101)); // a repeat: counted, not linked
        l.activity(1, 7, 300, "launch");
        l.activity(2, 7, 301, "sync");
        l.activity(3, 7, 302, "launch"); // no call in process 3
        l.activity(1, 8, 303, "launch");
        assertEquals(List.of("1:100->300 launch 7 CORRELATION", "2:200->301 sync 7 CORRELATION"), flows(s));
        assertEquals(1, l.duplicates());
        assertEquals(2, l.unlinked());
        assertEquals(2, l.linked());
        assertEquals(200, l.callOf(2, 7));
        assertEquals(-1, l.callOf(4, 7));
    }

    @Test
    void deferredActivitiesLinkAtTheEndInTheOrderTheyCame() {
        CollectingSink s = new CollectingSink();
        FlowLinker l = new FlowLinker(s, true, 0);
        List<long[]> seen = new ArrayList<>();
        l.onLinked((call, activity) -> seen.add(new long[] {call, activity}));
        l.activity(FlowLinker.ONE_PROCESS, 5, 50, "launch"); // its call comes later in the file
        l.activity(FlowLinker.ONE_PROCESS, 6, 60, "sync");
        l.call(FlowLinker.ONE_PROCESS, 6, 16);
        l.call(FlowLinker.ONE_PROCESS, 5, 15);
        assertEquals(List.of(), s.flows);
        l.finish();
        assertEquals(List.of("1:15->50 launch 5 CORRELATION", "2:16->60 sync 6 CORRELATION"), flows(s));
        assertEquals(2, seen.size());
        assertEquals(15, seen.get(0)[0]);
        assertEquals(60, seen.get(1)[1]);
    }

    @Test
    void theReservedIdLinksNothingInsteadOfFailing() {
        CollectingSink s = new CollectingSink();
        FlowLinker l = new FlowLinker(s, false, 0);
        assertTrue(l.call(1, Long.MIN_VALUE, 9));
        l.activity(1, Long.MIN_VALUE, 10, "launch");
        assertEquals(List.of(), s.flows);
        assertEquals(1, l.unlinked());
    }

    /** Against a brute-force pairing: every activity to the first call of its (process, id), in activity order. */
    @Test
    void matchesBruteForceOnRandomCallsAndActivities() {
        Random r = new Random(27);
        for (int round = 0; round < 50; round++) {
            boolean deferred = r.nextBoolean();
            CollectingSink s = new CollectingSink();
            FlowLinker l = new FlowLinker(s, deferred, 0);
            List<long[]> calls = new ArrayList<>();
            List<long[]> acts = new ArrayList<>();
            long slice = 1;
            for (int i = 0; i < 300; i++) {
                long process = r.nextInt(4);
                long corr = r.nextInt(60) - 5;
                if (r.nextBoolean()) {
                    calls.add(new long[] {process, corr, slice});
                    l.call(process, corr, slice++);
                } else {
                    acts.add(new long[] {process, corr, slice, calls.size()});
                    l.activity(process, corr, slice++, "launch");
                }
            }
            l.finish();
            List<String> expected = new ArrayList<>();
            long id = 1;
            for (long[] a : acts) {
                // immediate: only calls made before the activity; deferred: every call
                int known = deferred ? calls.size() : (int) a[3];
                for (int i = 0; i < known; i++) {
                    long[] c = calls.get(i);
                    if (c[0] == a[0] && c[1] == a[1]) {
                        expected.add(id++ + ":" + c[2] + "->" + a[2] + " launch " + a[1] + " CORRELATION");
                        break;
                    }
                }
            }
            assertEquals(expected, flows(s), "round " + round);
        }
    }
}
