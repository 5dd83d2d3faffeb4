package org.hetscope.formats.paje.starpu;

import org.hetscope.model.TableSpec;
import org.hetscope.model.TraceSink;

/**
 * The tables one StarPU read writes its raw decoded rows to (links, copies, task states, tasks.rec records, MSI and
 * unregister events), for the store to join into the derived tables once every row is in ({@link TraceSink#derive}):
 * the database sorts and joins out of core, so the reader keeps nothing per transfer, task or MSI event. Each read
 * has its own (a suffix per read) and drops them with its last statement.
 */
final class Staging {
    private final TraceSink sink;
    /** StarPU's fetch, prefetch and idle-fetch links with a {@code com_N} key, one per transfer. */
    final TableSpec fetchLink;
    /** The transfers built from the driver copies, by communication id. */
    final TableSpec copyTransfer;
    /** The worker states with a JobId field, in the order they came. */
    final TableSpec taskState;
    /** The executed records of tasks.rec, in file order. */
    final TableSpec taskRecord;
    /** The MSI events (SI, SS, SO, WU on a memory manager), in file order; handles by number. */
    final TableSpec msiEvent;
    /** The unregister events, handles by number. */
    final TableSpec unregister;
    /** The handles those events name, by number, with their blocks (none for handle 0). */
    final TableSpec handle;
    /** The read's blocks by handle, and its memory nodes by number. */
    final TableSpec block;
    final TableSpec node;
    /** The residency intervals before they go to {@code residency}: the checks read them too. */
    final TableSpec residency;
    /** What the checks found, before it goes to {@code starpu_anomaly} in order and is counted. */
    final TableSpec check;
    private boolean dropped;

    Staging(TraceSink sink, String suffix) {
        this.sink = sink;
        fetchLink = TableSpec.of("starpu_stage_fetch_link_" + suffix, "a read's fetch links, until joined");
        fetchLink.bigint("com", "communication id of the key com_N");
        fetchLink.bigint("start_ns", "start of the link");
        fetchLink.bigint("end_ns", "end of the link");
        fetchLink.bigint("start_line", "line of its start in paje.trace");
        fetchLink.bigint("end_line", "line of its end in paje.trace");
        fetchLink.varchar("class", "fetch, prefetch or idle_fetch");
        copyTransfer = TableSpec.of("starpu_stage_copy_transfer_" + suffix, "a read's copy transfers, until joined");
        copyTransfer.bigint("com", "communication id of the copy");
        copyTransfer.bigint("transfer_id", "its transfer row");
        copyTransfer.bigint("block_id", "the block copied, if known");
        copyTransfer.bigint("dst_node_id", "the node copied to (-1 when unknown)");
        copyTransfer.bigint("start_ns", "start of the copy");
        copyTransfer.bigint("end_ns", "end of the copy");
        taskState = TableSpec.of("starpu_stage_task_state_" + suffix, "a read's task states, until joined");
        taskState.bigint("job", "JobId");
        taskState.bigint("seq", "position among the task states");
        taskState.bigint("slice_id", "the state's slice");
        taskState.bigint("start_ns", "start of the state");
        taskState.bigint("end_ns", "end of the state");
        taskState.bigint("line", "line of the state in paje.trace");
        taskState.bigint("worker", "worker number");
        taskState.varchar("name", "task name (the state's value)");
        taskState.bigint("track_id", "the worker's track");
        taskState.bigint("node_id", "the worker's memory node");
        taskRecord = TableSpec.of("starpu_stage_task_record_" + suffix, "a read's tasks.rec records, until joined");
        taskRecord.bigint("ord", "position among the executed records");
        taskRecord.bigint("job", "JobId");
        taskRecord.varchar("name", "task name");
        taskRecord.bigint("track_id", "the worker's track");
        taskRecord.bigint("node_id", "the memory node");
        taskRecord.bigint("submit_ns", "submission");
        taskRecord.bigint("start_ns", "start");
        taskRecord.bigint("end_ns", "end");
        taskRecord.integer("priority", "priority");
        taskRecord.bigint("worker", "WorkerId");
        taskRecord.bigint("line", "line of the record in tasks.rec");
        msiEvent = TableSpec.of("starpu_stage_msi_" + suffix, "a read's MSI events, until replayed");
        msiEvent.bigint("ts", "time of the event");
        msiEvent.bigint("line", "line of the event in paje.trace");
        msiEvent.integer("type", "0 SI, 1 SS, 2 SO, 3 WU");
        msiEvent.bigint("node", "number of the memory manager");
        msiEvent.bigint("handle", "number of the data handle");
        unregister = TableSpec.of("starpu_stage_unregister_" + suffix, "a read's unregister events, until used");
        unregister.bigint("handle", "number of the data handle");
        unregister.bigint("ts", "time of the event");
        handle = TableSpec.of("starpu_stage_handle_" + suffix, "the handles a read's events name, until resolved");
        handle.bigint("number", "the handle's number in the events");
        handle.varchar("handle", "the data handle");
        handle.bigint("block_id", "its memory_block row, if it has one");
        block = TableSpec.of("starpu_stage_block_" + suffix, "a read's blocks, until the events are resolved");
        block.varchar("handle", "the data handle");
        block.bigint("block_id", "its memory_block row");
        node = TableSpec.of("starpu_stage_node_" + suffix, "a read's memory nodes, until the events are resolved");
        node.bigint("number", "N of MEMNODE N / MEMMANAGER N");
        node.bigint("node_id", "its memory_node row");
        residency = TableSpec.of("starpu_stage_residency_" + suffix, "a read's residency intervals, until checked");
        residency.bigint("block_id", "the block");
        residency.bigint("node_id", "the node");
        residency.bigint("ts", "start (ns)");
        residency.bigint("dur", "duration (ns)");
        residency.varchar("state", "owner or shared");
        residency.bigint("ord", "line of the event that opened it (orders intervals of equal start)");
        check = TableSpec.of("starpu_stage_check_" + suffix, "a read's residency anomalies, until counted");
        check.bigint("block_id", "the block");
        check.integer("phase", "0: the sweep of its intervals, 1: the landing of its copies");
        check.bigint("k", "start of the segment, or id of the transfer");
        check.varchar("kind", "the anomaly");
        check.bigint("ts", "start (ns)");
        check.bigint("dur", "duration (ns)");
        check.varchar("detail", "what was seen");
        for (TableSpec t : all()) {
            sink.defineTable(t);
        }
    }

    /** Declares the statement that drops the tables (once). */
    void drop() {
        if (!dropped) {
            dropped = true;
            for (TableSpec t : all()) {
                sink.derive("DROP TABLE IF EXISTS " + t.name());
            }
        }
    }

    private TableSpec[] all() {
        return new TableSpec[] {fetchLink, copyTransfer, taskState, taskRecord, msiEvent, unregister, handle, block,
            node, residency, check};
    }

    /** {@code s} as an SQL string literal. */
    static String text(String s) {
        return "'" + s.replace("'", "''") + "'";
    }
}
