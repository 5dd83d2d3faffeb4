package org.hetscope.formats.paje.starpu;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hetscope.model.TraceSink;

/**
 * Counts what the StarPU import could not place, per kind, with the first place it happened; handed to
 * {@link TraceSink#skipped} at the end so that nothing is dropped silently.
 */
public final class StarpuProblems {
    private final Map<String, long[]> counts = new LinkedHashMap<>();
    private final Map<String, String> first = new LinkedHashMap<>();

    /** Counts a line holding replaced bytes as damage; true when the line is clean. */
    boolean checkText(Path file, long line, String text) {
        if (text.indexOf('\uFFFD') < 0) {
            return true;
        }
        add(TraceSink.DAMAGE + "line with bytes that are not UTF-8 (read with them replaced)", file,
                line, null);
        return false;
    }

    public void add(String what, Path file, long line, String detail) {
        counts.computeIfAbsent(what, k -> new long[1])[0]++;
        first.putIfAbsent(what, file + ":" + line + (detail == null || detail.isEmpty() ? "" : " (" + detail + ")"));
    }

    public long count(String what) {
        long[] c = counts.get(what);
        return c == null ? 0 : c[0];
    }

    /** Kinds of problem to their counts. */
    public Map<String, Long> counts() {
        Map<String, Long> m = new LinkedHashMap<>();
        counts.forEach((k, v) -> m.put(k, v[0]));
        return m;
    }

    /** Where each kind of problem first occurred ({@code file:line (detail)}). */
    public Map<String, String> firstLocations() {
        return first;
    }

    /** Counts the problems of {@code other} here, as if they were added now and in its order. */
    void addAll(StarpuProblems other) {
        other.counts.forEach((what, c) -> {
            counts.computeIfAbsent(what, k -> new long[1])[0] += c[0];
            first.putIfAbsent(what, other.first.get(what));
        });
    }

    void flush(TraceSink sink) {
        counts.forEach((what, c) -> sink.skipped(what, first.get(what), c[0]));
    }
}
