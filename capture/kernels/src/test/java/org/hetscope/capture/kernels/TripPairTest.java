package org.hetscope.capture.kernels;

import static org.hetscope.capture.kernels.run.KernelArgument.intValue;
import static org.hetscope.capture.kernels.run.KernelArgument.ints;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.hetscope.capture.kernels.instrument.Tracepoints;
import org.hetscope.capture.kernels.run.KernelArgument;
import org.hetscope.capture.kernels.run.KernelRunner;
import org.hetscope.capture.kernels.run.NdRange;
import org.hetscope.capture.kernels.run.TraceOptions;
import org.hetscope.capture.kernels.run.TraceResult;
import org.jocl.CL;
import org.jocl.Pointer;
import org.junit.jupiter.api.Test;

/**
 * The recording pass writes a trip count's two records with one two-word store. When the recording pass
 * diverges from the count so that only one slot of a slice is left, it must keep what two separate
 * tracepoints would have kept (the first word), and never write past the slice.
 */
class TripPairTest {
    private static final String SOURCE = """
            __kernel void pair(__global const int *flag, __global int *out, int n) {
                int acc = 0;
                if (flag[0] != 0)
                    acc = 1;
                for (int j = 0; j < n; j++)
                    acc += j;
                out[get_global_id(0)] = acc;
            }
            """;
    private static final int ITEMS = 32;
    private static final int TRIPS = 5;

    private static List<KernelArgument> args(int flag) {
        return List.of(ints(new int[] {flag}), ints(new int[ITEMS]), intValue(TRIPS));
    }

    @Test
    void aPairThatNoLongerFitsKeepsOnlyItsFirstWord() {
        KernelRunner runner = new KernelRunner(TestDevice.session(), "pair.cl", SOURCE, "pair");
        NdRange range = NdRange.of(ITEMS, 16);
        TraceOptions trips = TraceOptions.of(TraceOptions.Strategy.TWO_PHASE, true).withTripCounts();

        // reference: the deterministic trace with the flag set records the if edge, then the pair
        TraceResult taken = runner.trace(args(1), range, trips.withCanaries(null));
        assertTrue(taken.valid());
        int[] full = taken.records()[0];
        assertEquals(3, full.length, Arrays.toString(full));
        assertTrue((full[1] & Tracepoints.TRIP) != 0, "second record marks a trip count");
        assertEquals(TRIPS, full[2]);

        // counted with the flag clear (2 records: the pair), recorded with it set (3 records)
        TraceResult r = runner.trace(args(0), range, trips.withCanaries((session, buffers) ->
                CL.clEnqueueWriteBuffer(session.queue(), buffers.get(0), true, 0, 4, Pointer.to(new int[] {1}), 0,
                        null, null)));
        assertFalse(r.valid());
        assertEquals(ITEMS, r.nondeterministic().size());
        assertTrue(r.canariesIntact(), "no word written outside its slice");
        for (int p = 0; p < ITEMS; p++) {
            assertArrayEquals(Arrays.copyOf(full, 2), r.records()[p], "work-item " + p);
        }
    }

    @Test
    void tripCountsOfEveryWorkItemMatchTheLoopBound() {
        KernelRunner runner = new KernelRunner(TestDevice.session(), "pair.cl", SOURCE, "pair");
        TraceResult r = runner.trace(args(0), NdRange.of(ITEMS, 16),
                TraceOptions.of(TraceOptions.Strategy.TWO_PHASE, true).withTripCounts());
        assertTrue(r.valid());
        for (int p = 0; p < ITEMS; p++) {
            assertEquals(2, r.records()[p].length);
            assertEquals(TRIPS, r.records()[p][1]);
        }
    }
}
