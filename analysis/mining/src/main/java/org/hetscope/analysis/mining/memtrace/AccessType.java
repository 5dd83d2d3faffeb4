package org.hetscope.analysis.mining.memtrace;

import java.util.Locale;

/** Kind of memory access in the thesis traces: instruction fetch, load, store, load-linked, store-conditional. */
public enum AccessType {
    INST, READ, WRITE, LL, SC;

    /** Accepts both spellings of the thesis: Table 2.1 (fetch, load, store, ll, sc) and Table 5.1 (INST, READ, WRITE). */
    public static AccessType parse(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "fetch", "inst", "ifetch" -> INST;
            case "load", "read", "lw" -> READ;
            case "store", "write", "sw" -> WRITE;
            case "ll" -> LL;
            case "sc" -> SC;
            default -> throw new IllegalArgumentException("unknown access type '" + s + "'");
        };
    }
}
