package org.hetscope.analysis.memory;

import java.util.ArrayList;
import java.util.List;
import org.hetscope.store.Table;

/**
 * Everything that happened to one block: its residency per node, the tasks that used it on each node, the
 * requests for it (fetch vs prefetch), the manager actions on it and its transfers.
 */
public final class BlockHistory {
    private BlockHistory() {}

    public static List<Table> of(MemoryTrace m, MemoryTrace.Block b) {
        List<Table> out = new ArrayList<>();
        out.add(ResidencyAnalysis.intervals(m, b.id()));
        Table.Builder tasks = Table.builder("Tasks using " + b.label(), "job_id", "name", "worker", "node",
                "mode", "start_ts", "end_ts");
        for (MemoryTrace.TaskRun t : m.tasks) {
            for (Object[] a : t.accesses()) {
                if (a[0].equals(b.id())) {
                    tasks.row(t.jobId(), t.name(), t.worker(), m.nodeName(t.nodeId()), a[1], t.startTs(),
                            t.endTs());
                }
            }
        }
        out.add(tasks.build());
        Table.Builder req = Table.builder("Requests for " + b.label(), "ts", "from_node", "to_node", "kind",
                "priority");
        for (MemoryTrace.Request r : m.requests) {
            if (b.id() == (r.blockId() == null ? -1 : r.blockId())) {
                req.row(r.ts(), m.nodeName(r.srcNodeId()), m.nodeName(r.dstNodeId()), r.kind(), r.priority());
            }
        }
        out.add(req.build());
        Table.Builder act = Table.builder("Manager actions on " + b.label(), "node", "action", "ts", "dur_ns",
                "request_kind", "bytes", "result", "success");
        for (MemoryTrace.Action a : m.actions) {
            if (a.blockId() != null && a.blockId() == b.id()) {
                act.row(m.nodeName(a.nodeId()), a.action(), a.ts(), a.end() - a.ts(), a.requestKind(), a.bytes(),
                        a.result(), a.success());
            }
        }
        out.add(act.build());
        Table.Builder mv = Table.builder("Transfers of " + b.label(), "ts", "end_ts", "from_node", "to_node",
                "class", "bytes", "com_id");
        for (MemoryTrace.Move x : m.moves) {
            if (x.blockId() != null && x.blockId() == b.id()) {
                mv.row(x.ts(), x.end(), m.nodeName(x.srcNodeId()), m.nodeName(x.dstNodeId()), x.transferClass(),
                        x.bytes(), x.comId());
            }
        }
        out.add(mv.build());
        return out;
    }
}
