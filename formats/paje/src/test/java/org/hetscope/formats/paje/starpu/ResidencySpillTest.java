package org.hetscope.formats.paje.starpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.hetscope.formats.paje.PajeFormat;
import org.hetscope.formats.paje.SpillFileNames;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.junit.jupiter.api.Test;

/**
 * A StarPU import whose MSI events, residencies and task records spill to disk every few records must give the same
 * records and the same problems in the same order as one that keeps them in memory, and a failure part way must
 * leave no spill file behind.
 */
class ResidencySpillTest {
    private static String load(String name, String spillEvery) throws Exception {
        if (spillEvery != null) {
            System.setProperty("hetscope.starpu.spillEvery", spillEvery);
        }
        try {
            CollectingSink s = StarpuFixtureTest.load(name);
            return MemEventLogTest.everything(s) + s.skipped;
        } finally {
            System.clearProperty("hetscope.starpu.spillEvery");
        }
    }

    @Test
    void spilledResidenciesGiveWhatResidenciesInMemoryGive() throws Exception {
        for (String name : List.of("chol-lws-nb12", "chol-dmda-nb6")) {
            String inMemory = load(name, null);
            assertTrue(inMemory.contains("Residency["), name);
            for (String spill : new String[] {"1", "3"}) {
                assertEquals(inMemory, load(name, spill), name + ", spilling every " + spill);
            }
        }
    }

    @Test
    void aFailureWhileTheStatesAreReplayedLeavesNoSpillFile() throws Exception {
        // the worker states become slices only in the replay, after the MSI events were spilled
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
