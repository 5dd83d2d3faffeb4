package org.hetscope.formats.paje.starpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.hetscope.formats.paje.PajeFormat;
import org.hetscope.formats.paje.SpillFileNames;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.junit.jupiter.api.Test;

/**
 * A StarPU import whose memory-manager events spill to disk every few records must leave no spill file behind when it
 * fails part way (that the spilled events give what the events in memory give: {@link MemEventLogTest}).
 */
class ManagerEventSpillTest {
    @Test
    void aFailureWhileTheStatesAreReplayedLeavesNoSpillFile() throws Exception {
        // the worker states become slices only in the replay, after the manager events were spilled
        System.setProperty("hetscope.starpu.spillEvery", "3");
        Set<String> before = SpillFileNames.starpu();
        try {
            CollectingSink failing = new CollectingSink() {
                @Override
                public void slice(Slice slice) {
                    throw new IllegalStateException("sink refused a slice");
                }
            };
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> new PajeFormat().read(
                    StarpuFixtureTest.fixture("chol-lws-nb12"), failing, Progress.NONE));
            assertEquals("sink refused a slice", e.getMessage());
            assertTrue(before.containsAll(SpillFileNames.starpu()), "what the import spilled is deleted");
        } finally {
            System.clearProperty("hetscope.starpu.spillEvery");
        }
    }
}
