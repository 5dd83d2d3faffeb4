package org.hetscope.model;

/**
 * An interval of activity on a track: an API call, a kernel, a copy, a task, a state.
 *
 * @param ts start in nanoseconds
 * @param dur duration in nanoseconds, never negative
 * @param sourceCategory the category the source itself gave (e.g. Kineto's {@code cuda_runtime}), or null
 * @param depth nesting depth on its track (0 = top level), computed by the store when given as -1
 * @param argsJson the source's arguments as a JSON object text, or null
 */
public record Slice(long id, long trackId, long ts, long dur, String name, Category category,
                    String sourceCategory, int depth, Long correlationId, String argsJson) {
    public Slice {
        if (dur < 0) {
            throw new IllegalArgumentException("negative duration " + dur + " for slice " + name);
        }
    }

    public long end() {
        return ts + dur;
    }
}
