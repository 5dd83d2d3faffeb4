package org.hetscope.model;

/** A task's use of a memory block, with the access mode (R, W, RW, ...). */
public record TaskAccess(long taskId, long blockId, String mode) {}
