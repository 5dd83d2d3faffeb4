package org.hetscope.formats.opencl;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hetscope.formats.ctf.CtfEvent;
import org.hetscope.model.SkipReason;
import org.hetscope.model.Category;
import org.hetscope.model.CounterSample;
import org.hetscope.model.Device;
import org.hetscope.model.DeviceKind;
import org.hetscope.model.Dim3;
import org.hetscope.model.Entity;
import org.hetscope.model.Flow;
import org.hetscope.model.FlowRule;
import org.hetscope.model.JsonText;
import org.hetscope.model.KernelLaunch;
import org.hetscope.model.MemoryBlock;
import org.hetscope.model.MemoryNode;
import org.hetscope.model.Residency;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceProcess;
import org.hetscope.model.TraceSink;
import org.hetscope.model.TraceThread;
import org.hetscope.model.TrackTree;
import org.hetscope.model.TrackKind;
import org.hetscope.model.Transfer;
import org.hetscope.model.TransferKind;

/**
 * Turns the agent's events (in time order) into the model: one API slice per call on its thread's track (with the
 * call's details as args), devices and their queue tracks with one slice per command at its device times mapped
 * to the host clock, kernel and transfer records, a flow from each enqueue call to its command, one track per
 * buffer over its lifetime with the transfers that touched it, and device memory in use as a counter.
 */
final class OpenclMapper {
    static final OpenclTables.Command COMMAND_TABLE = OpenclTables.COMMAND;

    private final TraceSink sink;
    private final String source;
    private final long processId;
    /** The process -> threads; devices -> queues, program builds, memory objects, memory in use. */
    private final TrackTree tracks;
    private final TrackTree.Node processTrack;
    private final long hostNode;
    private final Map<Long, Map<Long, Long>> kernelArgs = new HashMap<>();
    private final Map<Long, ThreadState> threads = new HashMap<>();
    private final Map<Long, DeviceState> devices = new LinkedHashMap<>();
    private final Map<Long, String> platforms = new HashMap<>();
    private final Map<Long, Long> contextDevice = new HashMap<>();
    private final Map<Long, QueueState> queues = new LinkedHashMap<>();
    private final Map<Long, String> kernelNames = new HashMap<>();
    private final Map<Long, Buffer> liveBuffers = new HashMap<>();
    private final List<Buffer> buffers = new ArrayList<>();
    private final Map<Long, Enqueue> enqueues = new HashMap<>();
    private final List<Command> commands = new ArrayList<>();
    private final List<long[]> waits = new ArrayList<>();
    final Map<String, Long> eventCounts = new TreeMap<>();
    long apiCalls;
    private long lastTs = Long.MIN_VALUE;
    private final EnumLabels labels = new EnumLabels();

    private static final class ThreadState {
        long trackId;
        Pending pending;
        boolean library;
    }

    private static final class Pending {
        long sliceId;
        long seq;
        long ts;
        long dur;
        String function;
        int result;
        Long correlation;
        JsonText args = new JsonText();
    }

    private static final class DeviceState {
        long id;
        long handle;
        long trackId;
        /** Held until the device is described, so that it is named (and sorted) by its description. */
        TrackTree.Node track;
        long memoryNodeId;
        long counterTrack = -1;
        long buildTrack = -1;
        final DeviceClock clock = new DeviceClock();
        final List<long[]> memoryDeltas = new ArrayList<>();
        String name;
        boolean described;
    }

    private static final class QueueState {
        long handle;
        long deviceHandle;
        long trackId = -1;
        int index;
    }

    private static final class Buffer {
        long handle;
        long size;
        long flags;
        long deviceHandle;
        long created;
        long released = Long.MIN_VALUE;
        long lastUse = Long.MIN_VALUE;
        long blockId;
        long trackId = -1;
        /** The object whose memory this one aliases (a sub-buffer's buffer, an image's buffer); null if own. */
        Buffer parent;
        long origin;
        long objectType = CL_MEM_OBJECT_BUFFER;
        long elementBytes;
        final List<Slice> uses = new ArrayList<>();
        final List<BufferResidency.Access> accesses = new ArrayList<>();
    }

    private static final long CL_MEM_OBJECT_BUFFER = 0x10F0;

    /** OpenCL's memory object types, as the agent records them (CL_MEM_OBJECT_*). */
    private static String objectKind(Buffer b) {
        int t = (int) b.objectType;
        if (t == CL_MEM_OBJECT_BUFFER) {
            return b.parent != null ? "sub-buffer" : "buffer";
        }
        return switch (t) {
            case 0x10F1 -> "image2d";
            case 0x10F2 -> "image3d";
            case 0x10F3 -> "image2d array";
            case 0x10F4 -> "image1d";
            case 0x10F5 -> "image1d array";
            case 0x10F6 -> "image1d buffer";
            case 0x10F7 -> "pipe";
            default -> "memory object";
        };
    }

    private record Enqueue(long command, long sliceId, long ts, long end, long queue, String kind, String type,
                           String direction, Buffer src, Buffer dst, long bytes, String kernel, long[] global,
                           long[] local, List<Buffer> kernelBuffers) {}

    private record Command(long command, String type, int status, long queued, long submit, long start, long end,
                           long queue, long device) {}

    OpenclMapper(TraceSink sink, String source, long pid, String processName) {
        this.sink = sink;
        this.source = source;
        processId = sink.newId(Entity.PROCESS);
        sink.process(new TraceProcess(processId, pid, processName));
        tracks = new TrackTree(sink);
        processTrack = tracks.root(TrackKind.PROCESS, pid, n -> n.name(processName).process(processId));
        sink.defineTable(COMMAND_TABLE);
        hostNode = sink.newId(Entity.MEMORY_NODE);
        sink.memoryNode(new MemoryNode(hostNode, "host memory", null, "host"));
    }

    void map(CtfEvent e) {
        String name = e.name();
        eventCounts.merge(name, 1L, Long::sum);
        long ts = e.timestampNs();
        lastTs = Math.max(lastTs, ts);
        if (e.streamClassId() == 1) {
            if (name.equals("command")) {
                commands.add(new Command(e.getLong("command"), labels.label(e, "command_type"),
                        (int) e.getLong("status"), e.getLong("queued"), e.getLong("submit"), e.getLong("start"),
                        e.getLong("end"), e.getLong("queue"), e.getLong("device")));
            } else {
                sink.skipped(SkipReason.UNKNOWN_RECORD, "device-stream event " + name, source, 1);
            }
            return;
        }
        ThreadState t = thread(e.getLong("thread_id"));
        switch (name) {
            case "thread" -> {
                t.library = e.getLong("library", 0) == 1;
                String tname = e.getString("name");
                sink.thread(new TraceThread(threadId(e.getLong("thread_id")), e.getLong("java_id"), processId,
                        t.library ? tname + " (JOCL)" : tname));
            }
            case "api_call" -> {
                flush(t);
                Pending p = new Pending();
                p.sliceId = sink.newId(Entity.SLICE);
                p.seq = e.getLong("seq");
                p.ts = ts;
                p.dur = e.getLong("duration");
                if (p.dur < 0 || ts > Long.MAX_VALUE - p.dur) {
                    // an unsigned count of ns past 2^63, or past the end of time: only damage writes that
                    sink.skipped(SkipReason.IMPOSSIBLE_TIME, "api_call duration (kept as 0 ns)", source, 1);
                    p.dur = 0;
                }
                p.function = labels.label(e, "function");
                p.result = (int) e.getLong("result");
                p.args.put("result", p.result);
                if (t.library) {
                    p.args.put("library", true);
                }
                t.pending = p;
                apiCalls++;
            }
            case "platform" -> platforms.put(e.getLong("platform"), e.getString("name"));
            case "device" -> device(e);
            default -> detail(t, e, name);
        }
    }

    private final Map<Long, Long> threadIds = new HashMap<>();

    private long threadId(long tid) {
        return threadIds.computeIfAbsent(tid, k -> sink.newId(Entity.THREAD));
    }

    private ThreadState thread(long tid) {
        ThreadState t = threads.get(tid);
        if (t == null) {
            t = new ThreadState();
            t.trackId = processTrack.child(TrackKind.THREAD, tid, n -> n.name("thread " + tid).thread(threadId(tid))
                    .sortIndex((int) Math.min(tid, Integer.MAX_VALUE))).id();
            threads.put(tid, t);
        }
        return t;
    }

    private void flush(ThreadState t) {
        Pending p = t.pending;
        if (p == null) {
            return;
        }
        t.pending = null;
        Category c = switch (p.function) {
            case "clFinish", "clWaitForEvents" -> Category.SYNC;
            default -> Category.API;
        };
        sink.slice(new Slice(p.sliceId, t.trackId, p.ts, p.dur, p.function, c, "opencl", -1, p.correlation,
                p.args.toString()));
    }

    private void device(CtfEvent e) {
        long handle = e.getLong("device");
        DeviceState d = deviceState(handle);
        long type = e.getLong("type");
        DeviceKind kind = (type & 4) != 0 ? DeviceKind.GPU : (type & 2) != 0 ? DeviceKind.CPU
                : DeviceKind.ACCELERATOR;
        Map<String, String> props = new LinkedHashMap<>();
        props.put("handle", hex(handle));
        props.put("platform", platforms.getOrDefault(e.getLong("platform"), hex(e.getLong("platform"))));
        props.put("version", e.getString("version"));
        props.put("driver_version", e.getString("driver_version"));
        props.put("local_mem_bytes", Long.toString(e.getLong("local_mem_bytes")));
        props.put("max_alloc_bytes", Long.toString(e.getLong("max_alloc_bytes")));
        props.put("max_work_group_size", Long.toString(e.getLong("max_work_group_size")));
        props.put("timer_resolution_ns", Long.toString(e.getLong("timer_resolution_ns")));
        d.name = e.getString("name");
        if (d.described) {
            return;
        }
        d.described = true;
        sink.device(new Device(d.id, kind, devices.size() - 1, e.getString("vendor"), d.name,
                (int) e.getLong("compute_units"), e.getLong("global_mem_bytes"), null, null, null,
                (double) e.getLong("max_clock_mhz"), props));
        d.track.name(d.name).sortIndex(devices.size() - 1).emit();
        sink.memoryNode(new MemoryNode(d.memoryNodeId, d.name + " memory", d.id, "device"));
    }

    private DeviceState deviceState(long handle) {
        DeviceState d = devices.get(handle);
        if (d == null) {
            d = new DeviceState();
            d.handle = handle;
            d.id = sink.newId(Entity.DEVICE);
            long id = d.id;
            d.track = tracks.root(TrackKind.DEVICE, handle, n -> n.device(id).hold());
            d.trackId = d.track.id();
            d.memoryNodeId = sink.newId(Entity.MEMORY_NODE);
            devices.put(handle, d);
        }
        return d;
    }

    private void detail(ThreadState t, CtfEvent e, String name) {
        Pending p = t.pending;
        if (p == null || e.getLong("seq", -1) != p.seq) {
            sink.skipped(SkipReason.UNKNOWN_REFERENCE, "OpenCL detail event without its call: " + name, source, 1);
            return;
        }
        JsonText a = p.args;
        long callEnd = p.ts + p.dur;
        switch (name) {
            case "context" -> {
                a.put("context", hex(e.getLong("context")));
                List<Long> ds = Arrays3.of(e).getOrDefault("devices", List.of());
                if (!ds.isEmpty()) {
                    contextDevice.put(e.getLong("context"), ds.get(0));
                }
            }
            case "queue" -> {
                QueueState q = new QueueState();
                q.handle = e.getLong("queue");
                q.deviceHandle = e.getLong("device");
                q.index = queues.size() + 1;
                queues.put(q.handle, q);
                a.put("queue", hex(q.handle)).put("device", hex(q.deviceHandle))
                        .put("requested_properties", e.getLong("requested_properties"))
                        .put("properties", e.getLong("properties"))
                        .put("profiling_forced", e.getLong("profiling_forced") == 1);
            }
            case "mem_create" -> {
                Buffer b = new Buffer();
                b.handle = e.getLong("mem");
                b.size = e.getLong("size");
                b.flags = e.getLong("flags");
                b.deviceHandle = contextDevice.getOrDefault(e.getLong("context"), 0L);
                b.created = callEnd;
                b.blockId = sink.newId(Entity.MEMORY_BLOCK);
                // traces of agents before sub-buffers and images were told apart have neither field
                b.objectType = e.getLong("object_type", CL_MEM_OBJECT_BUFFER);
                b.elementBytes = e.getLong("element_bytes", 0);
                long parent = e.getLong("parent", 0);
                if (parent != 0) {
                    b.parent = liveBuffers.get(parent);
                    b.origin = e.getLong("origin", 0);
                    if (b.parent == null) {
                        sink.skipped(SkipReason.UNKNOWN_REFERENCE,
                                "memory object whose parent was not created in the trace", source,
                                1);
                    } else if (b.deviceHandle == 0) {
                        b.deviceHandle = b.parent.deviceHandle;
                    }
                }
                Buffer old = liveBuffers.put(b.handle, b);
                if (old != null) {
                    sink.skipped(SkipReason.DUPLICATE_ID, "buffer handle reused without a release", source, 1);
                }
                buffers.add(b);
                a.put("mem", hex(b.handle)).put("size", b.size).put("flags", b.flags).put("object", objectKind(b));
                if (parent != 0) {
                    a.put("parent", hex(parent)).put("origin", b.origin);
                }
                if (b.elementBytes != 0) {
                    a.put("element_bytes", b.elementBytes);
                }
            }
            case "mem_release", "mem_retain" -> {
                long h = e.getLong("mem");
                int refs = (int) e.getLong("references");
                a.put("mem", hex(h)).put("references", refs);
                if (name.equals("mem_release") && refs == 0) {
                    Buffer b = liveBuffers.remove(h);
                    if (b != null) {
                        b.released = callEnd;
                    }
                }
            }
            case "program" -> a.put("program", hex(e.getLong("program"))).put("source_bytes",
                    e.getLong("source_bytes"));
            case "program_build" -> {
                String log = e.getString("log");
                a.put("program", hex(e.getLong("program"))).put("device", hex(e.getLong("device")))
                        .put("build_status", e.getLong("build_status")).put("options", e.getString("options"))
                        .put("log", log);
                // the per-device timeline shows compilations beside the queues (spec §3)
                DeviceState d = deviceState(e.getLong("device"));
                if (d.buildTrack < 0) {
                    d.buildTrack = d.track.child(TrackKind.GENERIC, "program builds", n -> n.name("program builds")).id();
                }
                sink.slice(new Slice(sink.newId(Entity.SLICE), d.buildTrack, p.ts, p.dur,
                        "build " + hex(e.getLong("program")), Category.OTHER, "opencl", 0, null,
                        new JsonText().put("build_status", e.getLong("build_status"))
                                .put("options", e.getString("options")).put("log_bytes", log == null ? 0
                                        : log.length()).put("api_slice", p.sliceId).toString()));
            }
            case "kernel" -> {
                kernelNames.put(e.getLong("kernel"), e.getString("name"));
                a.put("kernel", hex(e.getLong("kernel"))).put("name", e.getString("name"));
            }
            case "kernel_arg" -> {
                a.put("kernel", hex(e.getLong("kernel"))).put("index", e.getLong("index"))
                        .put("size", e.getLong("size")).put("kind", labels.label(e, "kind"));
                if ("mem".equals(labels.label(e, "kind"))) {
                    a.put("mem", hex(e.getLong("value")));
                    kernelArgs.computeIfAbsent(e.getLong("kernel"), k -> new TreeMap<>())
                            .put(e.getLong("index"), e.getLong("value"));
                } else if ("value".equals(labels.label(e, "kind"))) {
                    a.put("value", e.getLong("value"));
                }
            }
            case "enqueue_kernel" -> {
                Map<String, List<Long>> arr = Arrays3.of(e);
                int dim = (int) e.getLong("work_dim");
                long[] global = first(arr.get("global_size"), dim);
                long[] local = first(arr.get("local_size"), dim);
                long command = e.getLong("command");
                String kname = kernelNames.getOrDefault(e.getLong("kernel"), hex(e.getLong("kernel")));
                a.put("command", command).put("kernel", kname).putRaw("global_size", json(global))
                        .putRaw("local_size", json(local)).put("wait_events", e.getLong("wait_events"));
                if (command != 0) {
                    p.correlation = command;
                    List<Buffer> used = new ArrayList<>();
                    for (long mem : kernelArgs.getOrDefault(e.getLong("kernel"), Map.of()).values()) {
                        Buffer b = liveBuffers.get(mem);
                        if (b != null) {
                            used.add(b);
                        }
                    }
                    enqueues.put(command, new Enqueue(command, p.sliceId, p.ts, callEnd, e.getLong("queue"),
                            "kernel", "NDRANGE_KERNEL", null, null, null, 0, kname, global, local, used));
                }
            }
            case "enqueue_mem" -> {
                long command = e.getLong("command");
                String dir = labels.label(e, "direction");
                Buffer src = liveBuffers.get(e.getLong("src_mem"));
                Buffer dst = liveBuffers.get(e.getLong("dst_mem"));
                long bytes = e.getLong("bytes");
                a.put("command", command).put("command_type", labels.label(e, "command_type")).put("direction", dir)
                        .put("bytes", bytes).put("blocking", e.getLong("blocking") == 1);
                if (e.getLong("src_mem") != 0) {
                    a.put("src_mem", hex(e.getLong("src_mem")));
                }
                if (e.getLong("dst_mem") != 0) {
                    a.put("dst_mem", hex(e.getLong("dst_mem")));
                }
                if (command != 0) {
                    p.correlation = command;
                    enqueues.put(command, new Enqueue(command, p.sliceId, p.ts, callEnd, e.getLong("queue"), "mem",
                            labels.label(e, "command_type"), dir, src, dst, bytes, null, null, null, List.of()));
                }
            }
            case "enqueue_other" -> {
                long command = e.getLong("command");
                a.put("command", command).put("command_type", labels.label(e, "command_type"))
                        .put("bytes", e.getLong("bytes"));
                if (command != 0) {
                    p.correlation = command;
                    enqueues.put(command, new Enqueue(command, p.sliceId, p.ts, callEnd, e.getLong("queue"),
                            "other", labels.label(e, "command_type"), null, null, null, e.getLong("bytes"), null, null,
                            null, List.of()));
                }
            }
            case "wait" -> {
                List<Long> cs = Arrays3.of(e).getOrDefault("commands", List.of());
                if (e.getLong("queue") != 0) {
                    a.put("queue", hex(e.getLong("queue")));
                }
                a.putRaw("commands", cs.toString());
                for (long c : cs) {
                    if (c != 0) {
                        waits.add(new long[] {c, p.sliceId});
                    }
                }
            }
            default -> sink.skipped(SkipReason.UNKNOWN_RECORD, "OpenCL agent event " + name, source, 1);
        }
    }

    /** Emits what needed the whole trace: commands at aligned device times, flows, buffers, memory counters. */
    void finish() {
        describeMissingDevices();
        finishCommands();
        emitBuffers();
        describeMissingDevices(); // devices only commands or buffers referred to
        sink.info("opencl.api_calls", Long.toString(apiCalls));
        sink.info("opencl.commands", Long.toString(commands.size()));
        eventCounts.forEach((k, v) -> sink.info("opencl.events." + k, Long.toString(v)));
    }

    private void describeMissingDevices() {
        for (DeviceState d : devices.values()) {
            if (!d.described) {
                // referenced (queue, build, command) but never described by a device event
                d.described = true;
                d.name = "device " + hex(d.handle);
                sink.device(new Device(d.id, DeviceKind.ACCELERATOR, -1, null, d.name, null, null, null, null, null,
                        null, Map.of("handle", hex(d.handle))));
                d.track.name(d.name).emit();
                sink.memoryNode(new MemoryNode(d.memoryNodeId, d.name + " memory", d.id, "device"));
                sink.skipped(SkipReason.UNKNOWN_REFERENCE, "device without a description (no clGetDeviceIDs seen)",
                        source, 1);
            }
        }
    }

    private void finishCommands() {
        for (ThreadState t : threads.values()) {
            flush(t);
        }
        for (Command c : commands) {
            Enqueue q = enqueues.get(c.command());
            if (q != null && c.status() == 0 && c.queued() != 0) {
                deviceState(deviceOf(c)).clock.bound(q.ts(), q.end(), c.queued());
            }
        }
        for (DeviceState d : devices.values()) {
            String k = "opencl.device." + hex(d.handle) + ".";
            sink.info(k + "clock_offset_ns", Long.toString(d.clock.offset()));
            sink.info(k + "clock_aligned", Boolean.toString(d.clock.aligned()));
            if (d.clock.samples > 0) {
                sink.info(k + "clock_offset_bounds_ns", d.clock.lo + ".." + d.clock.hi);
            }
            if (d.clock.samples > 0 && !d.clock.aligned()) {
                sink.skipped(SkipReason.CLOCK_NOT_ALIGNED, "device clock (QUEUED outside the enqueue call); offset = "
                        + "lower bound", source + " device " + hex(d.handle), 1);
            }
        }
        Map<Long, Long> commandSlices = new HashMap<>();
        long incomplete = 0;
        for (Command c : commands) {
            Enqueue q = enqueues.remove(c.command());
            DeviceState d = deviceState(deviceOf(c));
            QueueState qs = queue(c.queue(), d);
            if (c.status() != 0 || c.start() == 0 || c.end() < c.start()) {
                incomplete++;
                untimedCommand(c, q, qs, d);
                continue;
            }
            long off = d.clock.offset();
            long dur = c.end() - c.start();
            long start = 0;
            try {
                start = Math.addExact(c.start(), off);
                Math.addExact(start, dur);
            } catch (ArithmeticException overflow) {
                dur = -1;
            }
            if (dur < 0) {
                // times whose difference or host-clock value does not fit 64 bits: only damage writes those
                sink.skipped(SkipReason.IMPOSSIBLE_TIME, "command device times (no slice)", source, 1);
                untimedCommand(c, q, qs, d);
                continue;
            }
            long sliceId = sink.newId(Entity.SLICE);
            commandSlices.put(c.command(), sliceId);
            JsonText a = new JsonText().put("command", c.command()).put("command_type", c.type())
                    .put("queued", c.queued() + off).put("submit", c.submit() + off);
            String name = c.type();
            Category cat = Category.OTHER;
            Buffer block = null;
            if (q != null && q.kind().equals("kernel")) {
                name = q.kernel();
                cat = Category.KERNEL;
                a.putRaw("global_size", json(q.global())).putRaw("local_size", json(q.local()));
            } else if (q != null && q.kind().equals("mem")) {
                cat = q.direction().equals("fill") ? Category.MEMSET : Category.MEMCPY;
                name = q.direction() + " " + q.bytes() + " B";
                a.put("bytes", q.bytes()).put("direction", q.direction());
            }
            sink.slice(new Slice(sliceId, qs.trackId, start, dur, name, cat, "opencl", 0, c.command(), a.toString()));
            if (q == null) {
                sink.skipped(SkipReason.UNLINKED, "command without its enqueue call", source, 1);
            } else {
                sink.flow(new Flow(sink.newId(Entity.FLOW), q.sliceId(), sliceId, "launch", c.command(),
                        FlowRule.SOURCE));
                if (q.kind().equals("kernel")) {
                    for (Buffer b : q.kernelBuffers()) {
                        boolean readOnly = (b.flags & 4) != 0; // CL_MEM_READ_ONLY: the kernel cannot write it
                        b.accesses.add(new BufferResidency.Access(readOnly ? BufferResidency.Kind.DEVICE_READ
                                : BufferResidency.Kind.DEVICE_WRITE, start, start + dur));
                        b.lastUse = Math.max(b.lastUse, start + dur);
                    }
                    sink.kernel(new KernelLaunch(sliceId, d.id, (long) qs.index, c.command(), groups(q),
                            q.local() == null || q.local().length == 0 ? null : dim3(q.local()), null, null, null));
                } else if (q.kind().equals("mem")) {
                    block = transfer(q, sliceId, start, dur, d, c, name);
                }
            }
            sink.row(COMMAND_TABLE, sliceId, c.command(), c.type(), c.status(), q == null ? null : q.sliceId(),
                    qs.trackId, d.id, c.queued() + off, c.submit() + off, start, c.end() + off,
                    q == null ? null : q.bytes(), block == null ? null : block.blockId);
        }
        if (incomplete > 0) {
            sink.skipped(SkipReason.INCOMPLETE, "commands without device times", source,
                    incomplete);
        }
        if (!enqueues.isEmpty()) {
            sink.skipped(SkipReason.INCOMPLETE, "enqueued commands whose device record is missing", source,
                    enqueues.size());
        }
        for (long[] w : waits) {
            Long from = commandSlices.get(w[0]);
            if (from != null) {
                sink.flow(new Flow(sink.newId(Entity.FLOW), from, w[1], "sync", w[0], FlowRule.SOURCE));
            }
        }
    }

    /** A command's row without device times or slice (it did not complete, or its times are damaged). */
    private void untimedCommand(Command c, Enqueue q, QueueState qs, DeviceState d) {
        sink.row(COMMAND_TABLE, null, c.command(), c.type(), c.status(), q == null ? null : q.sliceId(), qs.trackId,
                d.id, null, null, null, null, q == null ? null : q.bytes(), null);
    }

    private long deviceOf(Command c) {
        if (c.device() != 0) {
            return c.device();
        }
        QueueState q = queues.get(c.queue());
        return q == null ? 0 : q.deviceHandle;
    }

    private QueueState queue(long handle, DeviceState d) {
        QueueState q = queues.computeIfAbsent(handle, h -> {
            QueueState n = new QueueState();
            n.handle = h;
            n.deviceHandle = d.handle;
            n.index = queues.size() + 1;
            return n;
        });
        if (q.trackId < 0) {
            q.trackId = d.track.child(TrackKind.QUEUE, handle, n -> n.name("queue " + q.index + " (" + hex(handle) + ")")
                    .stream((long) q.index).sortIndex(q.index)).id();
        }
        return q;
    }

    private Buffer transfer(Enqueue q, long sliceId, long start, long dur, DeviceState d, Command c, String name) {
        TransferKind kind = switch (q.direction()) {
            case "HtoD", "unmap" -> TransferKind.HTOD;
            case "DtoH", "map" -> TransferKind.DTOH;
            case "DtoD" -> TransferKind.DTOD;
            case "fill" -> TransferKind.MEMSET;
            default -> TransferKind.UNKNOWN;
        };
        Long srcDev = kind == TransferKind.HTOD || kind == TransferKind.MEMSET ? null : d.id;
        Long dstDev = kind == TransferKind.DTOH ? null : d.id;
        Buffer carried = q.src() != null ? q.src() : q.dst();
        sink.transfer(new Transfer(sink.newId(Entity.TRANSFER), sliceId, start, dur, q.bytes(), kind, srcDev, dstDev,
                null, null, carried == null ? null : carried.blockId, c.command()));
        if (q.dst() != null) {
            q.dst().accesses.add(new BufferResidency.Access(kind == TransferKind.HTOD
                    ? BufferResidency.Kind.HOST_TO_DEVICE : BufferResidency.Kind.DEVICE_WRITE, start, start + dur));
        }
        if (q.src() != null) {
            q.src().accesses.add(new BufferResidency.Access(kind == TransferKind.DTOH
                    ? BufferResidency.Kind.DEVICE_TO_HOST : BufferResidency.Kind.DEVICE_READ, start, start + dur));
        }
        for (Buffer b : new Buffer[] {q.src(), q.dst()}) {
            if (b != null) {
                b.lastUse = Math.max(b.lastUse, start + dur);
                b.uses.add(new Slice(0, 0, start, dur, name, kind == TransferKind.MEMSET ? Category.MEMSET
                        : Category.MEMCPY, "opencl", -1, c.command(),
                        new JsonText().put("command", c.command()).put("direction", q.direction()).toString()));
            }
        }
        return carried;
    }

    private void emitBuffers() {
        long notReleased = 0;
        // what reaches an alias reaches (part of) the memory it shares: its owner's residency and lifetime see it
        for (Buffer b : buffers) {
            Buffer owner = b.parent;
            while (owner != null && owner.parent != null) {
                owner = owner.parent;
            }
            if (owner != null) {
                owner.accesses.addAll(b.accesses);
                owner.lastUse = Math.max(owner.lastUse, b.lastUse);
            }
        }
        for (Buffer b : buffers) {
            DeviceState d = b.deviceHandle != 0 ? deviceState(b.deviceHandle) : null;
            long end = b.released == Long.MIN_VALUE ? Math.max(lastTs, b.created) : b.released;
            if (b.released == Long.MIN_VALUE) {
                notReleased++;
            }
            end = Math.max(end, b.lastUse); // OpenCL frees a released buffer once its commands are done
            if (end < b.created || end - b.created < 0) {
                // only a damaged timestamp puts the release before the creation, or 2^63 ns after it
                sink.skipped(SkipReason.IMPOSSIBLE_TIME,
                        "memory object released before it was created (lifetime kept as 0 ns)",
                        source, 1);
                end = b.created;
            }
            String kind = objectKind(b);
            String label = kind + " " + hex(b.handle);
            // an alias (sub-buffer, image over a buffer) hangs under the object whose memory it shares
            String where = b.parent == null ? "" : " at +" + b.origin + " of " + hex(b.parent.handle);
            sink.memoryBlock(new MemoryBlock(b.blockId, hex(b.handle), label + where, b.size,
                    d == null ? null : d.memoryNodeId, null));
            TrackTree.Node parent = b.parent != null && b.parent.trackId >= 0 ? tracks.node(b.parent.trackId)
                    : d == null ? null : d.track;
            long track = tracks.track(parent, TrackKind.BLOCK, b, n -> n.name(label + " (" + b.size + " B" + where + ")")
                    .device(d == null ? null : d.id)).id();
            b.trackId = track;
            JsonText alive = new JsonText().put("size", b.size).put("flags", b.flags).put("object", kind)
                    .put("released", b.released != Long.MIN_VALUE);
            if (b.parent != null) {
                alive.put("parent", hex(b.parent.handle)).put("origin", b.origin);
            }
            if (b.elementBytes != 0) {
                alive.put("element_bytes", b.elementBytes);
            }
            sink.slice(new Slice(sink.newId(Entity.SLICE), track, b.created, end - b.created, kind + " alive",
                    Category.ALLOC, "opencl", 0, null, alive.toString()));
            for (Slice u : b.uses) {
                sink.slice(new Slice(sink.newId(Entity.SLICE), track, u.ts(), u.dur(), u.name(), u.category(),
                        u.sourceCategory(), 1, u.correlationId(), u.argsJson()));
            }
            boolean fromHost = (b.flags & (8 | 32)) != 0; // USE_HOST_PTR, COPY_HOST_PTR
            for (BufferResidency.Interval iv : BufferResidency.of(b.created, end, fromHost, b.accesses)) {
                String state = iv.state().equals("both") ? "shared" : "owner";
                if (!iv.state().equals("device")) {
                    sink.residency(new Residency(b.blockId, hostNode, iv.start(), iv.end() - iv.start(), state));
                }
                if (!iv.state().equals("host") && d != null) {
                    sink.residency(new Residency(b.blockId, d.memoryNodeId, iv.start(), iv.end() - iv.start(),
                            state));
                }
            }
            if (d != null && b.parent == null) { // an alias allocates nothing of its own
                d.memoryDeltas.add(new long[] {b.created, b.size});
                d.memoryDeltas.add(new long[] {end, -b.size});
            }
        }
        if (notReleased > 0) {
            sink.skipped(SkipReason.UNRELEASED, "buffers", source, notReleased);
        }
        for (DeviceState d : devices.values()) {
            if (d.memoryDeltas.isEmpty()) {
                continue;
            }
            long track = d.track.child(TrackKind.COUNTER, "device memory in use", n -> n.name("device memory in use")
                    .unit("bytes")).id();
            d.memoryDeltas.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
            long used = 0;
            for (int i = 0; i < d.memoryDeltas.size(); i++) {
                long[] m = d.memoryDeltas.get(i);
                used += m[1];
                if (i + 1 == d.memoryDeltas.size() || d.memoryDeltas.get(i + 1)[0] != m[0]) {
                    sink.counter(new CounterSample(track, m[0], used));
                }
            }
        }
    }

    private static Dim3 groups(Enqueue q) {
        long[] g = q.global();
        long[] l = q.local();
        if (g == null || l == null || l.length == 0 || l[0] == 0) {
            return null;
        }
        long[] n = new long[g.length];
        for (int i = 0; i < g.length; i++) {
            n[i] = l[i] == 0 ? 0 : (g[i] + l[i] - 1) / l[i];
        }
        return dim3(n);
    }

    private static Dim3 dim3(long[] a) {
        return new Dim3(a.length > 0 ? a[0] : 1, a.length > 1 ? a[1] : 1, a.length > 2 ? a[2] : 1);
    }

    private static long[] first(List<Long> values, int dim) {
        if (values == null) {
            return new long[0];
        }
        int n = Math.min(Math.max(dim, 0), values.size());
        long[] out = new long[n];
        boolean any = false;
        for (int i = 0; i < n; i++) {
            out[i] = values.get(i);
            any |= out[i] != 0;
        }
        return any ? out : new long[0];
    }

    private static String json(long[] a) {
        if (a == null || a.length == 0) {
            return "null";
        }
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < a.length; i++) {
            sb.append(i == 0 ? "" : ",").append(a[i]);
        }
        return sb.append(']').toString();
    }

    static String hex(long h) {
        return "0x" + Long.toHexString(h);
    }
}
