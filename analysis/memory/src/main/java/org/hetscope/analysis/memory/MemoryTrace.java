package org.hetscope.analysis.memory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.formats.paje.starpu.StarpuTables;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import org.hetscope.store.TableRow;

/**
 * The memory-related records of one store, loaded once for the analyses of this package: memory nodes, blocks,
 * residency, tasks with their accesses and dependencies, requests, manager actions and transfers. The StarPU
 * tables ({@code starpu_*}) are optional; analyses that need them return empty tables without them.
 */
public final class MemoryTrace {
    /** A memory node. */
    public record Node(long id, String name, String kind) {}

    /** A data block. */
    public record Block(long id, String handle, String coordinates, Long size) {
        /** Coordinates when known, else the handle: how blocks are named in the outputs. */
        public String label() {
            return coordinates == null || coordinates.isBlank() ? handle : "(" + coordinates.replace(' ', ',') + ")";
        }
    }

    /** A residency interval. */
    public record Interval(long blockId, long nodeId, long ts, long end, String state) {}

    /** An executed task with its accesses ({block id, mode}). */
    public record TaskRun(long id, long jobId, String name, Long workerTrackId, String worker, Long nodeId,
                          Long submitTs, long startTs, long endTs, Integer priority, List<Object[]> accesses) {}

    /** A request of a block on a node. */
    public record Request(long ts, Long blockId, Long srcNodeId, Long dstNodeId, String kind, Long priority) {}

    /** A memory-manager action (allocation, free, write-back, copy). */
    public record Action(long nodeId, Long blockId, String action, long ts, long end, String requestKind,
                         Long bytes, Long result, Boolean success, Long otherNodeId, Long comId) {}

    /** A transfer between nodes, with its request class (fetch/prefetch/idle_fetch) when known. */
    public record Move(long id, long ts, long end, long bytes, Long srcNodeId, Long dstNodeId, Long blockId,
                       Long comId, String transferClass) {}

    /**
     * A node's used-memory samples in MiB, sorted by time (samples at the same time by value). The counter is a
     * step function: a value holds from its sample until the next one; before the first sample it is unknown.
     */
    public record Usage(long[] ts, double[] mib) {
        /** The largest value the counter ever shows. */
        public double max() {
            double mx = Double.NEGATIVE_INFINITY;
            for (double v : mib) {
                mx = Math.max(mx, v);
            }
            return mx;
        }

        /**
         * The largest value the counter shows at some instant of {@code [from, to)}: the value in effect at
         * {@code from} and every sample strictly inside. Samples that share a time stamp all count as shown at
         * that instant, so the order in which they were stored does not matter. NaN when the counter says
         * nothing about the interval (empty interval, or it ends before the first sample).
         */
        public double peak(long from, long to) {
            if (to <= from) {
                return Double.NaN;
            }
            double peak = Double.NaN;
            // Samples are sorted by time: the last one at or before 'from' and those with the same time stamp.
            int i = upperBound(from) - 1;
            if (i >= 0) {
                long at = ts[i];
                for (int k = i; k >= 0 && ts[k] == at; k--) {
                    peak = Double.isNaN(peak) ? mib[k] : Math.max(peak, mib[k]);
                }
            }
            for (int k = i + 1; k < ts.length && ts[k] < to; k++) {
                peak = Double.isNaN(peak) ? mib[k] : Math.max(peak, mib[k]);
            }
            return peak;
        }

        /** Index of the first sample after {@code t}. */
        private int upperBound(long t) {
            int lo = 0;
            int hi = ts.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (ts[mid] <= t) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
    }

    public final Map<Long, Node> nodes = new java.util.LinkedHashMap<>();
    public final Map<Long, Block> blocks = new java.util.LinkedHashMap<>();
    public final List<Interval> residency = new ArrayList<>();
    public final List<TaskRun> tasks = new ArrayList<>();
    public final Map<Long, TaskRun> tasksByJob = new HashMap<>();
    /** JobId to the JobIds it depends on (tasks.rec DependsOn, ghost or not), else task_dependency edges. */
    public final Map<Long, List<Long>> dependsOn = new HashMap<>();
    public final List<Request> requests = new ArrayList<>();
    public final List<Action> actions = new ArrayList<>();
    public final List<Move> moves = new ArrayList<>();
    /** Handle to {register, unregister} times (null when unknown). */
    public final Map<Long, Long[]> lifetime = new HashMap<>();
    /**
     * Node id to its used-memory counter: StarPU's {@code use} variable of the node's memory manager, which the
     * StarPU mapping stores as the counter track "Used (MB)" (MiB) under the node's {@code memory_manager} track.
     * Nodes without one are absent.
     */
    public final Map<Long, Usage> used = new HashMap<>();
    public long traceStart;
    public long traceEnd;
    /**
     * The run: the library's {@code hs_utilisation_window}, from the first to the last device activity (for a
     * StarPU run the first task start to the last task end), else the trace's span.
     */
    public long runStart;
    public long runEnd;

    public static MemoryTrace load(Store store) {
        MemoryTrace m = new MemoryTrace();
        for (Object[] r : store.query("SELECT id, name, kind FROM memory_node ORDER BY id").rows()) {
            m.nodes.put((Long) r[0], new Node((Long) r[0], (String) r[1], (String) r[2]));
        }
        for (Object[] r : store.query("SELECT id, handle, coordinates, size_bytes FROM memory_block ORDER BY id")
                .rows()) {
            m.blocks.put((Long) r[0], new Block((Long) r[0], (String) r[1], (String) r[2], (Long) r[3]));
        }
        for (Object[] r : store.query("SELECT block_id, node_id, ts, ts + dur, state FROM residency "
                + "ORDER BY block_id, node_id, ts").rows()) {
            m.residency.add(new Interval((Long) r[0], (Long) r[1], (Long) r[2], (Long) r[3], (String) r[4]));
        }
        Map<Long, List<Object[]>> access = new HashMap<>();
        for (Object[] r : store.query("SELECT task_id, block_id, mode FROM task_access").rows()) {
            access.computeIfAbsent((Long) r[0], k -> new ArrayList<>()).add(new Object[] {r[1], r[2]});
        }
        for (Object[] r : store.query("SELECT t.id, t.job_id, t.name, t.worker_track_id, k.name, t.node_id, "
                + "t.submit_ts, t.start_ts, t.end_ts, t.priority FROM task t LEFT JOIN track k "
                + "ON k.id = t.worker_track_id ORDER BY t.start_ts, t.id").rows()) {
            TaskRun t = new TaskRun((Long) r[0], (Long) r[1], (String) r[2], (Long) r[3], (String) r[4],
                    (Long) r[5], (Long) r[6], (Long) r[7], (Long) r[8],
                    r[9] == null ? null : ((Long) r[9]).intValue(), access.getOrDefault((Long) r[0], List.of()));
            m.tasks.add(t);
            m.tasksByJob.put(t.jobId(), t);
        }
        StarpuTables.DependsOn dep = StarpuTables.DEPENDS_ON;
        if (store.has(dep)) {
            for (TableRow r : store.rows(dep, "")) {
                m.dependsOn.computeIfAbsent(r.get(dep.jobId), k -> new ArrayList<>()).add(r.get(dep.dependsOnJobId));
            }
        } else {
            for (Object[] r : store.query("SELECT a.job_id, b.job_id FROM task_dependency d JOIN task a "
                    + "ON a.id = d.to_task_id JOIN task b ON b.id = d.from_task_id").rows()) {
                m.dependsOn.computeIfAbsent((Long) r[0], k -> new ArrayList<>()).add((Long) r[1]);
            }
        }
        StarpuTables.Request rq = StarpuTables.REQUEST;
        for (TableRow r : store.rows(rq, "ORDER BY ts, line")) {
            m.requests.add(new Request(r.getLong(rq.ts), r.get(rq.blockId), r.get(rq.srcNodeId), r.get(rq.dstNodeId),
                    r.get(rq.kind), r.get(rq.priority)));
        }
        StarpuTables.ManagerAction ac = StarpuTables.MANAGER_ACTION;
        for (TableRow r : store.rows(ac, "ORDER BY ts, line")) {
            long ts = r.getLong(ac.ts);
            m.actions.add(new Action(r.getLong(ac.nodeId), r.get(ac.blockId), r.get(ac.action), ts,
                    ts + r.getLong(ac.dur), r.get(ac.requestKind), r.get(ac.bytes), r.get(ac.result),
                    r.get(ac.success), r.get(ac.otherNodeId), r.get(ac.comId)));
        }
        StarpuTables.Transfer st = StarpuTables.TRANSFER;
        String cls = store.has(st) ? "(SELECT s." + st.transferClass.name() + " FROM " + st.name() + " s WHERE s."
                + st.transferId.name() + " = t.id LIMIT 1)" : "NULL";
        for (Object[] r : store.query("SELECT id, ts, ts + dur, bytes, src_node_id, dst_node_id, block_id, "
                + "correlation_id, " + cls + " FROM transfer t WHERE block_id IS NOT NULL OR src_node_id IS NOT NULL "
                + "ORDER BY ts, id").rows()) {
            m.moves.add(new Move((Long) r[0], (Long) r[1], (Long) r[2], (Long) r[3], (Long) r[4], (Long) r[5],
                    (Long) r[6], (Long) r[7], (String) r[8]));
        }
        // the reader keeps each block's first registration and last unregistration
        StarpuTables.BlockLifetime life = StarpuTables.BLOCK_LIFETIME;
        for (TableRow r : store.rows(life, "")) {
            m.lifetime.put(r.get(life.blockId), new Long[] {r.get(life.registeredTs), r.get(life.unregisteredTs)});
        }
        m.loadUsage(store);
        // the trace's span as every command shows it (docs/stdlib.md), transfers included
        Table span = store.query(null, "SELECT start_ns, end_ns FROM hs_trace_bounds");
        Object[] s = span.rows().get(0);
        m.traceStart = s[0] == null ? 0 : (Long) s[0];
        m.traceEnd = s[1] == null ? 0 : (Long) s[1];
        Object[] run = store.query(null, "SELECT start_ns, end_ns FROM hs_utilisation_window").rows().get(0);
        m.runStart = run[0] == null ? m.traceStart : (Long) run[0];
        m.runEnd = run[1] == null ? m.traceEnd : (Long) run[1];
        return m;
    }

    /**
     * Reads each node's "Used (MB)" counter. The memory_node row and the memory_node track share the node's name
     * ({@code MEMNODE<n>}), and the counter hangs under that track's memory_manager child. A name held by several
     * memory_node tracks (several processes) cannot say which counter is the node's, so such nodes get none.
     */
    private void loadUsage(Store store) {
        Map<Long, Long> trackOf = new HashMap<>();
        java.util.Set<Long> ambiguous = new java.util.HashSet<>();
        for (Object[] r : store.query("SELECT n.id, u.id FROM memory_node n JOIN track tn ON tn.kind = 'memory_node' "
                + "AND tn.name = n.name JOIN track tm ON tm.parent_id = tn.id AND tm.kind = 'memory_manager' "
                + "JOIN track u ON u.parent_id = tm.id AND u.kind = 'counter' AND u.name = 'Used (MB)'").rows()) {
            if (trackOf.put((Long) r[0], (Long) r[1]) != null) {
                ambiguous.add((Long) r[0]);
            }
        }
        ambiguous.forEach(trackOf::remove);
        for (var e : trackOf.entrySet()) {
            List<Object[]> rows = store.query(null, "SELECT ts, value FROM counter WHERE track_id = ? "
                    + "AND value IS NOT NULL ORDER BY ts, value", e.getValue()).rows();
            long[] ts = new long[rows.size()];
            double[] v = new double[rows.size()];
            for (int i = 0; i < ts.length; i++) {
                ts[i] = (Long) rows.get(i)[0];
                v[i] = (Double) rows.get(i)[1];
            }
            if (ts.length > 0) {
                used.put(e.getKey(), new Usage(ts, v));
            }
        }
    }

    /** The block with this handle, coordinates ("2 1", "2,1", "(2,1)") or id text, or null. */
    public Block findBlock(String text) {
        String t = text.trim();
        String coords = t.replaceAll("[()]", "").replace(',', ' ').trim().replaceAll("\\s+", " ");
        for (Block b : blocks.values()) {
            if (t.equals(b.handle()) || (b.coordinates() != null && b.coordinates().trim().equals(coords))) {
                return b;
            }
        }
        try {
            return blocks.get(Long.parseLong(t));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public String nodeName(Long id) {
        Node n = id == null ? null : nodes.get(id);
        return n == null ? null : n.name();
    }

    public String blockLabel(Long id) {
        Block b = id == null ? null : blocks.get(id);
        return b == null ? null : b.label();
    }
}
