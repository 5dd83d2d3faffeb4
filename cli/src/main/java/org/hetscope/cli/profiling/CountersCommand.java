package org.hetscope.cli.profiling;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.hetscope.analysis.profiling.CounterCsvJoin;
import org.hetscope.analysis.profiling.KernelCounters;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hetscope counters STORE}: per-kernel counter table, derived counters, drill-down, step series. */
@Command(name = "counters", description = "Hardware counters per kernel (count, mean, min, max), per dispatch, "
        + "or as a step series; derived counters from expressions; join a rocprof results.csv to the trace.")
public final class CountersCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "STORE")
    Path file;

    @Option(names = {"-d", "--derive"}, paramLabel = "NAME=EXPR",
            description = "Derived counter, e.g. 'VALUUtil=100*VALUBusy/GRBM_GUI_ACTIVE' (+ - * / and parentheses).")
    List<String> derived = new ArrayList<>();

    @Option(names = "--dispatches", description = "Print every dispatch with its exact values (drill-down).")
    boolean dispatches;

    @Option(names = "--series", paramLabel = "COUNTER", description = "Print the step series of one counter.")
    String series;

    @Option(names = "--join", paramLabel = "CSV", description = "Join a rocprof v1/v2 results.csv to the kernels.")
    Path join;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        try (Store store = Store.open(file)) {
            if (join != null) {
                CounterCsvJoin.load(store, join);
                Table t = CounterCsvJoin.table(store);
                TablePrinter.print(System.out, output.style(), t);
                return 0;
            }
            KernelCounters kc = KernelCounters.load(store);
            if (kc.dispatches().isEmpty()) {
                System.err.println("hetscope: " + file + " has no kernel counters");
                return 1;
            }
            for (String d : derived) {
                try {
                    kc.derive(d);
                } catch (IllegalArgumentException e) {
                    System.err.println("hetscope: " + e.getMessage());
                    return 2;
                }
            }
            Table t = series != null ? kc.series(series, Long.MIN_VALUE, Long.MAX_VALUE)
                    : dispatches ? kc.perDispatch() : kc.perKernel();
            TablePrinter.print(System.out, output.style(), t, org.hetscope.cli.TraceTime.traceBounds(store)[0]);
            kc.warnings().forEach(w -> System.err.println("hetscope: warning: " + w));
            if (!kc.overlapped().isEmpty()) {
                System.err.println("hetscope: warning: " + kc.overlapped().size() + " counted kernels overlapped "
                        + "another kernel on their device; their device-wide counters are mixed (see --dispatches)");
            }
        }
        return 0;
    }
}
