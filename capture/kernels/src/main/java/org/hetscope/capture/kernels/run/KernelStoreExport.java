package org.hetscope.capture.kernels.run;

import java.util.List;
import java.util.Map;
import org.hetscope.capture.kernels.cfg.BasicBlock;
import org.hetscope.capture.kernels.cfg.Cfg;
import org.hetscope.capture.kernels.instrument.KernelScope;
import org.hetscope.capture.kernels.instrument.Tracepoints;
import org.hetscope.capture.kernels.trace.PathStatistics;
import org.hetscope.model.SkipReason;
import org.hetscope.model.Category;
import org.hetscope.model.Device;
import org.hetscope.model.DeviceKind;
import org.hetscope.model.Dim3;
import org.hetscope.model.Entity;
import org.hetscope.model.KernelCounter;
import org.hetscope.model.KernelLaunch;
import org.hetscope.model.Slice;
import org.hetscope.model.TrackTree;
import org.hetscope.model.TrackKind;
import org.hetscope.model.TraceSink;

/**
 * Puts instrumented launches into the hetscope model: the OpenCL device and its queue, one kernel slice per
 * launch (device times from the profiling events), counters as kernel counters, and the kernel-specific
 * tables documented in docs/schema.md ("Kernel instrumentation").
 */
public final class KernelStoreExport {
    private final TraceSink sink;
    private final long trackId;
    private final long deviceId;

    public KernelStoreExport(TraceSink sink, OpenClSession session) {
        this.sink = sink;
        deviceId = sink.newId(Entity.DEVICE);
        sink.device(new Device(deviceId, session.deviceName().toLowerCase().contains("gpu") ? DeviceKind.GPU
                : DeviceKind.CPU, 0, session.vendor(), session.deviceName(), session.computeUnits(),
                session.memoryBytes(), null, null, null, null, Map.of("opencl.version", session.version())));
        trackId = new TrackTree(sink).root(TrackKind.DEVICE, 0L, n -> n.name(session.deviceName()).device(deviceId))
                .child(TrackKind.QUEUE, 0L, n -> n.name("queue 0").stream(0L)).id();
        sink.info("capture.kernels.device", session.deviceName());
        KernelTables.ALL.forEach(sink::defineTable);
    }

    private long slice(String name, NdRange range, long start, long dur, String args) {
        long id = sink.newId(Entity.SLICE);
        sink.slice(new Slice(id, trackId, start, Math.max(0, dur), name, Category.KERNEL, "opencl", -1, null, args));
        Dim3 block = range.local() == null ? null : new Dim3(range.dim(range.local(), 0), range.dim(range.local(), 1),
                range.dim(range.local(), 2));
        Dim3 grid = block == null ? null : new Dim3(range.dim(range.global(), 0) / block.x(),
                range.dim(range.global(), 1) / block.y(), range.dim(range.global(), 2) / block.z());
        sink.kernel(new KernelLaunch(id, deviceId, 0L, null, grid, block, null, null, null));
        return id;
    }

    private void sourceLines(long sliceId, String file, String annotated) {
        String[] lines = annotated.split("\n", -1);
        for (int l = 0; l < lines.length; l++) {
            sink.row(KernelTables.SOURCE_LINE, sliceId, file, l + 1, lines[l]);
        }
    }

    /** Records a counted launch and its annotated source; returns the slice id. */
    public long counters(String kernel, String file, String source, CounterResult r) {
        long id = slice(kernel, r.range(), r.timing().start(), r.timing().duration(),
                "{\"instrumentation\":\"counters\",\"instrumented\":" + r.instrumented() + "}");
        for (CounterReport.Row row : CounterReport.rows(r)) {
            String name = row.construct() == null ? row.label() : "visits " + row.construct() + " @" + row.line();
            sink.kernelCounter(new KernelCounter(id, name, row.value()));
            sink.row(KernelTables.COUNTER_SITE, id, row.index(), row.kind(), row.space(), row.construct(), row.file(),
                    row.line(), row.column(), row.value(), row.min(), row.max(), row.minItem(), row.maxItem());
        }
        if (r.warning() != null) {
            sink.skipped(SkipReason.NOT_CAPTURED, "uninstrumented kernel", file + ": " + r.warning(), 1);
        }
        sourceLines(id, file, CounterReport.annotate(file, source, r));
        return id;
    }

    /** Records a traced launch: summary, blocks (hot blocks), work-item paths and work-group divergence. */
    public long trace(String kernel, String file, TraceResult r) {
        long id = slice(kernel, r.range(), r.recordStart(), r.recordNanos(), "{\"instrumentation\":\"trace\",\"strategy\":\""
                + r.options().strategy() + "\",\"reduced\":" + r.options().reduced() + "}");
        Tracepoints pts = r.plan().points();
        sink.row(KernelTables.TRACE, id, r.options().strategy().name().toLowerCase(), r.options().reduced(),
                (long) r.producers(), r.totalRecords(), r.bytes(), r.lost(), r.valid(), pts.sites(),
                (long) r.failures().size(), r.recordNanos(), r.countNanos(), r.hostNanos());
        long[] groupOf = new long[r.producers()];
        for (int p = 0; p < groupOf.length; p++) {
            groupOf[p] = r.range().groupOf(p);
        }
        Cfg cfg = pts.cfg();
        PathStatistics stats = PathStatistics.of(cfg, r.paths(), groupOf);
        KernelScope scope = r.plan().scope();
        for (BasicBlock b : cfg.blocks()) {
            String succ = String.join(",", b.successors().stream()
                    .map(e -> (e.to() < 0 ? "exit" : "B" + e.to()) + ":" + e.kind().name().toLowerCase()).toList());
            String tp = pts.blockPoints().get(b.id()) ? "block" : b.successors().stream()
                    .anyMatch(e -> pts.edgePoints().get(e.id())) ? "edges" : "none";
            sink.row(KernelTables.BLOCK, id, b.id(), scope.pos(b.firstToken()).file(), scope.pos(b.firstToken()).line(),
                    scope.pos(b.lastToken()).line(), succ, tp, stats.executions()[b.id()], stats.workItems()[b.id()],
                    stats.divergentGroups()[b.id()]);
        }
        for (int p = 0; p < r.producers(); p++) {
            sink.row(KernelTables.WORK_ITEM_PATH, id, (long) p, groupOf[p],
                    r.paths()[p] == null ? null : r.paths()[p].length, r.records()[p].length,
                    stats.pathClass()[p] < 0 ? null : stats.pathClass()[p]);
        }
        for (PathStatistics.Group g : stats.groups()) {
            sink.row(KernelTables.WORK_GROUP, id, g.group(), g.workItems(), g.distinctPaths(), g.divergentBlocks(),
                    g.minLength(), g.maxLength());
        }
        if (!r.failures().isEmpty()) {
            sink.skipped(SkipReason.NOT_CAPTURED, "unrebuilt work-item path", file + ": " + r.failures().getFirst(),
                    r.failures().size());
        }
        return id;
    }

    /** Block ids by source line for readers of kernel_block. */
    public static List<String> describe(Cfg cfg) {
        return cfg.blocks().stream().map(BasicBlock::toString).toList();
    }
}
