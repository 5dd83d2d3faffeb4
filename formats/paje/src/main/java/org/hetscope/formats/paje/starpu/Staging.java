package org.hetscope.formats.paje.starpu;

import org.hetscope.model.TableSpec;
import org.hetscope.model.TraceSink;

/**
 * The tables one StarPU read writes its raw decoded rows to (links, copies, task states, tasks.rec records), for the
 * store to join into the derived tables once the rows they read are in ({@link TraceSink#derive}): the database
 * sorts and joins out of core, so the reader keeps nothing per transfer or task. Each read has its own (a suffix per
 * read) and drops them with its last statement.
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
        for (TableSpec t : new TableSpec[] {fetchLink, copyTransfer, taskState, taskRecord}) {
            sink.defineTable(t);
        }
    }

    /** Declares the statement that drops the tables (once). */
    void drop() {
        if (!dropped) {
            dropped = true;
            for (TableSpec t : new TableSpec[] {fetchLink, copyTransfer, taskState, taskRecord}) {
                sink.derive("DROP TABLE IF EXISTS " + t.name());
            }
        }
    }

    /** {@code s} as an SQL string literal. */
    static String text(String s) {
        return "'" + s.replace("'", "''") + "'";
    }
}
