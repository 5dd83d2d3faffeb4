package org.hetscope.model;

/** An interval during which a {@link MemoryBlock} has a valid copy on a {@link MemoryNode}. */
public record Residency(long blockId, long nodeId, long ts, long dur, String state) {}
