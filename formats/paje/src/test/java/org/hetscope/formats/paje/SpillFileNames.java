package org.hetscope.formats.paje;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** For the tests that check spill files are deleted: the names of those present in the spill folder. */
public final class SpillFileNames {
    private SpillFileNames() {}

    /** The Paje reader's state and variable spills. */
    public static Set<String> paje() throws IOException {
        return startingWith("hetscope-paje-");
    }

    /** The StarPU import's record spills. */
    public static Set<String> starpu() throws IOException {
        return startingWith("hetscope-starpu-");
    }

    /** Names in {@link SpillFiles#folder()} starting with {@code prefix}. */
    public static Set<String> startingWith(String prefix) throws IOException {
        try (Stream<Path> s = Files.list(SpillFiles.folder())) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix))
                    .collect(Collectors.toSet());
        }
    }
}
