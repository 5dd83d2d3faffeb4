package org.hetscope.model;

/**
 * The role of a {@link Track} in the track tree: devices hold streams/queues, processes hold threads,
 * threads hold API families, and runtimes add memory nodes, workers and counters.
 */
public enum TrackKind {
    PROCESS, THREAD, API, DEVICE, STREAM, QUEUE, MEMORY_NODE, MEMORY_MANAGER, WORKER, COUNTER, TRANSFERS, BLOCK,
    /** A processor core: what the scheduler ran on it (CTF kernel traces). */
    CPU,
    GENERIC;

    private final String label = name().toLowerCase(java.util.Locale.ROOT);

    public String label() {
        return label;
    }
}
