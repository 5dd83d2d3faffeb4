package org.hetscope.formats.opencl;

/**
 * Maps one device's profiling clock onto the host clock. Each command's {@code CL_PROFILING_COMMAND_QUEUED} time
 * is taken while its enqueue call runs, so the offset must satisfy
 * {@code callStart <= queued + offset <= callEnd} for every command; the feasible offsets form an interval and
 * the middle of it is used. An empty interval means the clocks cannot be aligned this way (drift, or a driver
 * that stamps QUEUED later); then the lower bound is used and the device is marked unaligned.
 */
final class DeviceClock {
    long lo = Long.MIN_VALUE;
    long hi = Long.MAX_VALUE;
    long samples;

    void bound(long callStart, long callEnd, long queued) {
        lo = Math.max(lo, callStart - queued);
        hi = Math.min(hi, callEnd - queued);
        samples++;
    }

    boolean aligned() {
        return samples > 0 && lo <= hi;
    }

    long offset() {
        if (samples == 0) {
            return 0;
        }
        return lo <= hi ? lo + (hi - lo) / 2 : lo;
    }
}
