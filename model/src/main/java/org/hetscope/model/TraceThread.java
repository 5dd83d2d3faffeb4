package org.hetscope.model;

/** A thread of a {@link TraceProcess}. */
public record TraceThread(long id, long tid, long processId, String name) {}
