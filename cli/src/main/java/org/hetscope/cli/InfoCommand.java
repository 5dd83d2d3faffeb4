package org.hetscope.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hetscope.analysis.gpu.TraceOverview;
import org.hetscope.store.Store;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code hetscope info FILE}: what a store holds. */
@Command(name = "info", description = "Devices, tracks, time span, event counts and skipped items of a store.")
public final class InfoCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE")
    Path file;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        try (Store store = Store.open(file)) {
            TablePrinter.print(System.out, output.style(), new TraceOverview(store).tables());
        }
        return 0;
    }
}
