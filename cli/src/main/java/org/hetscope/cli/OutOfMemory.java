package org.hetscope.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** What to tell a user whose command ran out of Java heap: how big the heap was and how to give it more. */
final class OutOfMemory {
    private OutOfMemory() {}

    /**
     * Advice naming the heap this run had and a larger one to try: at least twice the heap, and as much as the
     * input's size (what a StarPU import still keeps in memory, its tasks, transfers and residencies, took between
     * a third and two thirds of the trace's size in the 1 GB heap: a 1.5 GB trace fits, a 3 GB one does not; the
     * other readers stream).
     */
    static String advice(Path input) {
        long heapMb = Runtime.getRuntime().maxMemory() >> 20;
        long wantMb = Math.max(2 * heapMb, size(input) >> 20);
        long wantGb = Math.max(1, (wantMb + 1023) / 1024);
        return "the Java heap (" + heapMb + " MiB) is too small for this; run again with a larger one, e.g. "
                + "HETSCOPE_JAVA_OPTS=-Xmx" + wantGb + "g";
    }

    private static long size(Path input) {
        if (input == null) {
            return 0;
        }
        try {
            if (Files.isDirectory(input)) {
                try (Stream<Path> files = Files.walk(input)) {
                    return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
                }
            }
            return Files.size(input);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
