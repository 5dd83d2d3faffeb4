package org.hetscope.formats.ctf.mapping;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.formats.ctf.CtfEvent;
import org.hetscope.model.FlowLinker;
import org.hetscope.model.SkipReason;
import org.hetscope.model.SkipTally;
import org.hetscope.model.SliceStack;
import org.hetscope.model.Category;
import org.hetscope.model.Dim3;
import org.hetscope.model.Entity;
import org.hetscope.model.KernelCounter;
import org.hetscope.model.KernelLaunch;
import org.hetscope.model.Slice;
import org.hetscope.model.TrackKind;
import org.hetscope.model.Transfer;
import org.hetscope.model.TransferKind;

/**
 * The ROCm profiler's CTF schema (rocprofv3 through babeltrace2): {@code *_region_event_start/end} become API
 * slices per thread and API family, {@code kernel_dispatch_event_start/end} kernel slices on agent/queue tracks
 * with {@link KernelLaunch} attributes and correlation-id flows from the launching API call,
 * {@code memory_copy_event_*} transfers, {@code memory_allocation_event_*} allocation slices and
 * {@code counter_collection_event} per-dispatch counters.
 */
final class RocmMapper implements EventMapper {
    private static final String REGION = "_region_event_";

    private final TrackRegistry tracks;
    private final ArgsJson args = new ArgsJson();
    private final SkipTally skips = new SkipTally();
    /**
     * Open starts by kind and id. A slice is built from its end event, so a start never ended is not stored
     * ({@link SliceStack#discardAll}).
     */
    private final SliceStack<String, Opened> open = new SliceStack<>(skips, "ROCm start event", "ROCm end event");

    /** A start event waiting for its end: the slice id reserved for it, its time and its fields as args. */
    private record Opened(long sliceId, long ts, String args) {}
    /** API calls by correlation id (unique in the trace: one process); kernels are linked at the end. */
    private final FlowLinker flows;
    private final Map<Long, Long> kernelByCorrelation = new HashMap<>();
    private final Map<Long, Long> kernelByDispatch = new HashMap<>();
    private final List<Object[]> pendingCounters = new ArrayList<>();

    RocmMapper(TrackRegistry tracks) {
        this.tracks = tracks;
        this.flows = new FlowLinker(tracks.sink, false, 0);
    }

    static String family(String prefix) {
        return switch (prefix) {
            case "hip_runtime" -> "HIP runtime";
            case "hip_compiler" -> "HIP compiler";
            case "hsa_core" -> "HSA core";
            case "hsa_amd_ext" -> "HSA AMD ext";
            case "marker_core" -> "markers";
            default -> prefix;
        };
    }

    @Override
    public boolean map(CtfEvent e) {
        String name = e.name();
        int r = name.indexOf(REGION);
        if (r > 0) {
            region(e, name.substring(0, r), name.endsWith("start"));
            return true;
        }
        switch (name) {
            case "kernel_dispatch_event_start", "kernel_dispatch_event_end" -> kernel(e, name.endsWith("start"));
            case "memory_copy_event_start", "memory_copy_event_end" -> copy(e, name.endsWith("start"));
            case "memory_allocation_event_start", "memory_allocation_event_end" -> allocation(e, name.endsWith("start"));
            case "counter_collection_event" -> pendingCounters.add(new Object[] {e.getLong("dispatch_id"),
                e.getString("counter_name"), e.getDouble("value")});
            default -> {
                return false;
            }
        }
        return true;
    }

    /**
     * Pairs start and end events by key: remembers a start (and returns null), or returns the start an end closes
     * (null, counted, when there is none).
     */
    private Opened pair(String key, CtfEvent e, boolean isStart) {
        if (isStart) {
            open.begin(key, new Opened(tracks.sink.newId(Entity.SLICE), e.timestampNs(), args.of(e)));
            return null;
        }
        Opened s = open.endAndForget(key);
        if (s == null) {
            open.unmatchedEnd(e.streamFile() + " at " + e.timestampNs() + " ns");
        }
        return s;
    }

    private void region(CtfEvent e, String prefix, boolean isStart) {
        String key = "region/" + prefix + "/" + e.getLong("region_id");
        Opened s = pair(key, e, isStart);
        if (s == null) {
            return;
        }
        String pkey = Long.toString(e.getLong("pid"));
        long track = tracks.apiTrack(pkey, e.getLong("tid"), family(prefix));
        long corr = e.getLong("correlation_id", 0);
        if (corr != 0 && !prefix.equals("marker_core")) {
            flows.call(FlowLinker.ONE_PROCESS, corr, s.sliceId());
        }
        tracks.sink.slice(new Slice(s.sliceId(), track, s.ts(), Math.max(0, e.timestampNs() - s.ts()), e.getString("name"),
                prefix.equals("marker_core") ? Category.ANNOTATION : Category.API, prefix, -1,
                corr != 0 ? corr : null, s.args()));
    }

    private void kernel(CtfEvent e, boolean isStart) {
        long dispatch = e.getLong("dispatch_id");
        String key = "kernel/" + dispatch;
        Opened s = pair(key, e, isStart);
        if (s == null) {
            return;
        }
        long agent = e.getLong("agent_abs_index");
        String type = e.getString("agent_type");
        long queue = e.getLong("queue_id");
        long track = tracks.deviceChild(agent, type, TrackKind.QUEUE, "queue " + queue, queue);
        long corr = e.getLong("correlation_id", 0);
        long device = tracks.device(agent, type);
        kernelByDispatch.put(dispatch, s.sliceId());
        if (corr != 0) {
            kernelByCorrelation.put(corr, s.sliceId());
        }
        tracks.sink.slice(new Slice(s.sliceId(), track, s.ts(), Math.max(0, e.timestampNs() - s.ts()), e.getString("name"),
                Category.KERNEL, "kernel_dispatch", 0, corr != 0 ? corr : null, s.args()));
        long lds = e.getLong("lds_size", 0);
        long staticLds = e.getLong("static_lds_size", 0);
        tracks.sink.kernel(new KernelLaunch(s.sliceId(), device, queue, corr != 0 ? corr : null,
                new Dim3(e.getLong("grid_size_x"), e.getLong("grid_size_y"), e.getLong("grid_size_z")),
                new Dim3(e.getLong("workgroup_size_x"), e.getLong("workgroup_size_y"), e.getLong("workgroup_size_z")),
                null, staticLds, Math.max(0, lds - staticLds)));
    }

    private static TransferKind kind(String src, String dst) {
        boolean sg = "GPU".equalsIgnoreCase(src);
        boolean dg = "GPU".equalsIgnoreCase(dst);
        if (src == null || dst == null) {
            return TransferKind.UNKNOWN;
        }
        return sg ? (dg ? TransferKind.DTOD : TransferKind.DTOH) : (dg ? TransferKind.HTOD : TransferKind.HTOH);
    }

    private void copy(CtfEvent e, boolean isStart) {
        String key = "copy/" + e.getLong("copy_id");
        Opened s = pair(key, e, isStart);
        if (s == null) {
            return;
        }
        String srcType = e.getString("src_agent_type");
        String dstType = e.getString("dst_agent_type");
        long src = e.getLong("src_agent_abs_index");
        long dst = e.getLong("dst_agent_abs_index");
        long srcDev = tracks.device(src, srcType);
        long dstDev = tracks.device(dst, dstType);
        boolean onDst = "GPU".equalsIgnoreCase(dstType) || !"GPU".equalsIgnoreCase(srcType);
        long track = onDst ? tracks.deviceChild(dst, dstType, TrackKind.TRANSFERS, "copies", null)
                : tracks.deviceChild(src, srcType, TrackKind.TRANSFERS, "copies", null);
        long dur = Math.max(0, e.timestampNs() - s.ts());
        long corr = e.getLong("correlation_id", 0);
        TransferKind kind = kind(srcType, dstType);
        tracks.sink.slice(new Slice(s.sliceId(), track, s.ts(), dur, e.getString("name"), Category.MEMCPY, "memory_copy", 0,
                corr != 0 ? corr : null, s.args()));
        tracks.sink.transfer(new Transfer(tracks.sink.newId(Entity.TRANSFER), s.sliceId(), s.ts(), dur, e.getLong("size"), kind,
                srcDev, dstDev, null, null, null, corr != 0 ? corr : null));
        if (corr != 0) {
            kernelByCorrelation.putIfAbsent(corr, s.sliceId());
        }
    }

    private void allocation(CtfEvent e, boolean isStart) {
        String key = "alloc/" + e.getLong("allocation_id");
        Opened s = pair(key, e, isStart);
        if (s == null) {
            return;
        }
        long agent = e.getLong("agent_abs_index");
        String type = e.getString("agent_type");
        long track = tracks.deviceChild(agent, type, TrackKind.MEMORY_NODE, "memory allocations", null);
        long corr = e.getLong("correlation_id", 0);
        tracks.sink.slice(new Slice(s.sliceId(), track, s.ts(), Math.max(0, e.timestampNs() - s.ts()),
                e.getString("allocation_type") + " " + e.getLong("size") + " B", Category.ALLOC, "memory_allocation",
                -1, corr != 0 ? corr : null, s.args()));
    }

    @Override
    public void finish(long endNs) {
        for (Map.Entry<Long, Long> en : kernelByCorrelation.entrySet()) {
            flows.activity(FlowLinker.ONE_PROCESS, en.getKey(), en.getValue(), "launch");
        }
        long orphan = 0;
        for (Object[] c : pendingCounters) {
            Long slice = kernelByDispatch.get((Long) c[0]);
            if (slice == null) {
                orphan++;
            } else {
                tracks.sink.kernelCounter(new KernelCounter(slice, (String) c[1], (Double) c[2]));
            }
        }
        if (orphan > 0) {
            tracks.sink.skipped(SkipReason.UNKNOWN_REFERENCE, "counter_collection_event of an unknown dispatch",
                    "ROCm counters", orphan);
        }
        open.discardAll("end of trace");
        skips.flushTo(tracks.sink);
    }
}
