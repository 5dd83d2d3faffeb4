package org.hetscope.analysis.profiling;

/**
 * A slice with what the profiling analyses need to know about where it ran.
 *
 * @param process the model process id of its track, or null (GPU tracks of some formats have none)
 * @param device the model device id of its track, or null for host slices
 * @param stream the stream/queue of its track, or for host calls the stream named in its arguments, or null
 * @param host whether it sits on a host (thread/API) track rather than a device (stream/queue) track
 */
public record Span(long id, long ts, long dur, String name, String category, Long correlationId, Long process,
                   Long device, Long stream, long trackId, boolean host, String args) {

    public long end() {
        return ts + dur;
    }

    public boolean isKernel() {
        return "kernel".equals(category);
    }

    public boolean isCopy() {
        return "memcpy".equals(category);
    }

    public boolean isMemset() {
        return "memset".equals(category);
    }

    /** A GPU activity: kernel, copy or memset on a device track. */
    public boolean isActivity() {
        return !host && (isKernel() || isCopy() || isMemset());
    }
}
