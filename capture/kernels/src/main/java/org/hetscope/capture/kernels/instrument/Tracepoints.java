package org.hetscope.capture.kernels.instrument;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.hetscope.capture.kernels.cfg.BasicBlock;
import org.hetscope.capture.kernels.cfg.Cfg;
import org.hetscope.capture.kernels.cfg.Edge;
import org.hetscope.capture.kernels.cfg.EdgeKind;

/**
 * Which tracepoints a kernel gets. Record ids: a block tracepoint records the block id, an edge tracepoint
 * records {@code blocks + edge id}, so ids are unique per kernel and a record is never misread.
 *
 * <p>Naive: one tracepoint at the entry of every block. Reduced (spec section 3.3): at every block with k >= 2
 * successors, k - 1 edges are recorded and the default edge (FALSE for conditions and loops, DEFAULT for switch)
 * is not; wherever unrecorded edges would still form a cycle, the cycle's entry block gets a block tracepoint,
 * so loop iterations can always be counted back.
 */
public record Tracepoints(Cfg cfg, boolean reduced, BitSet blockPoints, BitSet edgePoints, BitSet tripEdges) {
    /** Marks the first of the two records of a trip count: {@code TRIP | edge id}, then the count. */
    public static final int TRIP = 0x8000_0000;

    public static Tracepoints naive(Cfg cfg) {
        BitSet b = new BitSet();
        b.set(0, cfg.blocks().size());
        return new Tracepoints(cfg, false, b, new BitSet(), new BitSet());
    }

    /**
     * The reduced set plus trip counts (hetscope extension): a loop whose body holds no tracepoint and can only
     * leave through its condition records, instead of its continue edge on every iteration, one pair
     * ({@code TRIP | edge id}, iterations) when it exits, at the place its first continue record would have had.
     */
    public static Tracepoints withTripCounts(Cfg cfg) {
        Tracepoints r = reduced(cfg);
        BitSet trips = new BitSet();
        for (BasicBlock b : cfg.blocks()) {
            for (Edge e : b.successors()) {
                if (e.kind() == EdgeKind.TRUE && r.edgePoints.get(e.id()) && !r.blockPoints.get(b.id())
                        && quietLoopBody(cfg, r, b.id(), e.to())) {
                    trips.set(e.id());
                }
            }
        }
        BitSet edges = (BitSet) r.edgePoints.clone();
        edges.andNot(trips);
        return new Tracepoints(cfg, true, r.blockPoints, edges, trips);
    }

    /** Whether the blocks from {@code start} back to {@code head} form a cycle with no tracepoint and no exit. */
    private static boolean quietLoopBody(Cfg cfg, Tracepoints r, int head, int start) {
        if (start == head || start < 0) {
            return false;
        }
        BitSet seen = new BitSet();
        List<Integer> work = new ArrayList<>(List.of(start));
        seen.set(start);
        boolean returns = false;
        while (!work.isEmpty()) {
            int b = work.removeLast();
            BasicBlock block = cfg.block(b);
            if (r.blockPoints.get(b) || block.successors().size() != 1) {
                return false;
            }
            int to = block.successors().getFirst().to();
            if (to == head) {
                returns = true;
                continue;
            }
            if (to < 0) {
                return false;
            }
            if (!seen.get(to)) {
                seen.set(to);
                work.add(to);
            }
        }
        return returns;
    }

    public static Tracepoints reduced(Cfg cfg) {
        BitSet edges = new BitSet();
        for (BasicBlock b : cfg.blocks()) {
            if (b.successors().size() >= 2) {
                for (Edge e : b.successors()) {
                    if (e.kind() != EdgeKind.FALSE && e.kind() != EdgeKind.DEFAULT) {
                        edges.set(e.id());
                    }
                }
            }
        }
        BitSet blocks = new BitSet();
        while (true) {
            int target = cycleEntry(cfg, edges, blocks);
            if (target < 0) {
                break;
            }
            blocks.set(target);
        }
        return new Tracepoints(cfg, true, blocks, edges, new BitSet());
    }

    /** The target of a back edge in the graph of unrecorded edges into unrecorded blocks, or -1 if acyclic. */
    private static int cycleEntry(Cfg cfg, BitSet recordedEdges, BitSet recordedBlocks) {
        int n = cfg.blocks().size();
        int[] state = new int[n];
        for (int start = 0; start < n; start++) {
            if (state[start] != 0) {
                continue;
            }
            // iterative DFS: state 1 = on stack, 2 = done
            List<int[]> stack = new ArrayList<>();
            stack.add(new int[] {start, 0});
            state[start] = 1;
            while (!stack.isEmpty()) {
                int[] top = stack.getLast();
                List<Edge> succ = cfg.block(top[0]).successors();
                if (top[1] >= succ.size()) {
                    state[top[0]] = 2;
                    stack.removeLast();
                    continue;
                }
                Edge e = succ.get(top[1]++);
                if (e.to() < 0 || recordedEdges.get(e.id()) || recordedBlocks.get(e.to())) {
                    continue;
                }
                if (state[e.to()] == 1) {
                    return e.to();
                }
                if (state[e.to()] == 0) {
                    state[e.to()] = 1;
                    stack.add(new int[] {e.to(), 0});
                }
            }
        }
        return -1;
    }

    public int blockId(int block) {
        return block;
    }

    public int edgeId(Edge e) {
        return cfg.blocks().size() + e.id();
    }

    /** Static tracepoint sites (a trip-counted loop is one site). */
    public int sites() {
        return blockPoints.cardinality() + edgePoints.cardinality() + tripEdges.cardinality();
    }
}
