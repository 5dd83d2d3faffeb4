package org.hetscope.model;

/**
 * Dispatch attributes of a kernel slice. Unknown values are null.
 *
 * @param sliceId the kernel's {@link Slice}
 * @param stream the stream or queue it ran on
 * @param grid grid size in blocks/work-groups, as the source gives it
 * @param block block/work-group size in threads/work-items
 */
public record KernelLaunch(long sliceId, Long deviceId, Long stream, Long correlationId, Dim3 grid, Dim3 block,
                           Integer registersPerThread, Long sharedMemoryStatic, Long sharedMemoryDynamic) {}
