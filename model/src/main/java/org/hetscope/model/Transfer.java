package org.hetscope.model;

/**
 * A movement (or fill) of memory: which bytes went from where to where, and when.
 *
 * @param sliceId the slice that shows it on a timeline, or null
 * @param srcNodeId memory node the data came from (task runtimes), or null
 * @param blockId the {@link MemoryBlock} carried, or null
 */
public record Transfer(long id, Long sliceId, long ts, long dur, long bytes, TransferKind kind,
                       Long srcDeviceId, Long dstDeviceId, Long srcNodeId, Long dstNodeId, Long blockId,
                       Long correlationId) {}
