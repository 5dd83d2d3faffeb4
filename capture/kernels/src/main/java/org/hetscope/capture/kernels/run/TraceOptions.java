package org.hetscope.capture.kernels.run;

import java.util.List;
import org.jocl.cl_mem;

/**
 * How to trace: the strategy, naive or reduced tracepoints, and the sizes of the single-pass structures.
 *
 * @param sharedCapacity records the shared buffer holds (0: 16 per work-item + 1024)
 * @param chunkRecords records per chunk of the sub-buffer pool
 * @param chunks chunks in the pool (0: 2 per work-item + 16)
 * @param canaries two-phase only: a guard word after each producer's slice, checked after the recording pass
 * @param tripCounts with {@code reduced}: loops without tracepoints in their body record one trip count
 *     instead of one record per iteration (hetscope extension)
 * @param betweenPasses two-phase only: called after the restore and before the recording pass (tests use it to
 *     make a kernel non-deterministic); receives the device buffers of the user's arguments (null for scalars)
 */
public record TraceOptions(Strategy strategy, boolean reduced, long sharedCapacity, int chunkRecords, long chunks,
                           boolean canaries, BetweenPasses betweenPasses, boolean tripCounts) {
    /** The three ways of collecting records. */
    public enum Strategy { TWO_PHASE, SHARED, SUBBUFFER }

    /** A hook between the two passes of two-phase tracing. */
    @FunctionalInterface
    public interface BetweenPasses {
        void run(OpenClSession session, List<cl_mem> buffers);
    }

    public static TraceOptions of(Strategy s, boolean reduced) {
        return new TraceOptions(s, reduced, 0, 64, 0, false, null, false);
    }

    /** Reduced tracepoints with loop trip counts. */
    public TraceOptions withTripCounts() {
        return new TraceOptions(strategy, true, sharedCapacity, chunkRecords, chunks, canaries, betweenPasses, true);
    }

    /** Records the shared buffer holds for this many work-items: the given capacity, else 16 per work-item + 1024. */
    public long sharedCapacity(long producers) {
        return sharedCapacity > 0 ? sharedCapacity : 16L * producers + 1024;
    }

    /** Chunks in the sub-buffer pool for this many work-items: the given count, else 2 per work-item + 16. */
    public long chunks(long producers) {
        return chunks > 0 ? chunks : 2L * producers + 16;
    }

    public TraceOptions withCapacity(long records) {
        return new TraceOptions(strategy, reduced, records, chunkRecords, chunks, canaries, betweenPasses, tripCounts);
    }

    public TraceOptions withChunks(int records, long count) {
        return new TraceOptions(strategy, reduced, sharedCapacity, records, count, canaries, betweenPasses, tripCounts);
    }

    public TraceOptions withCanaries(BetweenPasses hook) {
        return new TraceOptions(strategy, reduced, sharedCapacity, chunkRecords, chunks, true, hook, tripCounts);
    }
}
