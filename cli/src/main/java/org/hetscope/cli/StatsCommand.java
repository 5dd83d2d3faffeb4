package org.hetscope.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.hetscope.analysis.gpu.DurationStatistics;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code hetscope stats FILE}: duration statistics per kernel, API function, memory-operation kind and task codelet,
 * as the standard library defines them (docs/stdlib.md).
 */
@Command(name = "stats", description = "Duration statistics per kernel name, API function, memcpy/memset kind and "
        + "task codelet per worker kind (definitions: docs/stdlib.md; also 'hetscope sql FILE \"select * from "
        + "hs_slice_stats\"').")
public final class StatsCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE")
    Path file;

    @Option(names = "--kernels", description = "Only the kernel table.")
    boolean kernels;

    @Option(names = "--api", description = "Only the API table.")
    boolean api;

    @Option(names = "--memory", description = "Only the memcpy/memset table.")
    boolean memory;

    @Option(names = "--codelets", description = "Only the task codelet table (task runtimes such as StarPU).")
    boolean codelets;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        boolean all = !kernels && !api && !memory && !codelets;
        try (Store store = Store.open(file)) {
            DurationStatistics stats = new DurationStatistics(store);
            List<Table> tables = new ArrayList<>();
            if (all || kernels) {
                tables.add(stats.kernels());
            }
            if (all || api) {
                tables.add(stats.apiCalls());
            }
            if (all || memory) {
                tables.add(stats.memoryOperations());
            }
            if (codelets || all && stats.hasTasks()) {
                tables.add(stats.codelets());
            }
            TablePrinter.print(System.out, output.style(), tables);
            if ("true".equals(store.info().get("serialized_by_profiler"))) {
                System.err.println("hetscope: warning: this trace has hardware counters; the profiler serialised"
                        + " the kernels, so durations and concurrency differ from an unprofiled run");
            }
        }
        return 0;
    }
}
