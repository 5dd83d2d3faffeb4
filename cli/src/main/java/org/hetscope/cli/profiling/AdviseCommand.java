package org.hetscope.cli.profiling;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hetscope.analysis.profiling.Advisor;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.store.Store;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code hetscope advise STORE}: performance advice with the evidence behind each item. */
@Command(name = "advise", description = "Performance advice with evidence: work-group size, VALU utilisation, "
        + "launch-bound runs, idle GPU, transfer-bound, pageable copies, serialised streams, profiler serialisation.")
public final class AdviseCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "STORE")
    Path file;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        try (Store store = Store.open(file)) {
            TablePrinter.print(System.out, output.style(), new Advisor(store).table());
        }
        return 0;
    }
}
