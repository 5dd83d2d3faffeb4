package org.hetscope.model;

/** A unit of work of a task runtime, with its life cycle times and where it ran. */
public record Task(long id, Long sliceId, long jobId, String name, Long workerTrackId, Long nodeId,
                   Long submitTs, long startTs, long endTs, Integer priority) {}
