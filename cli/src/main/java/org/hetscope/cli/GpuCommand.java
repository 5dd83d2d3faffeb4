package org.hetscope.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.hetscope.analysis.gpu.LaunchLatency;
import org.hetscope.analysis.gpu.Utilisation;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code hetscope gpu FILE}: utilisation per device and per stream or worker, concurrency, and launch latency along
 * API-to-kernel flows, as the standard library defines them (docs/stdlib.md).
 */
@Command(name = "gpu", description = "Device utilisation per device and per stream, queue or worker (busy, compute "
        + "= kernels and tasks, copies, overlap, idle, concurrency) and launch latency per API function. "
        + "Definitions: docs/stdlib.md.")
public final class GpuCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE")
    Path file;

    @Mixin
    TimeWindow window;

    @Option(names = "--per-flow", description = "Print the launch latency of every flow instead of summaries.")
    boolean perFlow;

    @Option(names = "--latency-histogram", description = "Print the launch latencies of all flows counted in "
            + "buckets (1-2-5 per decade from 1 us) instead of summaries.")
    boolean histogram;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        try (Store store = Store.open(file)) {
            Utilisation utilisation = new Utilisation(store);
            long[] span = utilisation.defaultWindow();
            long[] bounds = TraceTime.traceBounds(store);
            long[] w = window.resolve(bounds, span[0], span[1]);
            long w0 = w[0];
            long w1 = w[1];
            List<Table> tables = new ArrayList<>();
            LaunchLatency latency = new LaunchLatency(store);
            if (perFlow) {
                tables.add(latency.perFlow());
            } else if (histogram) {
                tables.add(latency.histogram());
            } else {
                tables.add(utilisation.table(w0, w1, false));
                tables.add(utilisation.table(w0, w1, true));
                tables.add(utilisation.concurrency(w0, w1));
                tables.add(latency.table());
            }
            TablePrinter.print(System.out, output.style(), tables, bounds[0]);
            if ("true".equals(store.info().get("serialized_by_profiler"))) {
                System.err.println("hetscope: warning: the profiler serialised kernels in this trace;"
                        + " busy time and concurrency are not those of an unprofiled run");
            }
        }
        return 0;
    }
}
