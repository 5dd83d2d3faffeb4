package org.hetscope.cli.profiling;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hetscope.analysis.profiling.Advisor;
import org.hetscope.analysis.profiling.DeviceProfile;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.store.Store;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hetscope advise STORE}: performance advice with the evidence behind each item. */
@Command(name = "advise", description = "Performance advice with evidence: work-group size, VALU utilisation, "
        + "launch-bound runs, idle GPU, transfer-bound, pageable copies, serialised streams, profiler serialisation.")
public final class AdviseCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "STORE")
    Path file;

    @Option(names = "--warp-size", paramLabel = "N", description = "Warp/wavefront size of the devices, for traces "
            + "that do not say (a rocprof results.csv without wave_size); replaces the trace's value.")
    Integer warpSize;

    @Option(names = "--device-profile", paramLabel = "FILE", description = "Properties file with warpSize "
            + "(as --warp-size, which wins when both are given).")
    Path profile;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        Integer warp = warpSize;
        if (warp == null && profile != null) {
            warp = DeviceProfile.read(profile).warpSize();
        }
        if (warp != null && warp <= 0) {
            System.err.println("hetscope: --warp-size must be positive, got " + warp);
            return 2;
        }
        try (Store store = Store.open(file)) {
            TablePrinter.print(System.out, output.style(), new Advisor(store, warp).table());
        }
        return 0;
    }
}
