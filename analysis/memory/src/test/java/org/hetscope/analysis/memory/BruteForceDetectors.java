package org.hetscope.analysis.memory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.store.Table;

/**
 * The memory detectors as they were first written, by nested scans (quadratic in the trace: late data asks
 * {@link TaskWait#of} for every task, which scans every task and transfer). Kept as the brute-force reference
 * that {@link Detectors}, written as sorted sweeps and indexes, must reproduce row for row.
 */
public final class BruteForceDetectors {
    static final double DEFAULT_PRESSURE = Detectors.DEFAULT_PRESSURE;

    private BruteForceDetectors() {}

    public static List<Table> all(MemoryTrace m, Detectors.Options o) {
        return List.of(allocationRetries(m), pageRounding(m, o.pageBytes()),
                staleResidency(m, o.staleNs(), o.pressureFraction(), o.stalePressure()),
                requestToAllocation(m, o.requestGapNs()), lateData(m, o.lateInputNs(), o.lateWaitNs()),
                fetchVsPrefetch(m), pingPong(m, o.pingPongRun()), inputLayout(m, 50));
    }

    /**
     * Allocation retry storm: two allocations of the same block on the same node with no task using the block on
     * that node in between, or a failed allocation.
     */
    public static Table allocationRetries(MemoryTrace m) {
        Map<String, List<MemoryTrace.Action>> byKey = new LinkedHashMap<>();
        for (MemoryTrace.Action a : m.actions) {
            if (a.action().equals("Allocating") && a.blockId() != null) {
                byKey.computeIfAbsent(a.nodeId() + "/" + a.blockId(), k -> new ArrayList<>()).add(a);
            }
        }
        Table.Builder t = Table.builder("Allocation retries", "node", "block", "allocations", "retries", "failed",
                "first_ts", "last_ts");
        for (List<MemoryTrace.Action> as : byKey.values()) {
            MemoryTrace.Action first = as.get(0);
            long retries = 0;
            for (int i = 1; i < as.size(); i++) {
                long from = as.get(i - 1).ts();
                long to = as.get(i).ts();
                boolean used = m.tasks.stream().anyMatch(tk -> tk.nodeId() != null
                        && tk.nodeId() == first.nodeId() && tk.startTs() >= from && tk.startTs() < to
                        && tk.accesses().stream().anyMatch(a -> a[0].equals(first.blockId())));
                if (!used) {
                    retries++;
                }
            }
            long failed = as.stream().filter(a -> Boolean.FALSE.equals(a.success())).count();
            if (retries > 0 || failed > 0) {
                t.row(m.nodeName(first.nodeId()), m.blockLabel(first.blockId()), (long) as.size(), retries, failed,
                        first.ts(), as.get(as.size() - 1).ts());
            }
        }
        return t.build();
    }

    /** Bytes lost when an allocation of {@code size} bytes is rounded up to whole pages. */
    public static long pageWaste(long size, long page) {
        long pages = (size + page - 1) / page;
        return pages * page - size;
    }

    /** Allocator page rounding on device nodes: bytes requested, pages, and bytes lost per node. */
    public static Table pageRounding(MemoryTrace m, long page) {
        Map<Long, long[]> perNode = new LinkedHashMap<>();
        for (MemoryTrace.Action a : m.actions) {
            MemoryTrace.Node n = m.nodes.get(a.nodeId());
            if (a.action().equals("Allocating") && !Boolean.FALSE.equals(a.success()) && a.bytes() != null
                    && n != null && !"RAM".equals(n.kind())) {
                long[] acc = perNode.computeIfAbsent(a.nodeId(), k -> new long[3]);
                acc[0]++;
                acc[1] += a.bytes();
                acc[2] += pageWaste(a.bytes(), page);
            }
        }
        Table.Builder t = Table.builder("Allocator page rounding (page " + page + " bytes)", "node",
                "allocations", "bytes_requested", "bytes_lost", "percent_lost");
        perNode.forEach((n, acc) -> t.row(m.nodeName(n), acc[0], acc[1], acc[2],
                100.0 * acc[2] / (acc[1] + acc[2])));
        return t.build();
    }

    /**
     * Stale residency with the default pressure condition: see
     * {@link #staleResidency(MemoryTrace, long, double, boolean)}.
     */
    public static Table staleResidency(MemoryTrace m, long thresholdNs) {
        return staleResidency(m, thresholdNs, DEFAULT_PRESSURE, true);
    }

    /**
     * Stale residency (spec section 7): a replica that stays present on a node after its last use there, either
     * for more than {@code thresholdNs} or before a next access to the block that is write-only (W), while the
     * node's memory is at its maximum.
     *
     * <p>Definitions. For a residency interval {@code [valid_from, valid_to)} of a block on a node, the last use
     * is the latest end of a task that ran on that node, used the block, started inside the interval and ended
     * by its end; without one it is {@code valid_from} (the replica was never used there, e.g. an unused
     * prefetch). The stale period is {@code [last_use_end, valid_to)} and {@code kept_ns} its length. The next
     * access is that of the first task, on any node, starting at or after the last use and using the block. A
     * replica is a candidate when {@code kept_ns > thresholdNs}, or when {@code kept_ns > 0} and the next access
     * is W (its content will be overwritten, as with the thesis's CFD base block, 002 L974-976): a replica
     * dropped at the very end of its last use was not kept.
     *
     * <p>"At its maximum": the node's used-memory counter (StarPU's {@code use}, {@link MemoryTrace#used}) shows,
     * at some instant of the stale period, at least {@code pressureFraction} of the largest value it shows in the
     * whole run ({@code use_peak_mib >= pressureFraction * use_max_mib}). The maximum is the run's own: the trace
     * does not give the capacity, and the thesis reads "at its maximum" off the plateau of the used-memory plot
     * (002 L835-837, L1011). A node without the counter, or whose counter never exceeds 0 (StarPU does not
     * account RAM unless it is limited), cannot be shown to be at its maximum: {@code under_pressure} is null
     * and the replica is reported only when {@code requirePressure} is false.
     *
     * @param requirePressure true for the detector; false to list every candidate with its pressure columns
     */
    public static Table staleResidency(MemoryTrace m, long thresholdNs, double pressureFraction,
                                       boolean requirePressure) {
        String title = "Stale residency: replicas kept > " + thresholdNs + " ns after their last use or before a "
                + "write-only access, " + (requirePressure ? "while" : "listed whether or not")
                + " the node's used memory is >= " + pressureFraction + " x its run maximum";
        Table.Builder t = Table.builder(title, "node", "block", "valid_from", "valid_to", "last_use_end",
                "kept_ns", "next_access_mode", "reason", "use_peak_mib", "use_max_mib", "under_pressure");
        // The tasks using each block, in start order (m.tasks is sorted by start): each replica looks only at
        // its own block's tasks instead of every task of the trace.
        Map<Long, List<Object[]>> usesOf = new HashMap<>();
        for (MemoryTrace.TaskRun tk : m.tasks) {
            for (Object[] a : tk.accesses()) {
                usesOf.computeIfAbsent((Long) a[0], k -> new ArrayList<>()).add(new Object[] {tk, a[1]});
            }
        }
        for (MemoryTrace.Interval iv : m.residency) {
            List<Object[]> uses = usesOf.getOrDefault(iv.blockId(), List.of());
            long lastUse = iv.ts();
            for (Object[] u : uses) {
                MemoryTrace.TaskRun tk = (MemoryTrace.TaskRun) u[0];
                if (tk.nodeId() != null && tk.nodeId() == iv.nodeId() && tk.startTs() >= iv.ts()
                        && tk.endTs() <= iv.end() && tk.endTs() > lastUse) {
                    lastUse = tk.endTs();
                }
            }
            String next = null;
            for (Object[] u : uses) {
                if (((MemoryTrace.TaskRun) u[0]).startTs() >= lastUse) {
                    next = (String) u[1];
                    break;
                }
            }
            long kept = iv.end() - lastUse;
            boolean tooLong = kept > thresholdNs;
            boolean overwritten = kept > 0 && "W".equals(next);
            if (!tooLong && !overwritten) {
                continue;
            }
            MemoryTrace.Usage use = m.used.get(iv.nodeId());
            Double peak = null;
            Double max = null;
            Boolean pressure = null;
            if (use != null) {
                max = use.max();
                double p = use.peak(lastUse, iv.end());
                peak = Double.isNaN(p) ? null : p;
                if (max > 0) {
                    pressure = peak != null && peak >= pressureFraction * max;
                }
            }
            if (requirePressure && !Boolean.TRUE.equals(pressure)) {
                continue;
            }
            String reason = tooLong && overwritten ? "kept+write-only next" : tooLong ? "kept" : "write-only next";
            t.row(m.nodeName(iv.nodeId()), m.blockLabel(iv.blockId()), iv.ts(), iv.end(), lastUse, kept, next,
                    reason, peak, max, pressure);
        }
        return t.build();
    }

    /** Gap between each request and the first allocation of that block on the destination node after it. */
    public static Table requestToAllocation(MemoryTrace m, long thresholdNs) {
        Table.Builder t = Table.builder("Request to allocation (gap >= " + thresholdNs + " ns flagged)", "block",
                "node", "kind", "request_ts", "allocation_ts", "gap_ns", "allocation_success", "slow");
        for (MemoryTrace.Request r : m.requests) {
            if (r.blockId() == null || r.dstNodeId() == null) {
                continue;
            }
            MemoryTrace.Action alloc = null;
            for (MemoryTrace.Action a : m.actions) {
                if (a.action().equals("Allocating") && r.blockId().equals(a.blockId()) && a.nodeId() == r.dstNodeId()
                        && a.ts() >= r.ts()) {
                    alloc = a;
                    break;
                }
            }
            if (alloc != null) {
                long gap = alloc.ts() - r.ts();
                t.row(m.blockLabel(r.blockId()), m.nodeName(r.dstNodeId()), r.kind(), r.ts(), alloc.ts(), gap,
                        alloc.success(), gap >= thresholdNs);
            }
        }
        return t.build();
    }

    /**
     * Late data (spec section 7): "{@code lastInputArrival} close to the task's start and {@code waitAfterDeps}
     * large", read as {@code start − lastInputArrival <= closeNs} and {@code start − lastDepEnd >= waitNs}, with
     * the times of {@link TaskWait} (spec section 6.3): the last dependency is the latest-ending DependsOn task,
     * the last input the latest copy of one of the task's blocks into the task's node that ended by its start.
     * The block of that copy is blamed: the data the task was still waiting for (2x9 for the thesis's task 1667,
     * whose other prefetched block 0x9 had arrived long before, 002 L878-880). Tasks without a dependency or
     * without an input copy are not judged.
     */
    public static Table lateData(MemoryTrace m, long closeNs, long waitNs) {
        Table.Builder t = Table.builder("Late data (input <= " + closeNs + " ns before start, wait after deps >= "
                + waitNs + " ns)", "job_id", "name", "worker", "start", "wait_after_deps_ns",
                "last_input_arrival", "input_before_start_ns", "late_block");
        for (MemoryTrace.TaskRun tk : m.tasks) {
            TaskWait.Result r = TaskWait.of(m, tk.jobId());
            Long wait = r.waitAfterDeps();
            Long before = r.inputBeforeStart();
            if (wait != null && before != null && wait >= waitNs && before <= closeNs) {
                t.row(tk.jobId(), tk.name(), tk.worker(), tk.startTs(), wait, r.lastInputArrival(), before,
                        m.blockLabel(r.lastInputBlock()));
            }
        }
        return t.build();
    }

    /** Transfers by request class and requests by kind, with their shares. */
    public static Table fetchVsPrefetch(MemoryTrace m) {
        Map<String, long[]> moves = new LinkedHashMap<>();
        for (MemoryTrace.Move x : m.moves) {
            long[] a = moves.computeIfAbsent(x.transferClass() == null ? "unknown" : x.transferClass(),
                    k -> new long[2]);
            a[0]++;
            a[1] += x.bytes();
        }
        Map<String, long[]> reqs = new LinkedHashMap<>();
        for (MemoryTrace.Request r : m.requests) {
            reqs.computeIfAbsent(r.kind(), k -> new long[1])[0]++;
        }
        Table.Builder t = Table.builder("Fetch vs prefetch", "what", "class", "count", "bytes", "percent");
        long nMoves = m.moves.size();
        moves.forEach((k, a) -> t.row("transfers", k, a[0], a[1], nMoves == 0 ? null : 100.0 * a[0] / nMoves));
        long nReq = m.requests.size();
        reqs.forEach((k, a) -> t.row("requests", k, a[0], null, nReq == 0 ? null : 100.0 * a[0] / nReq));
        return t.build();
    }

    /**
     * Ping-pong: runs of at least {@code minRun} consecutive transfers of one block, each going back the way the
     * previous one came (A→B, B→A, A→B, ...). The node kinds tell a normal CPU/device read-write alternation from
     * a block bounced between two devices.
     */
    public static Table pingPong(MemoryTrace m, int minRun) {
        Map<Long, List<MemoryTrace.Move>> byBlock = new LinkedHashMap<>();
        for (MemoryTrace.Move x : m.moves) {
            if (x.blockId() != null && x.srcNodeId() != null && x.dstNodeId() != null) {
                byBlock.computeIfAbsent(x.blockId(), k -> new ArrayList<>()).add(x);
            }
        }
        Table.Builder t = Table.builder("Ping-pong transfers (runs >= " + minRun + ")", "block", "handle",
                "node_a", "node_b", "kind_a", "kind_b", "run_length", "first_ts", "last_ts", "com_ids");
        for (var e : byBlock.entrySet()) {
            List<MemoryTrace.Move> ms = e.getValue();
            ms.sort(Comparator.comparingLong((MemoryTrace.Move x) -> x.comId() == null ? Long.MAX_VALUE : x.comId())
                    .thenComparingLong(MemoryTrace.Move::ts));
            int start = 0;
            for (int i = 1; i <= ms.size(); i++) {
                boolean continues = i < ms.size() && ms.get(i).srcNodeId().equals(ms.get(i - 1).dstNodeId())
                        && ms.get(i).dstNodeId().equals(ms.get(i - 1).srcNodeId());
                if (!continues) {
                    int len = i - start;
                    if (len >= minRun) {
                        MemoryTrace.Move f = ms.get(start);
                        StringBuilder coms = new StringBuilder();
                        for (int k = start; k < i; k++) {
                            coms.append(k > start ? " " : "").append(ms.get(k).comId());
                        }
                        MemoryTrace.Block b = m.blocks.get(e.getKey());
                        t.row(b.label(), b.handle(), m.nodeName(f.srcNodeId()), m.nodeName(f.dstNodeId()),
                                kind(m, f.srcNodeId()), kind(m, f.dstNodeId()), (long) len, f.ts(),
                                ms.get(i - 1).end(), coms.toString());
                    }
                    start = i;
                }
            }
        }
        return t.build();
    }

    private static String kind(MemoryTrace m, Long node) {
        MemoryTrace.Node n = node == null ? null : m.nodes.get(node);
        return n == null ? null : n.kind();
    }

    /**
     * Input layout vs scheduler (out-of-core): for the first {@code firstTasks} tasks to start, the share of the
     * blocks they use that are not valid in any RAM node when they start (e.g. still on disk).
     */
    public static Table inputLayout(MemoryTrace m, int firstTasks) {
        java.util.Set<Long> ram = new java.util.HashSet<>();
        m.nodes.values().forEach(n -> {
            if ("RAM".equals(n.kind())) {
                ram.add(n.id());
            }
        });
        long uses = 0;
        long notInRam = 0;
        int k = 0;
        for (MemoryTrace.TaskRun t : m.tasks) {
            if (k++ >= firstTasks) {
                break;
            }
            for (Object[] a : t.accesses()) {
                uses++;
                boolean inRam = false;
                for (MemoryTrace.Interval iv : m.residency) {
                    if (iv.blockId() == (Long) a[0] && ram.contains(iv.nodeId()) && iv.ts() <= t.startTs()
                            && t.startTs() < iv.end()) {
                        inRam = true;
                        break;
                    }
                }
                if (!inRam) {
                    notInRam++;
                }
            }
        }
        return Table.builder("Input layout: blocks of the first " + firstTasks + " tasks not in RAM at their start",
                        "tasks", "block_uses", "not_in_ram", "percent")
                .row((long) Math.min(k, firstTasks), uses, notInRam, uses == 0 ? null : 100.0 * notInRam / uses)
                .build();
    }

    /** Detector results by name, for callers that want one. */
    public static Map<String, Table> byName(MemoryTrace m, Detectors.Options o) {
        Map<String, Table> out = new HashMap<>();
        for (Table t : all(m, o)) {
            out.put(t.title(), t);
        }
        return out;
    }
}
