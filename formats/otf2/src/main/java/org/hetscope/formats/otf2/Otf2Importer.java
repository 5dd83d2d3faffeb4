package org.hetscope.formats.otf2;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.model.SkipTally;
import org.hetscope.model.SliceStack;
import org.hetscope.model.SkipReason;
import org.hetscope.model.Category;
import org.hetscope.model.CounterSample;
import org.hetscope.model.Entity;
import org.hetscope.model.Flow;
import org.hetscope.model.FlowRule;
import org.hetscope.model.Instant;
import org.hetscope.model.JsonText;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceProcess;
import org.hetscope.model.TraceSink;
import org.hetscope.model.TraceThread;
import org.hetscope.model.TrackTree;
import org.hetscope.model.TrackKind;

/**
 * Turns a decoded {@link Otf2Archive} into model records: location groups become processes, locations threads
 * (or GPU streams), Enter/Leave pairs slices, metric events counter samples, and matched MPI send/receive pairs
 * flows between the enclosing calls.
 */
final class Otf2Importer {
    private final Otf2Archive archive;
    private final Otf2Definitions defs;
    private final TraceSink sink;
    /** Location groups -> locations (threads, or streams under the group's GPU) and metric counters. */
    private final TrackTree tracks;
    /** Sends waiting for their receive, keyed by sender, receiver, communicator and tag. */
    private final Map<String, Deque<Long>> pendingSends = new HashMap<>();
    private final List<Object[]> receives = new ArrayList<>();

    Otf2Importer(Otf2Archive archive, TraceSink sink) {
        this.archive = archive;
        this.defs = archive.defs;
        this.sink = sink;
        this.tracks = new TrackTree(sink);
    }

    /** Ticks since the global offset, in nanoseconds, without going through a double. */
    long nanos(long ticks) {
        long rel = ticks - defs.globalOffset;
        long res = defs.timerResolution;
        if (res == 1_000_000_000L) {
            return rel;
        }
        return Math.floorDiv(rel, res) * 1_000_000_000L + Math.floorMod(rel, res) * 1_000_000_000L / res;
    }

    void emit() {
        sink.info("otf2.version", archive.version);
        sink.info("otf2.creator", archive.creator);
        sink.info("otf2.timer_resolution", Long.toString(defs.timerResolution));
        sink.info("otf2.global_offset_ticks", Long.toString(defs.globalOffset));
        sink.info("clock", "ns since the OTF2 global offset");
        for (Otf2Definitions.LocationGroup g : defs.locationGroups.values()) {
            process(g.id(), g.name());
        }
        for (Otf2Definitions.Location loc : defs.locations.values()) {
            emitLocation(loc);
        }
        skips.flushTo(sink);
        for (Object[] recv : receives) {
            Deque<Long> q = pendingSends.get((String) recv[0]);
            Long from = q == null ? null : q.pollFirst();
            if (from != null) {
                sink.flow(new Flow(sink.newId(Entity.FLOW), from, (Long) recv[1], "mpi", null, FlowRule.SOURCE));
            }
        }
        archive.skippedRecords.forEach((type, n) -> sink.skipped(SkipReason.UNKNOWN_RECORD, "OTF2 event record type "
                + type, archive.anchor.toString(), n));
    }

    /** Emits a location group as a process with its own track, the parent of its locations' tracks. */
    private TrackTree.Node process(long group, String name) {
        return tracks.root(TrackKind.PROCESS, group, n -> {
            long id = sink.newId(Entity.PROCESS);
            sink.process(new TraceProcess(id, group, name));
            n.name(name).process(id).sortIndex((int) group);
        });
    }

    /** Enter/Leave problems of all locations, handed to the sink once every location is read. */
    private final SkipTally skips = new SkipTally();
    /** Open regions per location: {region, start ns, slice id}; a Leave must name the innermost. */
    private final SliceStack<Long, long[]> regions = new SliceStack<>(skips,
            "OTF2 Enter never left (closed at the location's last event)", "OTF2 Leave without its Enter");

    private void emitLocation(Otf2Definitions.Location loc) {
        TrackTree.Node proc = tracks.find(null, TrackKind.PROCESS, loc.group());
        if (proc == null) {
            // a location whose group is missing from the definitions (damaged or partial archive) still gets one
            proc = process(loc.group(), "location group " + loc.group());
        }
        long process = proc.processId();
        long thread = sink.newId(Entity.THREAD);
        sink.thread(new TraceThread(thread, loc.id(), process, loc.name()));
        boolean gpu = loc.type() == Otf2Definitions.LOCATION_ACCELERATOR_STREAM;
        TrackTree.Node parent = gpu ? gpuDevice(loc) : proc;
        long track = parent.child(gpu ? TrackKind.STREAM : TrackKind.THREAD, loc.id(), n -> n
                .name(loc.name() + " [" + loc.id() + "]").process(process).thread(thread)
                .stream(gpu ? loc.id() : null).sortIndex((int) loc.id())).id();
        parent.emit(); // a GPU's track waits for its first stream's id (as ids were given before)
        String where = archive.anchor + " location " + loc.id();
        Long lane = loc.id(); // boxed once per location, not per event
        long last = 0;
        JsonText args = new JsonText();
        for (Otf2Event e : archive.events(loc.id())) {
            long ts = nanos(e.ticks());
            last = Math.max(last, ts);
            switch (e.kind()) {
                case ENTER -> regions.begin(lane, new long[] {e.ref(), ts, sink.newId(Entity.SLICE)});
                case LEAVE -> {
                    long[] open = regions.innermost(lane);
                    if (open == null || open[0] != e.ref()) {
                        regions.unmatchedEnd(where);
                        continue;
                    }
                    regions.end(lane);
                    emitSlice(track, open, ts, regions.depth(lane), gpu);
                }
                case MPI_SEND, MPI_ISEND, MPI_RECV, MPI_IRECV -> {
                    boolean send = e.kind() == Otf2Event.Kind.MPI_SEND || e.kind() == Otf2Event.Kind.MPI_ISEND;
                    args.reset().put(send ? "receiver" : "sender", e.peer()).put("communicator", e.ref())
                            .put("tag", e.tag()).put("bytes", e.bytes());
                    sink.instant(new Instant(sink.newId(Entity.INSTANT), track, ts, send ? "MPI send" : "MPI recv",
                            Category.MARKER, "otf2_mpi", args.toString()));
                    long[] inside = regions.innermost(lane);
                    if (inside != null) {
                        long enclosing = inside[2];
                        if (send) {
                            pendingSends.computeIfAbsent(loc.id() + ">" + e.peer() + "/" + e.ref() + "/" + e.tag(),
                                    k -> new ArrayDeque<>()).add(enclosing);
                        } else {
                            receives.add(new Object[] {e.peer() + ">" + loc.id() + "/" + e.ref() + "/" + e.tag(),
                                    enclosing});
                        }
                    }
                }
                case METRIC -> emitMetric(loc, proc, e, ts);
                case PROGRAM_BEGIN, PROGRAM_END -> sink.instant(new Instant(sink.newId(Entity.INSTANT), track, ts,
                        e.kind() == Otf2Event.Kind.PROGRAM_BEGIN ? "program begin" : "program end",
                        Category.MARKER, "otf2", null));
                default -> {
                }
            }
        }
        long end = last;
        regions.close(lane, (l, open, depth) -> emitSlice(track, open, end, depth, gpu), where);
    }

    /** One GPU device per location group that holds accelerator streams (a CUDA/HIP/OpenCL context). */
    private TrackTree.Node gpuDevice(Otf2Definitions.Location loc) {
        long g = loc.group();
        return tracks.root(TrackKind.DEVICE, g, n -> {
            Otf2Definitions.LocationGroup group = defs.locationGroups.get(g);
            String name = group == null ? "accelerator " + g : group.name();
            long id = sink.newId(Entity.DEVICE);
            int ordinal = tracks.count(TrackKind.DEVICE);
            sink.device(new org.hetscope.model.Device(id, org.hetscope.model.DeviceKind.GPU, ordinal,
                    null, name, null, null, null, null, null, null, java.util.Map.of("otf2.location_group",
                    Long.toString(g))));
            n.name(name).device(id).sortIndex(ordinal).hold();
        });
    }

    private void emitSlice(long track, long[] open, long end, int depth, boolean gpu) {
        Otf2Definitions.Region region = defs.regions.get(open[0]);
        String name = region == null ? "region " + open[0] : region.name();
        String paradigm = region == null ? null : paradigmName(region.paradigm());
        sink.slice(new Slice(open[2], track, open[1], Math.max(0, end - open[1]), name,
                category(region, paradigm, gpu), paradigm, depth, null, null));
    }

    private static Category category(Otf2Definitions.Region region, String paradigm, boolean gpu) {
        if (region == null) {
            return Category.OTHER;
        }
        String lower = region.name().toLowerCase(java.util.Locale.ROOT);
        if (gpu) {
            return lower.contains("memcpy") || lower.contains("copy") ? Category.MEMCPY
                    : lower.contains("memset") ? Category.MEMSET : Category.KERNEL;
        }
        if (lower.contains("synchronize") || lower.equals("mpi_barrier") || lower.startsWith("mpi_wait")) {
            return Category.SYNC;
        }
        return switch (paradigm) {
            case "MPI", "CUDA", "HIP", "OPENCL", "OPENACC", "SHMEM", "PTHREAD", "OPENMP" -> Category.API;
            case "MEASUREMENT_SYSTEM" -> Category.OTHER;
            default -> Category.CPU_OP;
        };
    }

    /** OTF2_Paradigm values, with the paradigm's own name where the archive defines one. */
    private String paradigmName(int p) {
        String defined = defs.paradigms.get(p);
        if (defined != null) {
            return defined.toUpperCase(java.util.Locale.ROOT);
        }
        return switch (p) {
            case 0 -> "UNKNOWN";
            case 1 -> "USER";
            case 2 -> "COMPILER";
            case 3 -> "OPENMP";
            case 4 -> "MPI";
            case 5 -> "CUDA";
            case 6 -> "MEASUREMENT_SYSTEM";
            case 7 -> "PTHREAD";
            case 8 -> "HMPP";
            case 9 -> "OMPSS";
            case 10 -> "HARDWARE";
            case 11 -> "GASPI";
            case 12 -> "UPC";
            case 13 -> "SHMEM";
            case 14 -> "WINTHREAD";
            case 15 -> "QTTHREAD";
            case 16 -> "ACETHREAD";
            case 17 -> "TBBTHREAD";
            case 18 -> "OPENACC";
            case 19 -> "OPENCL";
            case 20 -> "MTAPI";
            case 21 -> "SAMPLING";
            case 22 -> "NONE";
            case 23 -> "HIP";
            case 24 -> "KOKKOS";
            default -> "PARADIGM " + p;
        };
    }

    private void emitMetric(Otf2Definitions.Location loc, TrackTree.Node process, Otf2Event e, long ts) {
        List<Long> members = defs.metricClasses.getOrDefault(e.ref(), List.of());
        for (int i = 0; i < e.values().length; i++) {
            long member = i < members.size() ? members.get(i) : -1;
            Otf2Definitions.MetricMember m = defs.metricMembers.get(member);
            String name = m == null ? "metric " + e.ref() + "." + i : m.name();
            long track = process.child(TrackKind.COUNTER, loc.id() + "/" + name, n -> n
                    .name(name + " [" + loc.name() + " " + loc.id() + "]")
                    .sortIndex(1000 + tracks.count(TrackKind.COUNTER) + 1).unit(m == null ? null : m.unit())).id();
            sink.counter(new CounterSample(track, ts, e.values()[i]));
        }
    }
}
