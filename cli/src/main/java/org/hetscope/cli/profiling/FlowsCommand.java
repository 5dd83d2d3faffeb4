package org.hetscope.cli.profiling;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hetscope.analysis.profiling.ActivityFlows;
import org.hetscope.analysis.profiling.SyncArrows;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.store.Store;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hetscope flows STORE}: API -> GPU activity arrows and synchronisation arrows, with their rules. */
@Command(name = "flows", description = "API call -> GPU activity arrows (correlation id, else launch order per "
        + "stream, else launch order per process; guesses marked) and synchronisation arrows.")
public final class FlowsCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "STORE", description = "A store written by 'hetscope import'.")
    Path file;

    @Option(names = "--tolerance", paramLabel = "DURATION", defaultValue = "1us",
            converter = org.hetscope.cli.TraceTime.DurationConverter.class,
            description = "How long an activity may seem to start before the call that launched it, and the sync "
                    + "arrows' tolerance: 1us, 500ns (a bare number is ns; default: ${DEFAULT-VALUE}).")
    long tolerance;

    @Option(names = "--sync", description = "Print the synchronisation arrows instead of launch arrows.")
    boolean sync;

    @Option(names = "--summary", description = "Print only the number of arrows per rule.")
    boolean summary;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        try (Store store = Store.open(file)) {
            if (sync) {
                TablePrinter.print(System.out, output.style(), new SyncArrows(tolerance).table(store),
                        org.hetscope.cli.TraceTime.traceBounds(store)[0]);
            } else {
                ActivityFlows flows = new ActivityFlows(store, tolerance);
                TablePrinter.print(System.out, output.style(), summary ? flows.summary() : flows.table(),
                        org.hetscope.cli.TraceTime.traceBounds(store)[0]);
            }
        }
        return 0;
    }

}
