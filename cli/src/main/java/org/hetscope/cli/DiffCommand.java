package org.hetscope.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.hetscope.analysis.gpu.diff.TraceDiff;
import org.hetscope.cli.web.StoreOpener;
import org.hetscope.store.Store;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hetscope diff A B}: what changed from run A to run B, per operation, iteration and device
 * (analysis/gpu's {@link TraceDiff}; definitions: docs/stdlib.md, docs/cli.md).
 */
@Command(name = "diff", description = "Compare two runs (stores, or traces imported to temporary stores): per "
        + "category and name count, total, mean, p50, p95 of each run, the change, a Mann-Whitney U test of the "
        + "durations and the share of the change, largest change first; per iteration (ProfilerStep#N, else NVTX ranges named like 'iteration N'); "
        + "utilisation and idle time per device.")
public final class DiffCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "A", description = "The first run (the baseline): a store or a trace.")
    Path first;

    @Parameters(index = "1", paramLabel = "B", description = "The second run: a store or a trace.")
    Path second;

    @Option(names = "--alpha", defaultValue = "0.05", description = "Significance level of the U test: a row of "
            + "both runs is 'slower' or 'faster' when its p-value is below it, else 'same' (default: ${DEFAULT-VALUE}).")
    double alpha;

    @Option(names = "--changed", description = "Only the operations whose status is not 'same'.")
    boolean changed;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!(alpha > 0 && alpha < 1)) {
            throw new ParameterException(spec.commandLine(), "--alpha must lie between 0 and 1, not " + alpha);
        }
        try (Store a = StoreOpener.open(first); Store b = StoreOpener.open(second)) {
            TraceDiff diff = new TraceDiff(a, b, alpha);
            var operations = diff.operations();
            if (changed) {
                int status = operations.column("status");
                operations = new org.hetscope.store.Table(operations.title(), operations.columns(),
                        operations.rows().stream().filter(r -> !TraceDiff.SAME.equals(r[status])).toList());
            }
            TablePrinter.print(System.out, output.style(), List.of(operations, diff.iterations(), diff.utilisation()));
        }
        return 0;
    }
}
