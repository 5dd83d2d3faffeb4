package org.hetscope.analysis.memory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.store.Table;

/**
 * The memory-manager Gantt chart: per memory node, the manager's actions (allocating, freeing, writing back,
 * copies) labelled with their block, in sub-lanes where they overlap; and for a time window the share of the
 * window spent in each action, where overlapping intervals of one action count once.
 */
public final class ManagerGantt {
    private ManagerGantt() {}

    /** One row per action, with the sub-lane it is drawn in (greedy: the first lane free at its start). */
    public static Table actions(MemoryTrace m) {
        Table.Builder t = Table.builder("Memory-manager actions", "node", "lane", "action", "block", "handle",
                "ts", "dur_ns", "request_kind", "bytes", "success");
        Map<Long, List<Long>> laneEnds = new LinkedHashMap<>();
        for (MemoryTrace.Action a : m.actions) {
            List<Long> ends = laneEnds.computeIfAbsent(a.nodeId(), k -> new ArrayList<>());
            int lane = 0;
            while (lane < ends.size() && ends.get(lane) > a.ts()) {
                lane++;
            }
            if (lane == ends.size()) {
                ends.add(a.end());
            } else {
                ends.set(lane, a.end());
            }
            MemoryTrace.Block b = a.blockId() == null ? null : m.blocks.get(a.blockId());
            t.row(m.nodeName(a.nodeId()), (long) lane, a.action(), b == null ? null : b.label(),
                    b == null ? null : b.handle(), a.ts(), a.end() - a.ts(), a.requestKind(), a.bytes(),
                    a.success());
        }
        return t.build();
    }

    /**
     * Per node and action: the time of the window {@code [from, to)} covered by that action (union of its
     * intervals), its percentage of the window, and whether it is the node's dominant action (largest share).
     */
    public static Table shares(MemoryTrace m, long from, long to) {
        if (to <= from) {
            throw new IllegalArgumentException("empty window [" + from + ", " + to + ")");
        }
        Map<Long, Map<String, List<long[]>>> byNode = new LinkedHashMap<>();
        m.nodes.keySet().forEach(n -> byNode.put(n, new LinkedHashMap<>()));
        for (MemoryTrace.Action a : m.actions) {
            byNode.computeIfAbsent(a.nodeId(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(a.action(), k -> new ArrayList<>()).add(new long[] {a.ts(), a.end()});
        }
        Table.Builder t = Table.builder("Manager action share of [" + from + ", " + to + ") ns", "node", "action",
                "intervals", "busy_ns", "percent", "dominant");
        for (var node : byNode.entrySet()) {
            String best = null;
            long bestNs = -1;
            Map<String, Long> union = new LinkedHashMap<>();
            for (var a : node.getValue().entrySet()) {
                long u = Intervals.unionWithin(a.getValue(), from, to);
                union.put(a.getKey(), u);
                if (u > bestNs) {
                    bestNs = u;
                    best = a.getKey();
                }
            }
            for (var a : node.getValue().entrySet()) {
                long u = union.get(a.getKey());
                t.row(m.nodeName(node.getKey()), a.getKey(), (long) a.getValue().size(), u,
                        100.0 * u / (to - from), a.getKey().equals(best));
            }
        }
        return t.build();
    }
}
