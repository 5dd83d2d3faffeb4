package org.hetscope.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SkipTallyTest {

    @Test
    void countsPerReasonAndDetailKeepingTheFirstLocation() {
        SkipTally t = new SkipTally();
        t.add(SkipReason.KEPT_GENERIC, "phase 'P'", "f at byte 10");
        t.add(SkipReason.UNMATCHED_END, "'E' event", "f at byte 20");
        t.add(SkipReason.KEPT_GENERIC, "phase 'P'", "f at byte 30");
        t.add(SkipReason.KEPT_GENERIC, "phase 'Q'", "f at byte 40", 5);
        t.add(SkipReason.KEPT_GENERIC, "phase 'P'", null); // later items need no location
        List<SkipTally.Entry> rows = t.entries();
        assertEquals(List.of(
                new SkipTally.Entry(SkipReason.KEPT_GENERIC, "phase 'P'", "f at byte 10", 3),
                new SkipTally.Entry(SkipReason.UNMATCHED_END, "'E' event", "f at byte 20", 1),
                new SkipTally.Entry(SkipReason.KEPT_GENERIC, "phase 'Q'", "f at byte 40", 5)), rows);
        assertEquals(8, t.count(SkipReason.KEPT_GENERIC));
        assertEquals(3, t.count(SkipReason.KEPT_GENERIC, "phase 'P'"));
        assertEquals(0, t.count(SkipReason.DAMAGED_RECORD));
        assertEquals(9, t.total());
        assertEquals(1, t.total(SkipReason.Severity.DATA_LOSS));
        assertEquals(0, t.total(SkipReason.Severity.DAMAGED_INPUT));
    }

    @Test
    void emptyDetailIsNoDetailAndNothingCountsNothing() {
        SkipTally t = new SkipTally();
        t.add(SkipReason.ROUNDED_TIME, "", "a", 2);
        t.add(SkipReason.ROUNDED_TIME, null, "b", 1);
        t.add(SkipReason.PACKETS_LOST, null, "c", 0);
        assertEquals(List.of(new SkipTally.Entry(SkipReason.ROUNDED_TIME, null, "a", 3)), t.entries());
        assertEquals("rounded_time", t.entries().get(0).label());
    }

    @Test
    void mergingKeepsTheOrderAndTheEarlierLocation() {
        SkipTally a = new SkipTally();
        a.add(SkipReason.NOT_UTF8, null, "x:1");
        SkipTally b = new SkipTally();
        b.add(SkipReason.TRUNCATED, "tasks.rec record", "y:9");
        b.add(SkipReason.NOT_UTF8, null, "y:2", 4);
        a.addAll(b);
        assertEquals(List.of(new SkipTally.Entry(SkipReason.NOT_UTF8, null, "x:1", 5),
                new SkipTally.Entry(SkipReason.TRUNCATED, "tasks.rec record", "y:9", 1)), a.entries());
        assertEquals(6, a.total(SkipReason.Severity.DAMAGED_INPUT));
        CollectingSink sink = new CollectingSink();
        a.flushTo(sink);
        assertEquals(a.entries(), sink.skips.entries());
        assertEquals(5L, sink.skipped.get("not_utf8"));
        assertEquals(1L, sink.skipped.get("truncated: tasks.rec record"));
        assertEquals(6, sink.damagedTotal());
    }

    @Test
    void reasonsHaveUniqueSnakeCaseIdsAndADescription() {
        Set<String> ids = new HashSet<>();
        for (SkipReason r : SkipReason.values()) {
            assertTrue(r.id().matches("[a-z][a-z0-9_]*"), r.id());
            assertTrue(ids.add(r.id()), "twice: " + r.id());
            assertNotNull(r.severity());
            assertTrue(!r.description().isBlank() && !r.description().contains("\n"), r.id());
            assertEquals(r, SkipReason.byId(r.id()));
        }
        assertNull(SkipReason.byId("damaged input: x"));
        assertEquals("damaged_input", SkipReason.Severity.DAMAGED_INPUT.id());
    }
}
