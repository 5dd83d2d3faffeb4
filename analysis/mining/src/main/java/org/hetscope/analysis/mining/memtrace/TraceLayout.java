package org.hetscope.analysis.mining.memtrace;

/** The three text layouts of the thesis traces (spec section 1). */
public enum TraceLayout {
    /** Table 2.1: cpu, cycle, pc, type, data address, latency. */
    RAW(6),
    /** Table A.1: Table 2.1 plus the function name. */
    SYMBOLISED(7),
    /** Table 5.1: cycle, cpu, type, 4 KiB page, pc, hops, target node, latency. */
    NOC(8);

    private final int fields;

    TraceLayout(int fields) {
        this.fields = fields;
    }

    public int fields() {
        return fields;
    }
}
