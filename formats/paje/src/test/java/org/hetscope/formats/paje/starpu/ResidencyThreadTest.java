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
 * A StarPU import rebuilds the residencies on a thread of its own while it builds the manager actions and the tasks;
 * with {@code hetscope.paje.threads=0} it does all on the reading thread. Both must give the same records and the
 * same problems in the same order, also when the residencies spill to disk on that other thread. The thread starts
 * once every event is read, beside the reader's replay of the states.
 */
class ResidencyThreadTest {
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
    void residenciesOnTheirOwnThreadGiveWhatOneThreadGives() throws Exception {
        for (String name : List.of("chol-lws-nb12", "chol-dmda-nb6")) {
            for (String spill : new String[] {null, "3"}) {
                String oneThread = load(name, "0", spill);
                assertTrue(oneThread.contains("Residency["), name);
                assertEquals(oneThread, load(name, "2", spill), name + ", spilling every " + spill);
            }
        }
    }

    @Test
    void aFailureWhileTheStatesAreReplayedWaitsForTheResidencyThreadAndLeavesNoFile() throws Exception {
        // the worker states become slices only in the replay, after the residency thread started
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
            // the import has its result by then; the thread itself may still be on its way out of run()
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().equals("starpu-residencies")) {
                    t.join(10_000);
                    assertTrue(!t.isAlive(), "the residency thread has ended");
                }
            }
            assertTrue(before.containsAll(SpillFileNames.starpu()), "what the residency thread spilled is deleted");
        } finally {
            System.clearProperty("hetscope.paje.threads");
            System.clearProperty("hetscope.starpu.spillEvery");
        }
    }
}
