package org.hetscope.model;

/** An operating-system process (or MPI rank, or runtime instance) seen in a trace. */
public record TraceProcess(long id, long pid, String name) {}
