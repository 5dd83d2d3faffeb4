package org.hetscope.formats.rocpd.rocprof;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hetscope.model.Category;
import org.hetscope.model.Device;
import org.hetscope.model.DeviceKind;
import org.hetscope.model.Dim3;
import org.hetscope.model.Entity;
import org.hetscope.model.JsonText;
import org.hetscope.model.KernelCounter;
import org.hetscope.model.KernelLaunch;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceFormat;
import org.hetscope.model.TraceFormatException;
import org.hetscope.model.TraceSink;
import org.hetscope.model.TrackTree;
import org.hetscope.model.TrackKind;

/**
 * Imports a rocprof v1/v2 {@code results.csv}. With timestamps (rocprof {@code --timestamp on}) it is a trace on
 * its own: one kernel slice per dispatch with its counters. Without them it has no time line, so its dispatches
 * are stored as rows of {@link #DISPATCH_TABLE} and {@link #COUNTER_TABLE}, which the standard library's
 * {@code hs_rocprof_join} joins to the kernels of a trace imported into the same store
 * ({@code hetscope import trace.json results.csv -o S}); {@code hetscope counters STORE --join results.csv} loads
 * the same rows into its session only.
 */
public final class RocprofCsvFormat implements TraceFormat {
    /** One row per dispatch line; {@code kernel} is the name without rocprof's decorations. */
    public static final String DISPATCH_TABLE = RocprofTables.DISPATCH.name();
    /** One row per counter value of a dispatch line; {@code position} orders a line's counters as its columns. */
    public static final String COUNTER_TABLE = RocprofTables.DISPATCH_COUNTER.name();

    @Override
    public String name() {
        return "rocprof-csv";
    }

    @Override
    public boolean accepts(Path input) throws IOException {
        return RocprofCsv.looksLike(input);
    }

    @Override
    public void read(Path input, TraceSink sink, Progress progress) throws IOException, TraceFormatException {
        List<RocprofCsv.Dispatch> dispatches = RocprofCsv.read(input);
        for (RocprofCsv.Dispatch d : dispatches) {
            if (d.begin() == null || d.end() == null) {
                writeDispatches(dispatches, sink);
                return;
            }
        }
        TrackTree tracks = new TrackTree(sink);
        JsonText args = new JsonText();
        boolean counted = false;
        for (RocprofCsv.Dispatch d : dispatches) {
            int gpu = d.gpu() == null ? 0 : d.gpu();
            TrackTree.Node device = tracks.root(TrackKind.DEVICE, gpu, n -> {
                long id = sink.newId(Entity.DEVICE);
                sink.device(new Device(id, DeviceKind.GPU, gpu, "AMD", "gpu-id " + gpu, null, null, d.waveSize(),
                        null, null, null, null));
                n.name("GPU " + gpu).device(id).sortIndex(gpu);
            });
            long dev = device.deviceId();
            long queue = device.child(TrackKind.QUEUE, d.queue(), n -> n.name("Queue " + d.queue()).stream(d.queue())
                    .sortIndex(tracks.count(TrackKind.QUEUE))).id();
            long id = sink.newId(Entity.SLICE);
            args.reset().put("index", d.index()).put("kernelName", d.kernelName());
            sink.slice(new Slice(id, queue, d.begin(), Math.max(0, d.end() - d.begin()),
                    RocprofCsv.baseName(d.kernelName()), Category.KERNEL, "rocprof", -1, null, args.toString()));
            sink.kernel(new KernelLaunch(id, dev, d.queue(), null, d.grid() == null ? null : new Dim3(d.grid(), 1, 1),
                    d.workgroup() == null ? null : new Dim3(d.workgroup(), 1, 1), d.vgpr(), d.lds(), null));
            for (Map.Entry<String, Double> c : d.counters().entrySet()) {
                sink.kernelCounter(new KernelCounter(id, c.getKey(), c.getValue()));
                counted = true;
            }
        }
        if (counted) {
            sink.info("serialized_by_profiler", "true");
        }
    }

    /** Writes the dispatches as rows of {@link #DISPATCH_TABLE} and {@link #COUNTER_TABLE}. */
    public static void writeDispatches(List<RocprofCsv.Dispatch> dispatches, TraceSink sink) {
        sink.defineTable(RocprofTables.DISPATCH);
        sink.defineTable(RocprofTables.DISPATCH_COUNTER);
        for (RocprofCsv.Dispatch d : dispatches) {
            sink.row(RocprofTables.DISPATCH, d.line(), d.index(), RocprofCsv.baseName(d.kernelName()), d.kernelName(), d.gpu(),
                    d.queue(), d.begin(), d.end());
            int position = 0;
            for (Map.Entry<String, Double> c : d.counters().entrySet()) {
                sink.row(RocprofTables.DISPATCH_COUNTER, d.line(), position++, c.getKey(), c.getValue());
            }
        }
    }
}
