package org.hetscope.capture.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an example program did, counted by the program itself (not by the agent): OpenCL calls by name, commands
 * enqueued, kernels, transfers and bytes by direction. Written as a properties file when the system property
 * {@code hetscope.example.report} names one, so tests can compare the trace with it.
 */
public final class CallLog {
    private static final Map<String, Long> COUNTS = new TreeMap<>();

    private CallLog() {}

    /** Counts one call of {@code function} and passes its result through. */
    public static synchronized int c(String function, int result) {
        COUNTS.merge("call." + function, 1L, Long::sum);
        return result;
    }

    public static synchronized <T> T c(String function, T result) {
        COUNTS.merge("call." + function, 1L, Long::sum);
        return result;
    }

    public static synchronized void add(String key, long n) {
        COUNTS.merge(key, n, Long::sum);
    }

    /** A kernel launch: one command. */
    public static void kernel() {
        add("commands", 1);
        add("kernels", 1);
    }

    /** A transfer command: direction is HtoD, DtoH, DtoD, fill, map or unmap. */
    public static void transfer(String direction, long bytes) {
        add("commands", 1);
        add("transfers." + direction, 1);
        add("bytes." + direction, bytes);
    }

    public static synchronized long get(String key) {
        return COUNTS.getOrDefault(key, 0L);
    }

    /** Writes the counts (also called before a deliberate exit, so the file matches what was done). */
    public static synchronized void report() {
        String path = System.getProperty("hetscope.example.report");
        if (path == null) {
            return;
        }
        StringBuilder sb = new StringBuilder();
        COUNTS.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
        try {
            Files.writeString(Path.of(path), sb.toString());
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + path, e);
        }
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("example check failed: " + what);
        }
    }
}
