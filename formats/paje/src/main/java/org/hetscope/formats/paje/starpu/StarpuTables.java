package org.hetscope.formats.paje.starpu;

import java.util.List;
import org.hetscope.model.TableSpec;

/**
 * The tables the StarPU mapping adds to a store, declared once: the reader writes them through these declarations
 * and analyses (analysis/memory) read them back through their column handles. Documented in docs/schema.md.
 */
public final class StarpuTables {
    private StarpuTables() {}

    public static final class Request extends TableSpec {
        public final Column<Long> ts = bigint("ts", "when the request was created (ns)");
        public final Column<Long> blockId = bigint("block_id", "the block requested");
        public final Column<Long> srcNodeId = bigint("src_node_id", "the node whose manager the event is on");
        public final Column<Long> dstNodeId = bigint("dst_node_id", "the node the block is wanted on (Tid field)");
        public final Column<String> kind = varchar("kind", "fetch, prefetch, idle_fetch (1.4: also task_prefetch)");
        public final Column<Long> priority = bigint("priority", "signed 32-bit priority");
        public final Column<Long> line = bigint("line", "line of paje.trace");

        Request() {
            super("starpu_request", "rc (Request Created) events of the memory managers");
        }
    }

    public static final class ManagerAction extends TableSpec {
        public final Column<Long> sliceId = bigint("slice_id", "the action's slice on the manager's track");
        public final Column<Long> nodeId = bigint("node_id", "the manager's node");
        public final Column<Long> blockId = bigint("block_id", "the block acted on");
        public final Column<String> action = varchar("action", "Allocating, AllocatingReuse, Freeing, WritingBack, "
                + "DriverCopy, DriverCopyAsync, WritingBackAsync");
        public final Column<Long> ts = bigint("ts", "start (ns)");
        public final Column<Long> dur = bigint("dur", "duration (ns)");
        public final Column<String> requestKind = varchar("request_kind", "request kind of an allocation");
        public final Column<Long> bytes = bigint("bytes", "bytes requested, freed or copied");
        public final Column<Long> result = bigint("result", "bytes allocated or negative errno; 1 = reused");
        public final Column<Boolean> success = bool("success", "whether the allocation succeeded or reused");
        public final Column<Long> otherNodeId = bigint("other_node_id", "source node of a copy");
        public final Column<Long> comId = bigint("com_id", "communication id of a copy");
        public final Column<Long> line = bigint("line", "line of paje.trace of the start event");

        ManagerAction() {
            super("starpu_manager_action", "memory-manager actions built from start/end event pairs");
        }
    }

    public static final class Transfer extends TableSpec {
        public final Column<Long> transferId = bigint("transfer_id", "the transfer row");
        public final Column<Long> comId = bigint("com_id", "its communication id");
        public final Column<String> transferClass = varchar("class", "fetch, prefetch or idle_fetch (from the link)");
        public final Column<Long> linkTs = bigint("link_ts", "start of the link com_<id> (ns)");
        public final Column<Long> linkDur = bigint("link_dur", "duration of that link (ns)");

        Transfer() {
            super("starpu_transfer", "request class of each transfer, from the link with key com_<id>");
        }
    }

    public static final class DependsOn extends TableSpec {
        public final Column<Long> jobId = bigint("job_id", "the waiting task's JobId");
        public final Column<Long> dependsOnJobId = bigint("depends_on_job_id", "the JobId it depends on");
        public final Column<String> label = varchar("label", "task or ghost (DepLabels)");

        DependsOn() {
            super("starpu_depends_on", "tasks.rec DependsOn, for all records including tasks never run");
        }
    }

    public static final class Anomaly extends TableSpec {
        public final Column<String> kind = varchar("kind", "no_valid_replica, owner_not_exclusive, "
                + "transfer_not_landing, transfer_to_valid_replica, task_state_mismatch");
        public final Column<Long> blockId = bigint("block_id", "the block, if any");
        public final Column<Long> ts = bigint("ts", "start (ns)");
        public final Column<Long> dur = bigint("dur", "duration (ns)");
        public final Column<String> detail = varchar("detail", "what was seen");

        Anomaly() {
            super("starpu_anomaly", "what the trace says against MSI coherence, reported instead of hidden");
        }
    }

    public static final class BlockLifetime extends TableSpec {
        public final Column<Long> blockId = bigint("block_id", "the block (its handle in memory_block)");
        public final Column<Long> registeredTs = bigint("registered_ts", "first data registration (ns)");
        public final Column<Long> unregisteredTs = bigint("unregistered_ts", "last data unregistration (ns)");

        BlockLifetime() {
            super("starpu_block_lifetime", "when each block was registered and unregistered (register and "
                    + "unregister events of the handle; NULL when the trace has none)");
        }
    }

    public static final Request REQUEST = new Request();
    public static final ManagerAction MANAGER_ACTION = new ManagerAction();
    public static final Transfer TRANSFER = new Transfer();
    public static final DependsOn DEPENDS_ON = new DependsOn();
    public static final Anomaly ANOMALY = new Anomaly();
    public static final BlockLifetime BLOCK_LIFETIME = new BlockLifetime();

    /** Every table of this family. */
    public static final List<TableSpec> ALL = List.of(REQUEST, MANAGER_ACTION, TRANSFER, DEPENDS_ON, ANOMALY,
            BLOCK_LIFETIME);
}
