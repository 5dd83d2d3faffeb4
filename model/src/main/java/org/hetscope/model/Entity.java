package org.hetscope.model;

/** The kinds of model records that carry an id; ids are dense per kind and allocated by the {@link TraceSink}. */
public enum Entity { PROCESS, THREAD, DEVICE, TRACK, SLICE, INSTANT, FLOW, TRANSFER, MEMORY_NODE, MEMORY_BLOCK, TASK }
