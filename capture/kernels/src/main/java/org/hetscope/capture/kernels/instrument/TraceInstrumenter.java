package org.hetscope.capture.kernels.instrument;

import java.util.ArrayList;
import java.util.List;
import org.hetscope.capture.kernels.cfg.BasicBlock;
import org.hetscope.capture.kernels.cfg.Edge;
import org.hetscope.capture.kernels.cfg.EdgeKind;
import org.hetscope.capture.kernels.lang.Ast;
import org.hetscope.capture.kernels.lang.Token;

/**
 * Inserts tracepoints into a kernel: block tracepoints at block entries, edge tracepoints inside the branch
 * condition ({@code ((c) ? (TP, 1) : 0)}) or, for a switch, in front of its value. The producer is the
 * work-item (linear global id). Helper functions are not traced: a call is part of its block.
 */
public final class TraceInstrumenter {
    private TraceInstrumenter() {}

    public static TracePlan instrument(KernelScope scope, Tracepoints points, TraceCollector collector,
                                       int chunkRecords) {
        Ast.FunctionDef k = scope.kernel();
        Rewriter rw = new Rewriter(scope.unit().tokens());
        Placement place = new Placement(rw);
        place.keepOnly(scope, null);
        rw.prelude(CounterInstrumenter.PID_FUNCTION);
        List<String> extra = new ArrayList<>();
        String state;
        String exit;
        String tp;
        int stride = chunkRecords + 3;
        switch (collector) {
            case COUNT -> {
                extra.add("__global uint *hs_count");
                state = "uint hs_n = 0;";
                tp = "(hs_n++, 1)";
                exit = "hs_count[hs_pid()] = hs_n;";
            }
            case RECORD -> {
                // The whole per-work-item state is one 32-bit cursor into hs_rec and the end of the slice, read
                // once at entry from the offset table (producers + 1 entries); the exit stores the final cursor
                // and the host subtracts the offset. This keeps two words live across barriers instead of a
                // 64-bit slice pointer, the work-item id and two counters.
                extra.addAll(List.of("__global uint *hs_rec", "__global const uint *hs_off",
                        "__global uint *hs_written", "uint hs_guard"));
                state = "uint hs_c = hs_off[hs_pid()]; uint hs_end = hs_off[hs_pid() + 1] - hs_guard;";
                tp = "((hs_c < hs_end ? (hs_rec[hs_c] = ID) : 0u), hs_c++, 1)";
                exit = "hs_written[hs_pid()] = hs_c;";
            }
            case SHARED -> {
                extra.addAll(List.of("__global uint *hs_rec", "volatile __global uint *hs_head", "uint hs_cap"));
                rw.prelude("int hs_put(__global uint *rec, volatile __global uint *head, uint cap, uint p, uint seq,"
                        + " uint id) { uint h = atomic_inc(head); if (h < cap) { rec[3 * (size_t) h] = p;"
                        + " rec[3 * (size_t) h + 1] = seq; rec[3 * (size_t) h + 2] = id; } return 1; }\n");
                state = "uint hs_p = (uint) hs_pid(); uint hs_seq = 0;";
                tp = "hs_put(hs_rec, hs_head, hs_cap, hs_p, hs_seq++, ID)";
                exit = "";
            }
            case SUBBUFFER -> {
                extra.addAll(List.of("__global uint *hs_pool", "volatile __global uint *hs_next", "uint hs_chunks",
                        "volatile __global uint *hs_lost"));
                rw.prelude("int hs_sub(__global uint *pool, volatile __global uint *next, uint chunks, uint p,"
                        + " int *cur, uint *fill, uint *cseq, uint *lost, uint id) {"
                        + " if (*cur < 0 || *fill == " + chunkRecords + "u) {"
                        + " if (*cur >= 0) pool[(size_t) *cur * " + stride + " + 2] = *fill;"
                        + " uint c = atomic_inc(next);"
                        + " if (c >= chunks) { *cur = -1; (*lost)++; return 1; }"
                        + " *cur = (int) c; *fill = 0; pool[(size_t) c * " + stride + "] = p;"
                        + " pool[(size_t) c * " + stride + " + 1] = (*cseq)++; }"
                        + " pool[(size_t) *cur * " + stride + " + 3 + *fill] = id; (*fill)++; return 1; }\n");
                state = "uint hs_p = (uint) hs_pid(); int hs_cur = -1; uint hs_fill = 0; uint hs_cseq = 0;"
                        + " uint hs_lostn = 0;";
                tp = "hs_sub(hs_pool, hs_next, hs_chunks, hs_p, &hs_cur, &hs_fill, &hs_cseq, &hs_lostn, ID)";
                exit = "if (hs_cur >= 0) hs_pool[(size_t) hs_cur * " + stride + " + 2] = hs_fill;"
                        + " if (hs_lostn) atomic_add(hs_lost, hs_lostn);";
            }
            default -> throw new IllegalArgumentException(collector.toString());
        }
        place.braceBodies(k);
        place.firstParameter(scope.unit(), k, String.join(", ", extra));
        StringBuilder tripVars = new StringBuilder();
        if (!exit.isEmpty()) {
            place.exits(k, exit);
        }
        Tracepoints pts = points;
        boolean hasSwitch = false;
        for (BasicBlock b : pts.cfg().blocks()) {
            if (pts.blockPoints().get(b.id())) {
                String call = tp.replace("ID", pts.blockId(b.id()) + "u");
                place.at(b.anchor(), call + ";", call, Placement.BLOCK);
            }
            if (b.successors().size() < 2) {
                continue;
            }
            if (b.branch() instanceof Ast.Switch sw) {
                hasSwitch = true;
                StringBuilder dispatch = new StringBuilder();
                for (Edge e : b.successors()) {
                    if (!pts.edgePoints().get(e.id()) || e.kind() != EdgeKind.CASE) {
                        continue;
                    }
                    List<String> tests = new ArrayList<>();
                    for (Ast.Expr v : e.caseValues()) {
                        tests.add("hs_sw == (long) (" + text(scope, v) + ")");
                    }
                    dispatch.append("(").append(String.join(" || ", tests)).append(") ? ")
                            .append(tp.replace("ID", pts.edgeId(e) + "u")).append(" : ");
                }
                dispatch.append("0");
                rw.wrap(sw.value().first(), sw.value().last(), "(hs_sw = (long) (", "), " + dispatch + ", hs_sw)",
                        Placement.EDGE);
            } else if (b.branch() instanceof Ast.Expr cond) {
                for (Edge e : b.successors()) {
                    if (pts.tripEdges().get(e.id())) {
                        String trip = "hs_t" + b.id();
                        tripVars.append(" uint ").append(trip).append(" = 0;");
                        String mark = "(" + (Tracepoints.TRIP | pts.edgeId(e)) + "u)";
                        String emit = collector == TraceCollector.RECORD ? recordPair(mark, trip)
                                : tp.replace("ID", mark) + ", " + tp.replace("ID", "(" + trip + ")");
                        rw.wrap(cond.first(), cond.last(), "((", ") ? (" + trip + "++, 1) : (" + trip + " ? (" + emit
                                + ", " + trip + " = 0, 0) : 0))", Placement.EDGE);
                    }
                    if (pts.edgePoints().get(e.id())) {
                        String call = tp.replace("ID", pts.edgeId(e) + "u");
                        rw.wrap(cond.first(), cond.last(), "((", ") ? " + call + " : 0)", Placement.EDGE);
                    }
                }
            }
        }
        rw.open(k.body().first(), " " + state + (hasSwitch ? " long hs_sw = 0;" : "") + tripVars,
                Placement.DECLARE);
        return new TracePlan(k.name(), rw.render(), pts, collector, List.copyOf(extra), chunkRecords, scope);
    }

    /**
     * The two records of a trip count as one two-word store and one cursor step; where only one slot of the
     * slice is left (the recording pass diverged from the count), the first word alone is kept, as two separate
     * tracepoints would have done.
     */
    private static String recordPair(String mark, String trip) {
        return "(hs_c + 1u < hs_end ? vstore2((uint2) (" + mark + ", " + trip + "), 0, hs_rec + hs_c)"
                + " : (void) (hs_c < hs_end ? (hs_rec[hs_c] = " + mark + ") : 0u)), hs_c += 2u, 1";
    }

    private static String text(KernelScope scope, Ast.Node n) {
        StringBuilder sb = new StringBuilder();
        for (int t = n.first(); t <= n.last(); t++) {
            Token tok = scope.unit().tokens().get(t);
            sb.append(' ').append(tok.text());
        }
        return sb.toString().trim();
    }
}
