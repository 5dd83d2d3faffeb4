package org.hetscope.cli.profiling;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hetscope.analysis.profiling.DeviceProfile;
import org.hetscope.analysis.profiling.KernelCounters;
import org.hetscope.analysis.profiling.Roofline;
import org.hetscope.cli.OutputOptions;
import org.hetscope.cli.TablePrinter;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hetscope roofline STORE --device-profile F}: roofline points and bounds per kernel dispatch. */
@Command(name = "roofline", description = "Roofline per kernel dispatch: arithmetic intensity, performance, "
        + "attainable performance, memory or compute bound, efficiency.")
public final class RooflineCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "STORE")
    Path file;

    @Option(names = "--device-profile", paramLabel = "FILE", description = "Properties file: peakFlops, "
            + "peakBandwidth (override the trace's device metadata), flops and bytes (counter names or expressions).")
    Path profile;

    @Option(names = "--flops", paramLabel = "EXPR", description = "Counter expression giving a dispatch's FLOPs.")
    String flops;

    @Option(names = "--bytes", paramLabel = "EXPR", description = "Counter expression giving a dispatch's bytes.")
    String bytes;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        DeviceProfile p = profile == null ? new DeviceProfile(null, null, null, null) : DeviceProfile.read(profile);
        String f = flops != null ? flops : p.flops();
        String b = bytes != null ? bytes : p.bytes();
        if (f == null || b == null) {
            System.err.println("hetscope: say which counters give flops and bytes (--flops/--bytes or the profile)");
            return 2;
        }
        try (Store store = Store.open(file)) {
            Double peakFlops = p.peakFlops();
            Double peakBandwidth = p.peakBandwidth();
            Table dev = store.query("SELECT max(peak_flops), max(peak_bandwidth) FROM device WHERE kind = 'GPU'");
            if (peakFlops == null && dev.size() > 0 && dev.rows().get(0)[0] != null) {
                peakFlops = ((Number) dev.rows().get(0)[0]).doubleValue();
            }
            if (peakBandwidth == null && dev.size() > 0 && dev.rows().get(0)[1] != null) {
                peakBandwidth = ((Number) dev.rows().get(0)[1]).doubleValue();
            }
            if (peakFlops == null || peakBandwidth == null) {
                System.err.println("hetscope: the trace has no peak FLOP/s or bandwidth for its GPU; give them in "
                        + "--device-profile (peakFlops=..., peakBandwidth=...)");
                return 2;
            }
            Roofline roof = new Roofline(peakFlops, peakBandwidth);
            KernelCounters kc = KernelCounters.load(store);
            try {
                TablePrinter.print(System.out, output.style(), roof.table(roof.points(kc, f, b)));
            } catch (IllegalArgumentException e) {
                System.err.println("hetscope: " + e.getMessage());
                return 2;
            }
        }
        return 0;
    }
}
