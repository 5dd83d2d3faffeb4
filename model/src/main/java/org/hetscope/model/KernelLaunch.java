package org.hetscope.model;

/**
 * Dispatch attributes of a kernel slice. Unknown values are null.
 *
 * @param sliceId the kernel's {@link Slice}
 * @param stream the stream or queue it ran on
 * @param grid grid size in blocks/work-groups, as the source gives it
 * @param block block/work-group size in threads/work-items
 * @param fullName the kernel's full (demangled) name where the source gives one beside the short name that the
 *     slice carries (Nsight Systems' {@code demangledName}); null when the slice name is already the full one
 */
public record KernelLaunch(long sliceId, Long deviceId, Long stream, Long correlationId, Dim3 grid, Dim3 block,
                           Integer registersPerThread, Long sharedMemoryStatic, Long sharedMemoryDynamic,
                           String fullName) {

    /** Attributes of a kernel whose slice name is its full name. */
    public KernelLaunch(long sliceId, Long deviceId, Long stream, Long correlationId, Dim3 grid, Dim3 block,
                        Integer registersPerThread, Long sharedMemoryStatic, Long sharedMemoryDynamic) {
        this(sliceId, deviceId, stream, correlationId, grid, block, registersPerThread, sharedMemoryStatic,
                sharedMemoryDynamic, null);
    }
}
