package org.hetscope.analysis.mining.memtrace;

/**
 * One timed memory access by one initiator (spec section 1): the common record of the three thesis layouts.
 * Optional fields are null when the layout lacks them; {@code t} is in cycles or nanoseconds, as the trace says.
 */
public record AccessEvent(int cpu, long t, long pc, AccessType type, Long dataAddress, Long page, Integer hops,
                          Integer node, long latency, String function) {
    /** A Table 2.1 row. */
    public static AccessEvent of(int cpu, long t, long pc, AccessType type, long dataAddress, long latency) {
        return new AccessEvent(cpu, t, pc, type, dataAddress, null, null, null, latency, null);
    }

    public AccessEvent withFunction(String f) {
        return new AccessEvent(cpu, t, pc, type, dataAddress, page, hops, node, latency, f);
    }
}
