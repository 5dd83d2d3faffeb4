package org.hetscope.capture.kernels;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.hetscope.capture.kernels.run.KernelArgument;
import org.hetscope.capture.kernels.run.NdRange;

/**
 * A test kernel: its source, fresh arguments, a launch size, and the counters expected from running the same
 * algorithm in Java (keys: counter label for memory/FLOP counters, {@code construct@line} for visits).
 */
public record SuiteKernel(String name, Path file, String kernel, Supplier<List<KernelArgument>> args, NdRange range,
                   Supplier<Map<String, Long>> expected) {

    static Path dir() {
        return Path.of(System.getProperty("hetscope.root", ".")).resolve("capture/kernels/src/test/resources/kernels");
    }

    static Path gemm() {
        return Path.of(System.getProperty("hetscope.root", ".")).resolve("../shared/fixtures/starpu/gemm.cl");
    }

    public String source() {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The 1-based line of the first source line containing {@code snippet}. */
    public int line(String snippet) {
        String[] lines = source().split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains(snippet)) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException(snippet + " not in " + file);
    }

    @Override
    public String toString() {
        return name;
    }
}
