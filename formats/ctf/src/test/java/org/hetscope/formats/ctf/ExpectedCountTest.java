package org.hetscope.formats.ctf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every fixture listed in EXPECTED.tsv decodes to exactly the published number of events. */
class ExpectedCountTest {

    @Test
    void everyFixtureHasItsPublishedEventCount() throws Exception {
        List<String> failures = new ArrayList<>();
        for (Map.Entry<String, Long> e : Fixtures.expected().entrySet()) {
            try (CtfTrace t = CtfTrace.open(Fixtures.ctf(e.getKey()))) {
                long merged = 0;
                long last = Long.MIN_VALUE;
                boolean ordered = true;
                try (CtfTrace.Cursor c = t.cursor()) {
                    while (c.next()) {
                        merged++;
                        long ts = c.event().timestampNs();
                        ordered &= ts >= last;
                        last = ts;
                    }
                }
                long counted = t.count(2).stream().mapToLong(CtfTrace.ClassCount::events).sum();
                if (merged != e.getValue() || counted != e.getValue() || !ordered || !t.problems().isEmpty()) {
                    failures.add(e.getKey() + ": merged " + merged + ", counted " + counted + ", expected "
                            + e.getValue() + (ordered ? "" : ", out of order") + " " + t.problems());
                }
            } catch (Exception ex) {
                failures.add(e.getKey() + ": " + ex);
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
        assertEquals(12, Fixtures.expected().size());
    }
}
