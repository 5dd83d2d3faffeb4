package org.hetscope.capture.kernels.instrument;

/** How a tracing kernel variant stores its records (spec sections 3.4 and 3.5). */
public enum TraceCollector {
    /** Two-phase, first pass: each producer only counts its records. */
    COUNT,
    /** Two-phase, second pass: each producer writes into its exactly sized slice. */
    RECORD,
    /** Single pass: one buffer, records (producer, sequence, id) reserved with a global atomic. */
    SHARED,
    /** Single pass: fixed-size chunks taken from a pool with a global atomic when the current one is full. */
    SUBBUFFER
}
