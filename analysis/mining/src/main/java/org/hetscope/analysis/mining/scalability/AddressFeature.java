package org.hetscope.analysis.mining.scalability;

/**
 * Features of one address in one run (Definitions 5-6): share of all latency spent on it, share of all accesses
 * made to it, in percent, plus its function.
 */
public record AddressFeature(long address, String function, double pctTime, double pctAccesses, long accesses,
                             long latency) {
    public String label() {
        return "0x" + Long.toHexString(address);
    }
}
