package org.hetscope.model;

/** A memory that data can live in: host RAM, a GPU's memory, a NUMA node. */
public record MemoryNode(long id, String name, Long deviceId, String kind) {}
