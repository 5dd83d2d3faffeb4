package org.hetscope.model;

/** A piece of data tracked by a runtime (a StarPU handle, an OpenCL buffer) whose location changes over time. */
public record MemoryBlock(long id, String handle, String name, Long sizeBytes, Long homeNodeId, String coordinates) {}
