package org.hetscope.capture.kernels;

import static org.hetscope.capture.kernels.run.KernelArgument.intValue;
import static org.hetscope.capture.kernels.run.KernelArgument.ints;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.hetscope.capture.kernels.run.KernelArgument;
import org.hetscope.capture.kernels.run.KernelRunner;
import org.hetscope.capture.kernels.run.NdRange;
import org.hetscope.capture.kernels.run.TraceOptions;
import org.hetscope.capture.kernels.run.TraceResult;
import org.junit.jupiter.api.Test;

/**
 * The counting pass that sizes the single-pass strategies' buffers ({@code kernel trace} without --capacity or
 * --chunks): its per-work-item counts are the records the two-phase trace keeps, the host buffers are left as they
 * were, and buffers sized from it lose nothing where the default sizes lose records.
 */
class RecordCountsTest {
    /** Work-item i runs its loop i times: record counts grow with the id, far past 16 per work-item at the end. */
    private static final String SOURCE = """
            __kernel void grow(__global int *out, int scale) {
                int id = get_global_id(0);
                int acc = 0;
                for (int j = 0; j < id * scale; j++)
                    acc += j;
                out[id] = acc;
            }
            """;
    private static final int ITEMS = 64;
    private static final int SCALE = 4;

    private static List<KernelArgument> args() {
        return List.of(ints(new int[ITEMS]), intValue(SCALE));
    }

    @Test
    void countsAreTheTwoPhaseRecordsAndSizeTheSinglePassBuffers() {
        KernelRunner runner = new KernelRunner(TestDevice.session(), "grow.cl", SOURCE, "grow");
        NdRange range = NdRange.of(ITEMS, 16);
        List<KernelArgument> a = args();
        long[] counts = runner.recordCounts(a, range, true, false);
        assertArrayEquals(new int[ITEMS], KernelArgument.asInts((KernelArgument.Host) a.get(0)), "host buffer untouched");
        TraceResult exact = runner.trace(args(), range, TraceOptions.of(TraceOptions.Strategy.TWO_PHASE, true));
        for (int p = 0; p < ITEMS; p++) {
            assertEquals(exact.records()[p].length, counts[p], "work-item " + p);
        }
        long total = Arrays.stream(counts).sum();
        assertTrue(total > 16L * ITEMS + 1024, "the default shared capacity is too small here: " + total);

        TraceResult small = runner.trace(args(), range, TraceOptions.of(TraceOptions.Strategy.SHARED, true));
        assertTrue(small.lost() > 0, "default capacity loses records");
        assertEquals(total, small.totalRecords() + small.lost());
        TraceResult shared = runner.trace(args(), range,
                TraceOptions.of(TraceOptions.Strategy.SHARED, true).withCapacity(total));
        assertEquals(0, shared.lost());
        assertEquals(total, shared.totalRecords());
        int chunk = 4;
        long chunks = Arrays.stream(counts).map(n -> (n + chunk - 1) / chunk).sum();
        TraceResult sub = runner.trace(args(), range,
                TraceOptions.of(TraceOptions.Strategy.SUBBUFFER, true).withChunks(chunk, chunks));
        assertEquals(0, sub.lost());
        assertEquals(total, sub.totalRecords());
    }
}
