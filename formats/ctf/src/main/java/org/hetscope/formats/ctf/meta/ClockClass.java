package org.hetscope.formats.ctf.meta;

/**
 * A clock of the trace: {@code offsetSeconds} and {@code offsetCycles} place cycle 0 relative to the origin
 * (the Unix epoch when {@code absolute}).
 */
public record ClockClass(String name, long frequency, long offsetSeconds, long offsetCycles, boolean absolute,
                         String uuid, String description) {
    private static final long NS = 1_000_000_000L;

    /**
     * Nanoseconds from the origin of the clock for a raw cycle count. Exact integer arithmetic; the offset in
     * cycles is first normalised below one second, as babeltrace2 does, so that both agree.
     */
    public long toNs(long cycles) {
        return baseNs() + cyclesToNs(cycles);
    }

    /** The offset of cycle 0 from the origin, in ns. */
    public long baseNs() {
        long s = offsetSeconds + Long.divideUnsigned(offsetCycles, frequency);
        long rem = Long.remainderUnsigned(offsetCycles, frequency);
        if (!offsetRepresentable()) {
            s = 0; // an offset beyond the ns range (seen in test traces) is ignored rather than wrapped
        }
        return s * NS + cyclesToNs(rem);
    }

    /** Whether the offset fits in the ns range (a trace may declare a nonsense offset). */
    public boolean offsetRepresentable() {
        long s = offsetSeconds + Long.divideUnsigned(offsetCycles, frequency);
        return Math.abs(s) < Long.MAX_VALUE / NS - 1;
    }

    /** Converts an unsigned cycle count to ns, truncating, without overflow for any 64-bit count. */
    public long cyclesToNs(long cycles) {
        if (frequency == NS) {
            return cycles;
        }
        // floor(cycles * 1e9 / frequency) with a 128-bit product.
        long hi = Math.unsignedMultiplyHigh(cycles, NS);
        long lo = cycles * NS;
        if (hi == 0) {
            return Long.divideUnsigned(lo, frequency);
        }
        java.math.BigInteger p = new java.math.BigInteger(Long.toUnsignedString(hi)).shiftLeft(64)
                .or(new java.math.BigInteger(Long.toUnsignedString(lo)));
        return p.divide(java.math.BigInteger.valueOf(frequency)).longValue();
    }
}
