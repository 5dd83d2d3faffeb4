package org.hetscope.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The training run behind the ahead-of-time cache that {@code build.sh} makes on JDK 25 and newer
 * ({@code -XX:AOTCacheOutput}): it runs the everyday commands once, in one JVM, so that the cache holds the classes
 * they load, already linked, and the profiles of their hot methods. Later starts of {@code ./hetscope} map that
 * cache instead of loading, verifying and profiling the same code again (about 0.1 s of every start).
 *
 * <p>Arguments: a Kineto JSON trace (the bundled example), then any number of further traces to import (CTF
 * folders also get {@code ctf count}); those that do not exist are left out, so a checkout without the shared
 * fixtures still trains on the example. Output goes to standard output; a failing command fails the training.
 */
public final class AotTraining {
    private AotTraining() {}

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: AotTraining KINETO_JSON [TRACE...]");
            System.exit(2);
        }
        Path work = Files.createTempDirectory("hetscope-aot-training");
        try {
            List<String[]> commands = new ArrayList<>();
            int n = 0;
            for (String trace : args) {
                if (!Files.exists(Path.of(trace))) {
                    System.out.println("training: " + trace + " not found, left out");
                    continue;
                }
                String store = work.resolve("t" + n++ + ".duckdb").toString();
                commands.add(new String[] {"import", trace, "-o", store});
                commands.add(new String[] {"info", store});
                commands.add(new String[] {"stats", store});
                commands.add(new String[] {"sql", store, "select category, count(*), sum(dur) from slice group by 1"});
                if (Files.isRegularFile(Path.of(trace, "metadata"))) {
                    commands.add(new String[] {"ctf", "count", trace});
                }
            }
            PrintStream out = System.out;
            for (String[] command : commands) {
                out.println("training: hetscope " + String.join(" ", command));
                int code = Main.run(command);
                if (code != 0) {
                    System.err.println("training: exit code " + code + " from hetscope " + String.join(" ", command));
                    System.exit(1);
                }
            }
        } finally {
            try (Stream<Path> files = Files.list(work)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(work);
        }
    }
}
