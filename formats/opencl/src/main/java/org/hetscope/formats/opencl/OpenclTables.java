package org.hetscope.formats.opencl;

import java.util.List;
import org.hetscope.model.TableSpec;

/** The table the {@code opencl} reader adds to a store, declared once; documented in docs/schema.md. */
public final class OpenclTables {
    private OpenclTables() {}

    public static final class Command extends TableSpec {
        public final Column<Long> sliceId = bigint("slice_id", "the command's slice (null without device times)");
        public final Column<Long> command = bigint("command", "the agent's command id (correlation id)");
        public final Column<String> commandType = varchar("command_type", "NDRANGE_KERNEL, READ_BUFFER, ...");
        public final Column<Integer> status = integer("status", "execution status when collected (0 complete)");
        public final Column<Long> enqueueSliceId = bigint("enqueue_slice_id", "the API slice of the enqueue call");
        public final Column<Long> queueTrackId = bigint("queue_track_id", "the queue it ran on");
        public final Column<Long> deviceId = bigint("device_id", "the device it ran on");
        public final Column<Long> queuedTs = bigint("queued_ts", "queued (ns, host clock)");
        public final Column<Long> submitTs = bigint("submit_ts", "submitted (ns, host clock)");
        public final Column<Long> startTs = bigint("start_ts", "started (ns, host clock)");
        public final Column<Long> endTs = bigint("end_ts", "ended (ns, host clock)");
        public final Column<Long> bytes = bigint("bytes", "bytes moved (transfers)");
        public final Column<Long> blockId = bigint("block_id", "the buffer carried (transfers)");

        Command() {
            super("opencl_command", "one row per OpenCL command the agent collected");
        }
    }

    public static final Command COMMAND = new Command();

    public static final List<TableSpec> ALL = List.of(COMMAND);
}
