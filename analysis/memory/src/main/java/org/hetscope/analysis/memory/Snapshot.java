package org.hetscope.analysis.memory;

import java.util.ArrayList;
import java.util.List;
import org.hetscope.store.Table;

/**
 * The state of memory at one instant: every block's replica state on every node (owner or shared; absent when
 * invalid or unknown) and the tasks running then with their access modes. A series of snapshots makes an
 * animation.
 */
public final class Snapshot {
    private Snapshot() {}

    /** Valid replicas at {@code t}: a residency interval {@code [ts, end)} holds t. */
    public static Table blocks(MemoryTrace m, long t) {
        Table.Builder b = Table.builder("Blocks at " + t + " ns", "node", "block", "handle", "coordinates",
                "state");
        for (MemoryTrace.Node n : m.nodes.values()) {
            for (MemoryTrace.Interval iv : m.residency) {
                if (iv.nodeId() == n.id() && iv.ts() <= t && t < iv.end()) {
                    MemoryTrace.Block blk = m.blocks.get(iv.blockId());
                    b.row(n.name(), blk.label(), blk.handle(), blk.coordinates(), iv.state());
                }
            }
        }
        return b.build();
    }

    /** Tasks with {@code start <= t < end}, one row per access. */
    public static Table tasks(MemoryTrace m, long t) {
        Table.Builder b = Table.builder("Tasks running at " + t + " ns", "job_id", "name", "worker", "node",
                "block", "handle", "mode", "start_ts", "end_ts");
        for (MemoryTrace.TaskRun r : m.tasks) {
            if (r.startTs() <= t && t < r.endTs()) {
                for (Object[] a : r.accesses()) {
                    MemoryTrace.Block blk = m.blocks.get((Long) a[0]);
                    b.row(r.jobId(), r.name(), r.worker(), m.nodeName(r.nodeId()), blk.label(), blk.handle(),
                            a[1], r.startTs(), r.endTs());
                }
            }
        }
        return b.build();
    }

    /** Snapshots at from, from+step, ... < to: one row per (time, node, block). */
    public static Table series(MemoryTrace m, long from, long to, long step) {
        if (step <= 0) {
            throw new IllegalArgumentException("step must be positive");
        }
        Table.Builder b = Table.builder("Block states every " + step + " ns", "ts", "node", "block", "state",
                "running_tasks");
        for (long t = from; t < to; t += step) {
            long running = 0;
            for (MemoryTrace.TaskRun r : m.tasks) {
                if (r.startTs() <= t && t < r.endTs()) {
                    running++;
                }
            }
            for (Object[] row : blocks(m, t).rows()) {
                b.row(t, row[0], row[1], row[4], running);
            }
        }
        return b.build();
    }

    /** Both tables of one snapshot. */
    public static List<Table> at(MemoryTrace m, long t) {
        List<Table> out = new ArrayList<>();
        out.add(blocks(m, t));
        out.add(tasks(m, t));
        return out;
    }
}
