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
 * records and the same problems in the same order as one that keeps them in memory; so must one that replays the
 * residencies on a thread of their own (beside the reader's replay of the states) against one that does all on the
 * reading thread ({@code hetscope.paje.threads=0}). A failure part way must leave no thread and no spill file behind.
 */
class ResidencySpillTest {
    private static String load(String name, String threads, String spillEvery) throws Exception {
        System.setProperty("hetscope.paje.threads", threads);
        if (spillEvery != null) {
            System.setProperty("hetscope.starpu.spillEvery", spillEvery);
        }
        try {
            CollectingSink s = StarpuFixtureTest.load(name);
            return MemEventLogTest.everything(s) + s.skipped;
        } finally {
            System.clearProperty("hetscope.paje.threads");
            System.clearProperty("hetscope.starpu.spillEvery");
        }
    }

    @Test
    void spilledResidenciesGiveWhatResidenciesInMemoryGive() throws Exception {
        for (String name : List.of("chol-lws-nb12", "chol-dmda-nb6")) {
            String inMemory = load(name, "0", null);
            assertTrue(inMemory.contains("Residency["), name);
            for (String spill : new String[] {"1", "3"}) {
                assertEquals(inMemory, load(name, "0", spill), name + ", spilling every " + spill);
            }
        }
    }

    @Test
    void residenciesOnTheirOwnThreadGiveWhatOneThreadGives() throws Exception {
        for (String name : List.of("chol-lws-nb12", "chol-dmda-nb6")) {
            for (String spill : new String[] {null, "3"}) {
                assertEquals(load(name, "0", spill), load(name, "2", spill), name + ", spilling every " + spill);
            }
        }
    }

    @Test
    void aFailureWhileTheStatesAreReplayedLeavesNoThreadAndNoSpillFile() throws Exception {
        // the worker states become slices only in the replay, after the MSI events were spilled and the residency
        // thread started
        System.setProperty("hetscope.paje.threads", "2");
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
            // the import has waited for the thread's result by then (the thread may still be on its way out of run())
            for (var t : Thread.getAllStackTraces().entrySet()) {
                if (t.getKey().getName().equals("starpu-residencies")) {
                    for (StackTraceElement frame : t.getValue()) {
                        assertTrue(!frame.getClassName().endsWith("ResidencyReplay"),
                                "the residency replay still runs after the import failed: " + frame);
                    }
                }
            }
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().equals("starpu-residencies")) {
                    t.join(10_000);
                    assertTrue(!t.isAlive(), "the residency thread has ended");
                }
            }
            assertTrue(before.containsAll(SpillFileNames.starpu()), "what the import spilled is deleted");
        } finally {
            System.clearProperty("hetscope.paje.threads");
            System.clearProperty("hetscope.starpu.spillEvery");
        }
    }
}
