package org.hetscope.store;

import java.util.List;
import org.hetscope.model.TableSpec;

/**
 * The core tables of every store, declared once: {@link Schema} creates them from these declarations,
 * {@link StoreWriter} fills them column by column through the column handles, and docs/schema.md documents them
 * (a test checks the two agree). Times are BIGINT nanoseconds on one timeline per store; ids are dense per
 * table, starting at 1; a column ending in {@code _id} refers to the {@code id} of the named table.
 */
public final class CoreTables {
    private CoreTables() {}

    public static final class TraceInfo extends TableSpec {
        public final Column<String> key = varchar("key", "the fact's name");
        public final Column<String> value = varchar("value", "its value, as text");

        TraceInfo() {
            super("trace_info", "facts about the import: sources, formats, schema version, completion, loader");
        }
    }

    public static final class Skipped extends TableSpec {
        public final Column<String> reason = varchar("reason", "id of the reason, from the closed list (SkipReason)");
        public final Column<String> severity = varchar("severity", "info, data_loss or damaged_input");
        public final Column<String> detail = varchar("detail", "what kind of item, when the reason covers several");
        public final Column<String> location = varchar("location", "file and position of the first such item");
        public final Column<Long> count = bigint("count", "how many items");

        Skipped() {
            super("skipped", "items a reader kept only generically or skipped, per (reason, detail)");
        }
    }

    public static final class Source extends TableSpec {
        public final Column<Long> id = bigint("id", "source number, in the order read (1 is the reference clock)");
        public final Column<String> path = varchar("path", "the trace file or folder");
        public final Column<String> format = varchar("format", "its format");
        public final Column<String> clockDomain = varchar("clock_domain", "the clock its clock facts name");
        public final Column<Long> clockOriginNs = bigint("clock_origin_ns", "where its zero lies on that clock (ns)");
        public final Column<Long> clockAdjustNs = bigint("clock_adjust_ns", "offset added to its times (ns)");
        public final Column<Double> clockDrift = doubleCol("clock_drift", "drift applied (ns per ns)");
        public final Column<Long> clockDriftFromNs = bigint("clock_drift_from_ns", "own time the drift counts from");
        public final Column<String> clockMethod = varchar("clock_method", "how the adjustment was found");
        public final Column<Long> clockResidualNs = bigint("clock_residual_ns", "half width of the fitted window");
        public final Column<Long> clockMatches = bigint("clock_matches", "matched events the fit used");
        public final Column<String> clockDetail = varchar("clock_detail", "the adjustment in words");

        Source() {
            super("source", "each input trace of an import and how its clock was put on the store's timeline");
        }
    }

    public static final class SourceSkipped extends TableSpec {
        public final Column<Long> sourceId = bigint("source_id", "the source");
        public final Column<String> reason = varchar("reason", "id of the reason, as in skipped");
        public final Column<String> severity = varchar("severity", "info, data_loss or damaged_input");
        public final Column<String> detail = varchar("detail", "what kind of item, as in skipped");
        public final Column<String> location = varchar("location", "file and position of the source's first one");
        public final Column<Long> count = bigint("count", "how many items of this source");

        SourceSkipped() {
            super("source_skipped", "skipped split by source (skipped keeps the totals)");
        }
    }

    public static final class Process extends TableSpec {
        public final Column<Long> id = bigint("id", "process id in the store");
        public final Column<Long> pid = bigint("pid", "the source's process id");
        public final Column<String> name = varchar("name", "process name");

        Process() {
            super("process", "processes, MPI ranks, runtime instances");
        }
    }

    public static final class Thread extends TableSpec {
        public final Column<Long> id = bigint("id", "thread id in the store");
        public final Column<Long> tid = bigint("tid", "the source's thread id");
        public final Column<Long> processId = bigint("process_id", "its process");
        public final Column<String> name = varchar("name", "thread name");

        Thread() {
            super("thread", "threads of a process");
        }
    }

    public static final class Device extends TableSpec {
        public final Column<Long> id = bigint("id", "device id in the store");
        public final Column<String> kind = varchar("kind", "CPU, GPU or ACCELERATOR");
        public final Column<Integer> ordinal = integer("ordinal", "the source's device number");
        public final Column<String> vendor = varchar("vendor", "vendor name");
        public final Column<String> name = varchar("name", "device name");
        public final Column<Integer> computeUnits = integer("compute_units", "SMs, CUs or cores");
        public final Column<Long> memoryBytes = bigint("memory_bytes", "device memory (bytes)");
        public final Column<Integer> warpSize = integer("warp_size", "warp or wavefront width");
        public final Column<Double> peakFlops = doubleCol("peak_flops", "peak floating-point rate (FLOP/s)");
        public final Column<Double> peakBandwidth = doubleCol("peak_bandwidth", "peak memory bandwidth (bytes/s)");
        public final Column<Double> clockMhz = doubleCol("clock_mhz", "clock (MHz)");
        public final Column<String> properties = varchar("properties", "further properties, a JSON object");

        Device() {
            super("device", "processors and their properties; unknown values are NULL");
        }
    }

    public static final class Track extends TableSpec {
        public final Column<Long> id = bigint("id", "track id");
        public final Column<Long> parentId = bigint("parent_id", "parent track in the track tree");
        public final Column<String> kind = varchar("kind", "process, thread, api, device, stream, queue, ...");
        public final Column<String> name = varchar("name", "track name");
        public final Column<Long> processId = bigint("process_id", "its process, if any");
        public final Column<Long> threadId = bigint("thread_id", "its thread, if any");
        public final Column<Long> deviceId = bigint("device_id", "its device, if any");
        public final Column<Long> stream = bigint("stream", "stream or queue number");
        public final Column<Integer> sortIndex = integer("sort_index", "display order among siblings");
        public final Column<String> unit = varchar("unit", "unit of a counter track");

        Track() {
            super("track", "timelines arranged as a tree through parent_id");
        }
    }

    public static final class Slice extends TableSpec {
        public final Column<Long> id = bigint("id", "slice id");
        public final Column<Long> trackId = bigint("track_id", "its track");
        public final Column<Long> ts = bigint("ts", "start (ns)");
        public final Column<Long> dur = bigint("dur", "duration (ns)");
        public final Column<String> name = varchar("name", "slice name");
        public final Column<String> category = varchar("category", "normalised kind (api, kernel, memcpy, ...)");
        public final Column<String> sourceCategory = varchar("source_category", "the source's own category");
        public final Column<Integer> depth = integer("depth", "nesting depth on the track");
        public final Column<Long> parentId = bigint("parent_id", "enclosing slice on the track");
        public final Column<Long> correlationId = bigint("correlation_id", "the source's correlation id");
        public final Column<String> args = varchar("args", "the source's arguments, a JSON object");

        Slice() {
            super("slice", "intervals, sorted by (track_id, ts)");
        }
    }

    public static final class Instant extends TableSpec {
        public final Column<Long> id = bigint("id", "instant id");
        public final Column<Long> trackId = bigint("track_id", "its track");
        public final Column<Long> ts = bigint("ts", "time (ns)");
        public final Column<String> name = varchar("name", "event name");
        public final Column<String> category = varchar("category", "normalised kind");
        public final Column<String> sourceCategory = varchar("source_category", "the source's own category");
        public final Column<String> args = varchar("args", "the source's arguments, a JSON object");

        Instant() {
            super("instant", "point events");
        }
    }

    public static final class Counter extends TableSpec {
        public final Column<Long> trackId = bigint("track_id", "the counter's track (name and unit)");
        public final Column<Long> ts = bigint("ts", "sample time (ns)");
        public final Column<Double> value = doubleCol("value", "holds until the next sample of the track");

        Counter() {
            super("counter", "counter samples");
        }
    }

    public static final class Flow extends TableSpec {
        public final Column<Long> id = bigint("id", "flow id");
        public final Column<Long> fromSliceId = bigint("from_slice_id", "cause");
        public final Column<Long> toSliceId = bigint("to_slice_id", "effect");
        public final Column<String> kind = varchar("kind", "launch, sync, dependency or the source's name");
        public final Column<Long> correlationId = bigint("correlation_id", "the correlation id that linked them");
        public final Column<String> rule = varchar("rule", "how it was found: source, correlation, fifo, time");

        Flow() {
            super("flow", "causal links between slices");
        }
    }

    public static final class KernelDispatch extends TableSpec {
        public final Column<Long> sliceId = bigint("slice_id", "the kernel's slice");
        public final Column<Long> deviceId = bigint("device_id", "its device");
        public final Column<Long> stream = bigint("stream", "its stream or queue");
        public final Column<Long> correlationId = bigint("correlation_id", "the source's correlation id");
        public final Column<Long> gridX = bigint("grid_x", "grid size x");
        public final Column<Long> gridY = bigint("grid_y", "grid size y");
        public final Column<Long> gridZ = bigint("grid_z", "grid size z");
        public final Column<Long> blockX = bigint("block_x", "block size x");
        public final Column<Long> blockY = bigint("block_y", "block size y");
        public final Column<Long> blockZ = bigint("block_z", "block size z");
        public final Column<Integer> registersPerThread = integer("registers_per_thread", "registers per thread");
        public final Column<Long> sharedStatic = bigint("shared_static", "static shared memory (bytes)");
        public final Column<Long> sharedDynamic = bigint("shared_dynamic", "dynamic shared memory (bytes)");
        public final Column<Long> fullNameId = bigint("full_name_id", "full kernel name in kernel_name");

        KernelDispatch() {
            super("kernel_dispatch", "dispatch attributes of kernel slices (read through the view kernel)");
        }
    }

    public static final class KernelName extends TableSpec {
        public final Column<Long> id = bigint("id", "name id");
        public final Column<String> name = varchar("name", "full (demangled) kernel name, each once");

        KernelName() {
            super("kernel_name", "full kernel names, each stored once");
        }
    }

    public static final class KernelCounter extends TableSpec {
        public final Column<Long> sliceId = bigint("slice_id", "the kernel's slice");
        public final Column<String> name = varchar("name", "counter name");
        public final Column<Double> value = doubleCol("value", "counter value");

        KernelCounter() {
            super("kernel_counter", "per-dispatch hardware or derived counters");
        }
    }

    public static final class Transfer extends TableSpec {
        public final Column<Long> id = bigint("id", "transfer id");
        public final Column<Long> sliceId = bigint("slice_id", "its slice, if any");
        public final Column<Long> ts = bigint("ts", "start (ns)");
        public final Column<Long> dur = bigint("dur", "duration (ns)");
        public final Column<Long> bytes = bigint("bytes", "bytes moved or set");
        public final Column<String> kind = varchar("kind", "HtoD, DtoH, DtoD, HtoH, PtoP, memset, unknown");
        public final Column<Long> srcDeviceId = bigint("src_device_id", "source device");
        public final Column<Long> dstDeviceId = bigint("dst_device_id", "destination device");
        public final Column<Long> srcNodeId = bigint("src_node_id", "source memory node");
        public final Column<Long> dstNodeId = bigint("dst_node_id", "destination memory node");
        public final Column<Long> blockId = bigint("block_id", "the data block moved");
        public final Column<Long> correlationId = bigint("correlation_id", "the source's correlation id");

        Transfer() {
            super("transfer", "memory copies and fills");
        }
    }

    public static final class MemoryNode extends TableSpec {
        public final Column<Long> id = bigint("id", "node id");
        public final Column<String> name = varchar("name", "node name");
        public final Column<Long> deviceId = bigint("device_id", "its device, if any");
        public final Column<String> kind = varchar("kind", "RAM, device, ...");

        MemoryNode() {
            super("memory_node", "memories data can live in");
        }
    }

    public static final class MemoryBlock extends TableSpec {
        public final Column<Long> id = bigint("id", "block id");
        public final Column<String> handle = varchar("handle", "the runtime's handle");
        public final Column<String> name = varchar("name", "block name");
        public final Column<Long> sizeBytes = bigint("size_bytes", "size (bytes)");
        public final Column<Long> homeNodeId = bigint("home_node_id", "home memory node");
        public final Column<String> coordinates = varchar("coordinates", "tile coordinates, e.g. \"i j\"");

        MemoryBlock() {
            super("memory_block", "data blocks tracked by a runtime");
        }
    }

    public static final class Residency extends TableSpec {
        public final Column<Long> blockId = bigint("block_id", "the block");
        public final Column<Long> nodeId = bigint("node_id", "the node holding a valid copy");
        public final Column<Long> ts = bigint("ts", "start (ns)");
        public final Column<Long> dur = bigint("dur", "duration (ns)");
        public final Column<String> state = varchar("state", "owner or shared");

        Residency() {
            super("residency", "intervals during which a block has a valid copy on a node");
        }
    }

    public static final class Task extends TableSpec {
        public final Column<Long> id = bigint("id", "task id");
        public final Column<Long> sliceId = bigint("slice_id", "its execution slice");
        public final Column<Long> jobId = bigint("job_id", "the runtime's job id");
        public final Column<String> name = varchar("name", "task name");
        public final Column<Long> workerTrackId = bigint("worker_track_id", "worker track it ran on");
        public final Column<Long> nodeId = bigint("node_id", "memory node of the worker");
        public final Column<Long> submitTs = bigint("submit_ts", "submission (ns)");
        public final Column<Long> startTs = bigint("start_ts", "start (ns)");
        public final Column<Long> endTs = bigint("end_ts", "end (ns)");
        public final Column<Integer> priority = integer("priority", "scheduling priority");

        Task() {
            super("task", "tasks of a task runtime");
        }
    }

    public static final class TaskAccess extends TableSpec {
        public final Column<Long> taskId = bigint("task_id", "the task");
        public final Column<Long> blockId = bigint("block_id", "the block it uses");
        public final Column<String> mode = varchar("mode", "R, W, RW, ...");

        TaskAccess() {
            super("task_access", "data a task uses and how");
        }
    }

    public static final class TaskDependency extends TableSpec {
        public final Column<Long> fromTaskId = bigint("from_task_id", "the task that must end first");
        public final Column<Long> toTaskId = bigint("to_task_id", "the task that waits");

        TaskDependency() {
            super("task_dependency", "task-graph edges");
        }
    }

    public static final TraceInfo TRACE_INFO = new TraceInfo();
    public static final Skipped SKIPPED = new Skipped();
    public static final Source SOURCE = new Source();
    public static final SourceSkipped SOURCE_SKIPPED = new SourceSkipped();
    public static final Process PROCESS = new Process();
    public static final Thread THREAD = new Thread();
    public static final Device DEVICE = new Device();
    public static final Track TRACK = new Track();
    public static final Slice SLICE = new Slice();
    public static final Instant INSTANT = new Instant();
    public static final Counter COUNTER = new Counter();
    public static final Flow FLOW = new Flow();
    public static final KernelDispatch KERNEL_DISPATCH = new KernelDispatch();
    public static final KernelName KERNEL_NAME = new KernelName();
    public static final KernelCounter KERNEL_COUNTER = new KernelCounter();
    public static final Transfer TRANSFER = new Transfer();
    public static final MemoryNode MEMORY_NODE = new MemoryNode();
    public static final MemoryBlock MEMORY_BLOCK = new MemoryBlock();
    public static final Residency RESIDENCY = new Residency();
    public static final Task TASK = new Task();
    public static final TaskAccess TASK_ACCESS = new TaskAccess();
    public static final TaskDependency TASK_DEPENDENCY = new TaskDependency();

    /** Every core table, in the order the store creates them. */
    public static final List<TableSpec> ALL = List.of(TRACE_INFO, SKIPPED, SOURCE, SOURCE_SKIPPED, PROCESS, THREAD, DEVICE, TRACK, SLICE,
            INSTANT, COUNTER, FLOW, KERNEL_DISPATCH, KERNEL_NAME, KERNEL_COUNTER, TRANSFER, MEMORY_NODE,
            MEMORY_BLOCK, RESIDENCY, TASK, TASK_ACCESS, TASK_DEPENDENCY);

    /**
     * The view {@code kernel}: the dispatch attributes with the full kernel name joined back (Nsight's demangled
     * names run to hundreds of bytes and repeat millions of times, so the table stores each once).
     */
    public static final String KERNEL_VIEW = "CREATE VIEW kernel AS SELECT "
            + KERNEL_DISPATCH.columns().stream().filter(c -> c != KERNEL_DISPATCH.fullNameId).map(c -> "d." + c.name())
                    .collect(java.util.stream.Collectors.joining(", "))
            + ", n.name AS full_name FROM kernel_dispatch d LEFT JOIN kernel_name n ON n.id = d.full_name_id";
}
