package org.hetscope.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The training runs behind the ahead-of-time caches that {@code build.sh} makes on JDK 25 and newer
 * ({@code -XX:AOTCacheOutput}): each runs a family of everyday commands once, in one JVM, so that its cache holds
 * the classes they load, already linked, and the profiles of their hot methods. Later starts of {@code ./hetscope}
 * map the cache of the command's family instead of loading, verifying and profiling the same code again. A cache
 * per family stays small: mapping one that holds every command's classes slows every command's start
 * (docs/performance.md, "CLI start-up").
 *
 * <p>Arguments: the family ({@code all}, {@code import}, {@code query} for info/stats/sql, {@code ctf}), a work
 * folder for the stores, the bundled Kineto example, then any number of further traces; traces that do not exist
 * are left out, so a checkout without the shared fixtures still trains on the example. {@code all} and
 * {@code import} write the stores {@code t0.duckdb, t1.duckdb, ...} into the work folder; {@code query} reads the
 * ones there. Output goes to standard output; a failing command fails the training.
 */
public final class AotTraining {
    private AotTraining() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: AotTraining all|import|query|ctf WORK_DIR KINETO_JSON [TRACE...]");
            System.exit(2);
        }
        String family = args[0];
        Path work = Path.of(args[1]);
        Files.createDirectories(work);
        List<String[]> commands = new ArrayList<>();
        boolean all = family.equals("all");
        int n = 0;
        for (int i = 2; i < args.length; i++) {
            String trace = args[i];
            if (!Files.exists(Path.of(trace))) {
                System.out.println("training: " + trace + " not found, left out");
                continue;
            }
            String store = work.resolve("t" + n++ + ".duckdb").toString();
            if (all || family.equals("import")) {
                commands.add(new String[] {"import", trace, "-o", store});
            }
            if ((all || family.equals("query")) && Files.exists(Path.of(store))) {
                commands.add(new String[] {"info", store});
                commands.add(new String[] {"stats", store});
                commands.add(new String[] {"sql", store, "select category, count(*), sum(dur) from slice group by 1"});
            }
            if ((all || family.equals("ctf")) && Files.isRegularFile(Path.of(trace, "metadata"))) {
                commands.add(new String[] {"ctf", "count", trace});
            }
        }
        if (commands.isEmpty()) {
            System.err.println("training: nothing to run for family '" + family + "'");
            System.exit(1);
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
    }
}
