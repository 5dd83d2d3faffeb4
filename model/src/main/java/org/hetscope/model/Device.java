package org.hetscope.model;

import java.util.Map;

/**
 * A processor that runs work: a CPU, a GPU or another accelerator, with the properties known for it.
 * Unknown numeric properties are {@code null}; {@code properties} keeps everything else the source said.
 *
 * @param ordinal the device index in its source (CUDA device id, HSA agent id, OpenCL device index)
 * @param peakFlops peak floating-point operations per second, where known
 * @param peakBandwidth peak memory bandwidth in bytes per second, where known
 */
public record Device(long id, DeviceKind kind, int ordinal, String vendor, String name,
                     Integer computeUnits, Long memoryBytes, Integer warpSize,
                     Double peakFlops, Double peakBandwidth, Double clockMhz,
                     Map<String, String> properties) {
    public Device {
        // sorted by key: Map.copyOf's iteration order changes from one run to the next, and the store's properties JSON
        // (and so two imports of one file) must not
        properties = properties == null ? Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(properties));
    }
}
