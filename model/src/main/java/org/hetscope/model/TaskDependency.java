package org.hetscope.model;

/** An edge of a task graph: {@code toTaskId} may start only after {@code fromTaskId} ends. */
public record TaskDependency(long fromTaskId, long toTaskId) {}
