package org.hetscope.capture.kernels.trace;

import java.util.Arrays;
import org.hetscope.capture.kernels.cfg.BasicBlock;
import org.hetscope.capture.kernels.cfg.Cfg;
import org.hetscope.capture.kernels.cfg.Edge;
import org.hetscope.capture.kernels.cfg.EdgeKind;
import org.hetscope.capture.kernels.instrument.Tracepoints;

/**
 * Rebuilds a producer's block sequence from its records. With naive tracepoints the records are the path;
 * with reduced ones the CFG is replayed from the entry: at a branch, the next record names the edge taken if
 * it is one of the branch's recorded edges, otherwise the default edge was taken.
 */
public final class PathReconstructor {
    private PathReconstructor() {}

    public static int[] path(Tracepoints points, int[] records) throws CorruptTraceException {
        return points.reduced() ? replay(points, records) : naive(points.cfg(), records);
    }

    static int[] naive(Cfg cfg, int[] records) throws CorruptTraceException {
        for (int r : records) {
            if (r < 0 || r >= cfg.blocks().size()) {
                throw new CorruptTraceException("record " + r + " is not a block id");
            }
        }
        return records.clone();
    }

    static int[] replay(Tracepoints points, int[] records) throws CorruptTraceException {
        Cfg cfg = points.cfg();
        int blocks = cfg.blocks().size();
        long bound = ((long) records.length + 1) * blocks + blocks;
        long tripSteps = 0;
        int[] path = new int[Math.max(16, records.length * 2)];
        int len = 0;
        int r = 0;
        int b = 0;
        long[] trips = new long[blocks];
        java.util.Arrays.fill(trips, -1);
        for (long step = 0; ; step++) {
            if (step > bound + tripSteps) {
                throw new CorruptTraceException("replay exceeded " + bound + " steps");
            }
            if (points.blockPoints().get(b)) {
                if (r >= records.length || records[r] != points.blockId(b)) {
                    throw new CorruptTraceException("expected block record " + b + " at record " + r);
                }
                r++;
            }
            if (len == path.length) {
                path = Arrays.copyOf(path, path.length * 2);
            }
            path[len++] = b;
            BasicBlock block = cfg.block(b);
            Edge next = null;
            Edge trip = null;
            for (Edge e : block.successors()) {
                if (points.tripEdges().get(e.id())) {
                    trip = e;
                }
            }
            if (trip != null) {
                if (trips[b] < 0 && r + 1 < records.length && records[r] == (Tracepoints.TRIP | points.edgeId(trip))) {
                    trips[b] = Integer.toUnsignedLong(records[r + 1]);
                    tripSteps += 2 * trips[b] * blocks + blocks;
                    r += 2;
                }
                if (trips[b] > 0) {
                    trips[b]--;
                    next = trip;
                } else {
                    trips[b] = -1;
                }
            }
            if (next != null) {
                // a trip-counted iteration
            } else if (block.successors().size() == 1) {
                next = block.successors().getFirst();
            } else {
                if (r < records.length) {
                    for (Edge e : block.successors()) {
                        if (points.edgePoints().get(e.id()) && points.edgeId(e) == records[r]) {
                            next = e;
                            r++;
                            break;
                        }
                    }
                }
                if (next == null) {
                    for (Edge e : block.successors()) {
                        if (!points.edgePoints().get(e.id()) && !points.tripEdges().get(e.id())
                                && (e.kind() == EdgeKind.FALSE || e.kind() == EdgeKind.DEFAULT)) {
                            next = e;
                        }
                    }
                }
                if (next == null) {
                    throw new CorruptTraceException("no default edge at block " + b + " (record " + r + ")");
                }
            }
            if (next.to() == Cfg.EXIT) {
                break;
            }
            b = next.to();
        }
        if (r != records.length) {
            throw new CorruptTraceException((records.length - r) + " records left after the kernel exit");
        }
        return Arrays.copyOf(path, len);
    }
}
