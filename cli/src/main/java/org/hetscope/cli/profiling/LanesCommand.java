package org.hetscope.cli.profiling;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hetscope.analysis.profiling.LaneTree;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.store.Store;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hetscope lanes STORE}: the system view's lane tree (GPU -> stream, API -> thread, transfers). */
@Command(name = "lanes", description = "System view lane tree: GPU -> queue/stream, API family -> thread, memory "
        + "transfers, with sub-lanes for overlapping intervals.")
public final class LanesCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "STORE")
    Path file;

    @Option(names = "--placements", description = "Print where each slice is drawn (lane, sub-lane, depth).")
    boolean placements;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        try (Store store = Store.open(file)) {
            LaneTree tree = LaneTree.of(store);
            TablePrinter.print(System.out, output.style(), placements ? tree.placementsTable() : tree.lanesTable());
        }
        return 0;
    }
}
