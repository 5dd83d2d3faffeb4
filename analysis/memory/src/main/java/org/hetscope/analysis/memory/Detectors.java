package org.hetscope.analysis.memory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.hetscope.store.Table;

/**
 * Detectors of memory-management problems suggested by the case studies of the StarPU memory thesis: allocation
 * retry storms, allocator page rounding, stale residency, slow allocation after a request, late data, fetch
 * instead of prefetch, and ping-pong transfers. Each returns a table of findings (empty when none).
 */
public final class Detectors {
    /**
     * Thresholds; times in ns. The defaults are calibrated on the two real StarPU fixtures (chol-dmda-nb6 and
     * chol-lws-nb12: 96x96 tiles, median task 0.24 and 0.31 ms, computation phases of 21 and 122 ms) and are
     * consistent with the thesis's examples once its larger scale is accounted for (960x960 tiles, runs of
     * seconds, where it calls a 100 ms allocation gap and a 500 ms wait large); for traces at that scale pass
     * thresholds about a hundred times larger.
     *
     * @param staleNs stale residency: a replica idle for longer than this after its last use on its node is a
     *     candidate. Default 10 ms: more than 30 median task durations in both fixtures; 11 of nb6's 190 replicas
     *     and 121 of nb12's 712 stay idle that long, the long tail of idle times (nb6's medians are 0.7 ms on RAM
     *     and 3.2 ms on the device). The thesis's cases are replicas kept tens of seconds (002 L853).
     * @param requestGapNs slow allocation: gap from a request to the allocation it triggers. Default 1 ms: in the
     *     fixtures an allocation that follows its request at once does so within 3.3 us, and the delayed ones spread
     *     from 9 us to 4.8 ms; 1 ms is three to four median task durations, so a flagged gap costs more than
     *     running a few tasks (5 of the 81 gaps of the two fixtures). The thesis's gap is about 100 ms with
     *     960x960 tiles (002 L884).
     * @param lateInputNs late data, "close to the start": the last input arrived at most this long before the
     *     task started. Default 30 us: in the fixtures, start minus last arrival clusters between 0.8 and 23 us
     *     (the copy held the task and StarPU started it at once; 6.38 us for JobId 30, spec section 9 item 9), and
     *     the next values are 44 and 59 us; 30 us separates the two.
     * @param lateWaitNs late data, "waitAfterDeps large": default 1 ms, three to four median task durations in
     *     the fixtures; it keeps JobId 30 of chol-dmda-nb6, whose three inputs arrived 1.69 ms after its last
     *     dependency (spec item 9). The thesis's task 1667 waited 491 ms (002 L872).
     * @param pageBytes allocator page size for page rounding (2 MiB, the GTX 1080 Ti of 002 L859)
     * @param pingPongRun minimum alternating run for ping-pong (3, spec section 7)
     * @param pressureFraction stale residency, "while the node's use is at its maximum": the node's used-memory
     *     counter reaches at least this fraction of its run maximum during the stale period. Default 0.95: the
     *     thesis reads the maximum off a plateau (002 L835-837) along which allocations and frees move the counter
     *     by a few tiles, and 5 % of a device of several GiB is tens of 7 MiB tiles; on the fixtures it keeps the
     *     exact peak of nb6 (15 tiles; 14 is 93 %) and the top four tile counts of nb12 (61 to 64 tiles).
     * @param stalePressure whether stale residency requires the pressure condition; false lists every candidate
     *     (kept too long or before a write-only access) with its pressure columns
     */
    public record Options(long staleNs, long requestGapNs, long lateInputNs, long lateWaitNs, long pageBytes,
                          int pingPongRun, double pressureFraction, boolean stalePressure) {
        /** The default pressure settings with the other thresholds given. */
        public Options(long staleNs, long requestGapNs, long lateInputNs, long lateWaitNs, long pageBytes,
                       int pingPongRun) {
            this(staleNs, requestGapNs, lateInputNs, lateWaitNs, pageBytes, pingPongRun, DEFAULT_PRESSURE, true);
        }

        public static Options defaults() {
            return new Options(10_000_000L, 1_000_000L, 30_000L, 1_000_000L, 2L << 20, 3, DEFAULT_PRESSURE, true);
        }
    }

    /** Default fraction of a node's run maximum of used memory that counts as "at its maximum". */
    public static final double DEFAULT_PRESSURE = 0.95;

    private Detectors() {}

    public static List<Table> all(MemoryTrace m, Options o) {
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
        // Start times of the tasks using each block on each node, sorted (m.tasks is in start order): whether a
        // task used the block between two allocations is one binary search instead of a scan of every task.
        Map<NodeBlock, long[]> starts = new HashMap<>();
        Map<NodeBlock, LongList> build = new HashMap<>();
        for (MemoryTrace.TaskRun tk : m.tasks) {
            if (tk.nodeId() != null) {
                for (Object[] a : tk.accesses()) {
                    if (a[0] != null) {
                        build.computeIfAbsent(new NodeBlock(tk.nodeId(), (Long) a[0]), k -> new LongList())
                                .add(tk.startTs());
                    }
                }
            }
        }
        build.forEach((k, v) -> starts.put(k, v.toArray()));
        Table.Builder t = Table.builder("Allocation retries", "node", "block", "allocations", "retries", "failed",
                "first_ts", "last_ts");
        for (List<MemoryTrace.Action> as : byKey.values()) {
            MemoryTrace.Action first = as.get(0);
            long[] used = starts.getOrDefault(new NodeBlock(first.nodeId(), first.blockId()), new long[0]);
            long retries = 0;
            for (int i = 1; i < as.size(); i++) {
                int k = lowerBound(used, as.get(i - 1).ts());
                if (k == used.length || used[k] >= as.get(i).ts()) {
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
        // The tasks using each block, in start order (m.tasks is sorted by start), for the next access.
        Map<Long, LongList> useStarts = new HashMap<>();
        Map<Long, List<String>> useModes = new HashMap<>();
        // The (start, end) of the tasks using each block on each node, for the last use.
        Map<NodeBlock, List<long[]>> runsOn = new HashMap<>();
        for (MemoryTrace.TaskRun tk : m.tasks) {
            for (Object[] a : tk.accesses()) {
                Long b = (Long) a[0];
                useStarts.computeIfAbsent(b, k -> new LongList()).add(tk.startTs());
                useModes.computeIfAbsent(b, k -> new ArrayList<>()).add((String) a[1]);
                if (tk.nodeId() != null && b != null) {
                    runsOn.computeIfAbsent(new NodeBlock(tk.nodeId(), b), k -> new ArrayList<>())
                            .add(new long[] {tk.startTs(), tk.endTs()});
                }
            }
        }
        long[] lastUses = lastUses(m.residency, runsOn);
        Map<Long, PeakIndex> peaks = new HashMap<>();
        for (int ri = 0; ri < m.residency.size(); ri++) {
            MemoryTrace.Interval iv = m.residency.get(ri);
            long lastUse = lastUses[ri];
            LongList starts = useStarts.get(iv.blockId());
            String next = null;
            if (starts != null) {
                int k = lowerBound(starts.array(), starts.size(), lastUse);
                if (k < starts.size()) {
                    next = useModes.get(iv.blockId()).get(k);
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
                PeakIndex pi = peaks.computeIfAbsent(iv.nodeId(), k -> new PeakIndex(use));
                max = pi.max();
                double p = pi.peak(lastUse, iv.end());
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

    /**
     * For each residency interval (in the list's order), the end of its last use: the latest end of a task on
     * its node using its block that started inside the interval and ended by its end, else its start. Per
     * (block, node), intervals by decreasing start and tasks by decreasing start are swept together: the ends
     * of the tasks started at or after the interval's start are in a sorted set, and the last use is the
     * greatest of them not after the interval's end.
     */
    static long[] lastUses(List<MemoryTrace.Interval> residency, Map<NodeBlock, List<long[]>> runsOn) {
        long[] out = new long[residency.size()];
        Map<NodeBlock, List<Integer>> groups = new HashMap<>();
        for (int i = 0; i < residency.size(); i++) {
            MemoryTrace.Interval iv = residency.get(i);
            groups.computeIfAbsent(new NodeBlock(iv.nodeId(), iv.blockId()), k -> new ArrayList<>()).add(i);
        }
        for (var g : groups.entrySet()) {
            List<Integer> ivs = g.getValue();
            ivs.sort(Comparator.comparingLong((Integer i) -> residency.get(i).ts()).reversed());
            List<long[]> runs = new ArrayList<>(runsOn.getOrDefault(g.getKey(), List.of()));
            runs.sort(Comparator.comparingLong((long[] r) -> r[0]).reversed());
            TreeSet<Long> ends = new TreeSet<>();
            int k = 0;
            for (int i : ivs) {
                MemoryTrace.Interval iv = residency.get(i);
                while (k < runs.size() && runs.get(k)[0] >= iv.ts()) {
                    ends.add(runs.get(k++)[1]);
                }
                Long e = ends.floor(iv.end());
                out[i] = e == null ? iv.ts() : Math.max(iv.ts(), e);
            }
        }
        return out;
    }

    /** Gap between each request and the first allocation of that block on the destination node after it. */
    public static Table requestToAllocation(MemoryTrace m, long thresholdNs) {
        Table.Builder t = Table.builder("Request to allocation (gap >= " + thresholdNs + " ns flagged)", "block",
                "node", "kind", "request_ts", "allocation_ts", "gap_ns", "allocation_success", "slow");
        // Allocations per (node, block) in time order (m.actions is sorted by time): the first at or after a
        // request is a binary search.
        Map<NodeBlock, List<MemoryTrace.Action>> allocs = new HashMap<>();
        for (MemoryTrace.Action a : m.actions) {
            if (a.action().equals("Allocating") && a.blockId() != null) {
                allocs.computeIfAbsent(new NodeBlock(a.nodeId(), a.blockId()), k -> new ArrayList<>()).add(a);
            }
        }
        Map<NodeBlock, long[]> allocTs = new HashMap<>();
        allocs.forEach((k, v) -> allocTs.put(k, v.stream().mapToLong(MemoryTrace.Action::ts).toArray()));
        for (MemoryTrace.Request r : m.requests) {
            if (r.blockId() == null || r.dstNodeId() == null) {
                continue;
            }
            NodeBlock key = new NodeBlock(r.dstNodeId(), r.blockId());
            long[] ts = allocTs.get(key);
            int k = ts == null ? 0 : lowerBound(ts, r.ts());
            if (ts != null && k < ts.length) {
                MemoryTrace.Action alloc = allocs.get(key).get(k);
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
        LastArrival arrivals = new LastArrival(m.moves);
        for (MemoryTrace.TaskRun tk : m.tasks) {
            Long lastDep = null;
            for (long d : m.dependsOn.getOrDefault(tk.jobId(), List.of())) {
                MemoryTrace.TaskRun dep = m.tasksByJob.get(d);
                if (dep != null && (lastDep == null || dep.endTs() > lastDep)) {
                    lastDep = dep.endTs();
                }
            }
            if (lastDep == null || tk.startTs() - lastDep < waitNs) {
                continue;
            }
            MemoryTrace.Move in = arrivals.before(tk);
            if (in != null && tk.startTs() - in.end() <= closeNs) {
                t.row(tk.jobId(), tk.name(), tk.worker(), tk.startTs(), tk.startTs() - lastDep, in.end(),
                        tk.startTs() - in.end(), m.blockLabel(in.blockId()));
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
        Map<Long, List<MemoryTrace.Interval>> ofBlock = new HashMap<>();
        for (MemoryTrace.Interval iv : m.residency) {
            ofBlock.computeIfAbsent(iv.blockId(), b -> new ArrayList<>()).add(iv);
        }
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
                for (MemoryTrace.Interval iv : ofBlock.getOrDefault((Long) a[0], List.of())) {
                    if (ram.contains(iv.nodeId()) && iv.ts() <= t.startTs() && t.startTs() < iv.end()) {
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

    /** Detector results by name    /** Detector results by name, for callers that want one. */
    public static Map<String, Table> byName(MemoryTrace m, Options o) {
        Map<String, Table> out = new HashMap<>();
        for (Table t : all(m, o)) {
            out.put(t.title(), t);
        }
        return out;
    }

    /** A (node, block) pair, the key of the per-replica indexes. */
    record NodeBlock(long node, long block) {}

    /**
     * The latest transfer into a task's node of one of its blocks that ended by its start (the last input of
     * {@link TaskWait}), found per (destination node, block) by binary search over the transfers sorted by end.
     * Among transfers ending at the same time, the first in the trace's transfer order wins, as in TaskWait.
     */
    static final class LastArrival {
        private final List<MemoryTrace.Move> moves;
        private final Map<NodeBlock, int[]> byEnd = new HashMap<>();
        private final Map<NodeBlock, long[]> ends = new HashMap<>();

        LastArrival(List<MemoryTrace.Move> moves) {
            this.moves = moves;
            Map<NodeBlock, List<Integer>> groups = new HashMap<>();
            for (int i = 0; i < moves.size(); i++) {
                MemoryTrace.Move mv = moves.get(i);
                if (mv.blockId() != null && mv.dstNodeId() != null) {
                    groups.computeIfAbsent(new NodeBlock(mv.dstNodeId(), mv.blockId()), k -> new ArrayList<>())
                            .add(i);
                }
            }
            groups.forEach((k, idx) -> {
                // Stable: equal ends keep the trace order.
                idx.sort(Comparator.comparingLong(i -> moves.get(i).end()));
                byEnd.put(k, idx.stream().mapToInt(Integer::intValue).toArray());
                ends.put(k, idx.stream().mapToLong(i -> moves.get(i).end()).toArray());
            });
        }

        /** The task's last input, or null. */
        MemoryTrace.Move before(MemoryTrace.TaskRun t) {
            if (t.nodeId() == null) {
                return null;
            }
            int best = -1;
            java.util.Set<Long> seen = new java.util.HashSet<>();
            for (Object[] a : t.accesses()) {
                Long b = (Long) a[0];
                if (b == null || !seen.add(b)) {
                    continue;
                }
                NodeBlock k = new NodeBlock(t.nodeId(), b);
                long[] e = ends.get(k);
                if (e == null) {
                    continue;
                }
                int p = upperBound(e, t.startTs()) - 1;
                if (p < 0) {
                    continue;
                }
                int i = byEnd.get(k)[lowerBound(e, e[p])];
                if (best < 0 || moves.get(i).end() > moves.get(best).end()
                        || (moves.get(i).end() == moves.get(best).end() && i < best)) {
                    best = i;
                }
            }
            return best < 0 ? null : moves.get(best);
        }
    }

    /**
     * Range maximum over a node's used-memory samples (a segment tree), answering {@link MemoryTrace.Usage#peak}
     * in logarithmic time instead of a scan of the samples inside the interval.
     */
    static final class PeakIndex {
        private final long[] ts;
        private final double[] tree;
        private final int n;
        private final double max;

        PeakIndex(MemoryTrace.Usage u) {
            ts = u.ts();
            n = ts.length;
            tree = new double[2 * n];
            System.arraycopy(u.mib(), 0, tree, n, n);
            for (int i = n - 1; i > 0; i--) {
                tree[i] = Math.max(tree[2 * i], tree[2 * i + 1]);
            }
            max = u.max();
        }

        double max() {
            return max;
        }

        /** Same value as {@link MemoryTrace.Usage#peak(long, long)}. */
        double peak(long from, long to) {
            if (to <= from) {
                return Double.NaN;
            }
            // The samples at the time of the last one at or before 'from', and those strictly inside.
            int i = upperBound(ts, from) - 1;
            int lo = i < 0 ? 0 : lowerBound(ts, ts[i]);
            int hi = lowerBound(ts, to);
            if (lo >= hi) {
                return Double.NaN;
            }
            double best = Double.NEGATIVE_INFINITY;
            for (int l = lo + n, r = hi + n; l < r; l >>= 1, r >>= 1) {
                if ((l & 1) == 1) {
                    best = Math.max(best, tree[l++]);
                }
                if ((r & 1) == 1) {
                    best = Math.max(best, tree[--r]);
                }
            }
            return best;
        }
    }

    /** A growable list of longs. */
    static final class LongList {
        private long[] a = new long[4];
        private int size;

        void add(long v) {
            if (size == a.length) {
                a = java.util.Arrays.copyOf(a, size * 2);
            }
            a[size++] = v;
        }

        int size() {
            return size;
        }

        long[] array() {
            return a;
        }

        long[] toArray() {
            return java.util.Arrays.copyOf(a, size);
        }
    }

    /** Index of the first of {@code a} not less than {@code v} (a sorted). */
    static int lowerBound(long[] a, long v) {
        return lowerBound(a, a.length, v);
    }

    static int lowerBound(long[] a, int len, long v) {
        int lo = 0;
        int hi = len;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < v) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Index of the first of {@code a} greater than {@code v} (a sorted). */
    static int upperBound(long[] a, long v) {
        int lo = 0;
        int hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] <= v) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
