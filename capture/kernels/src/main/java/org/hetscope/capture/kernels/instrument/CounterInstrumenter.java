package org.hetscope.capture.kernels.instrument;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hetscope.capture.kernels.cfg.Anchor;
import org.hetscope.capture.kernels.cfg.BasicBlock;
import org.hetscope.capture.kernels.cfg.Cfg;
import org.hetscope.capture.kernels.lang.Ast;
import org.hetscope.capture.kernels.lang.AstWalk;

/**
 * The counter rewrite of spec section 3.2: private per-work-item counters incremented at each basic block
 * entry by the block's static counts, visit counters at the start of loop bodies, branches, cases and helper
 * functions, and one publication per counter at every exit of the work-item.
 */
public final class CounterInstrumenter {
    private record Conditional(Ast.FunctionDef function, Ast.Expr expr, int depth, Map<CounterKind, Long> counts) {}

    private record Visit(Ast.FunctionDef function, Anchor anchor, String construct, int token) {}

    private final KernelScope scope;
    private final Set<CounterKind> selected;
    private final Map<Ast.FunctionDef, Map<BasicBlock, Map<CounterKind, Long>>> blockCounts = new LinkedHashMap<>();
    private final List<Conditional> conditionals = new ArrayList<>();
    private final List<Visit> visits = new ArrayList<>();

    private CounterInstrumenter(KernelScope scope, Set<CounterKind> selected) {
        this.scope = scope;
        this.selected = selected;
    }

    public static CounterPlan instrument(KernelScope scope, CounterPlan.Mode mode) {
        return instrument(scope, mode, EnumSet.allOf(CounterKind.class), true);
    }

    /**
     * @param selected the memory/FLOP counters to keep (the spec's counter selection)
     * @param controls whether visit counters are kept
     */
    public static CounterPlan instrument(KernelScope scope, CounterPlan.Mode mode, Set<CounterKind> selected,
                                         boolean controls) {
        return new CounterInstrumenter(scope, selected).run(mode, controls);
    }

    private CounterPlan run(CounterPlan.Mode mode, boolean controls) {
        for (Map.Entry<Ast.FunctionDef, Cfg> e : scope.cfgs().entrySet()) {
            Map<BasicBlock, Map<CounterKind, Long>> perBlock = new LinkedHashMap<>();
            Ast.FunctionDef f = e.getKey();
            for (BasicBlock b : e.getValue().blocks()) {
                StaticCounts sc = new StaticCounts((x, d) -> conditional(f, x, d), 0);
                b.items().forEach(sc::item);
                perBlock.put(b, sc.counts);
            }
            blockCounts.put(f, perBlock);
        }
        // visit counters: numbered when their region closes (functions in source order, helpers included)
        List<Ast.FunctionDef> order = new ArrayList<>(scope.cfgs().keySet());
        order.sort((a, b) -> Integer.compare(a.first(), b.first()));
        if (controls) {
            for (Ast.FunctionDef f : order) {
                regions(f, f.body());
                if (f != scope.kernel()) {
                    visits.add(new Visit(f, new Anchor.Entry(f), "function", f.first()));
                }
            }
        }
        // slots: memory kinds present, FLOP, then visits
        EnumSet<CounterKind> present = EnumSet.noneOf(CounterKind.class);
        blockCounts.values().forEach(m -> m.values().forEach(c -> c.forEach((k, v) -> {
            if (v != 0 && selected.contains(k)) {
                present.add(k);
            }
        })));
        conditionals.forEach(c -> c.counts().forEach((k, v) -> {
            if (v != 0 && selected.contains(k)) {
                present.add(k);
            }
        }));
        List<CounterSite> sites = new ArrayList<>();
        Map<CounterKind, Integer> slot = new EnumMap<>(CounterKind.class);
        for (CounterKind k : present) {
            slot.put(k, sites.size());
            sites.add(new CounterSite(sites.size(), k, null, scope.pos(scope.kernel().first())));
        }
        int firstVisit = sites.size();
        for (Visit v : visits) {
            sites.add(new CounterSite(sites.size(), null, v.construct(), scope.pos(v.token())));
        }
        int n = Math.max(1, sites.size());

        Rewriter rw = new Rewriter(scope.unit().tokens());
        Placement place = new Placement(rw);
        place.keepOnly(scope, "ulong *hs_c");
        if (mode == CounterPlan.Mode.ATOMIC) {
            rw.prelude("#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n");
        }
        for (Ast.FunctionDef f : order) {
            place.braceBodies(f);
            if (f == scope.kernel()) {
                place.firstParameter(scope.unit(), f, "__global ulong *hs_counters");
                rw.open(f.body().first(), " ulong hs_c[" + n + "]; for (int hs_i = 0; hs_i < " + n
                        + "; hs_i++) hs_c[hs_i] = 0;", Placement.DECLARE);
                place.exits(f, exitCode(mode, sites.size()));
            } else {
                place.firstParameter(scope.unit(), f, "ulong *hs_c");
            }
            AstWalk.visit(f.body(), x -> {
                if (x instanceof Ast.Call c && c.function() != null) {
                    place.firstArgument(scope.unit(), c, "hs_c");
                }
            });
            for (Map.Entry<BasicBlock, Map<CounterKind, Long>> e : blockCounts.get(f).entrySet()) {
                String code = increments(e.getValue(), slot);
                if (!code.isEmpty()) {
                    place.at(e.getKey().anchor(), code, code.replace("; ", ", ").replaceAll(";$", ""),
                            Placement.BLOCK);
                }
            }
        }
        for (Conditional c : conditionals) {
            String code = increments(c.counts(), slot);
            if (!code.isEmpty()) {
                rw.wrap(c.expr().first(), c.expr().last(), "(" + code.replace("; ", ", ").replaceAll(";$", "")
                        + ", ", ")", Placement.EDGE + 10 + c.depth());
            }
        }
        for (int k = 0; k < visits.size(); k++) {
            Visit v = visits.get(k);
            place.at(v.anchor(), "hs_c[" + (firstVisit + k) + "] += 1;", "hs_c[" + (firstVisit + k) + "] += 1",
                    Placement.BLOCK);
        }
        if (mode == CounterPlan.Mode.SLAB) {
            rw.prelude(PID_FUNCTION);
        }
        return new CounterPlan(scope.kernel().name(), rw.render(), List.copyOf(sites), mode, scope);
    }

    /** The linear global id of the calling work-item (dimension 0 fastest). */
    static final String PID_FUNCTION = "size_t hs_pid(void) { return (get_global_id(0) - get_global_offset(0))"
            + " + get_global_size(0) * ((get_global_id(1) - get_global_offset(1)) + get_global_size(1)"
            + " * (get_global_id(2) - get_global_offset(2))); }\n";

    private static String exitCode(CounterPlan.Mode mode, int n) {
        StringBuilder sb = new StringBuilder();
        if (mode == CounterPlan.Mode.ATOMIC) {
            for (int k = 0; k < n; k++) {
                sb.append("if (hs_c[").append(k).append("]) atom_add(&hs_counters[").append(k).append("], hs_c[")
                        .append(k).append("]); ");
            }
        } else {
            sb.append("{ size_t hs_b = hs_pid() * ").append(n).append("; ");
            for (int k = 0; k < n; k++) {
                sb.append("hs_counters[hs_b + ").append(k).append("] = hs_c[").append(k).append("]; ");
            }
            sb.append("}");
        }
        return sb.toString().trim();
    }

    private static String increments(Map<CounterKind, Long> counts, Map<CounterKind, Integer> slot) {
        StringBuilder sb = new StringBuilder();
        counts.forEach((k, v) -> {
            Integer s = slot.get(k);
            if (s != null && v != 0) {
                sb.append("hs_c[").append(s).append("] += ").append(v).append("; ");
            }
        });
        return sb.toString().trim();
    }

    private void conditional(Ast.FunctionDef f, Ast.Expr e, int depth) {
        StaticCounts sc = new StaticCounts((x, d) -> conditional(f, x, d), depth);
        sc.expr(e, true);
        conditionals.add(new Conditional(f, e, depth, sc.counts));
    }

    private void regions(Ast.FunctionDef f, Ast.Stmt s) {
        switch (s) {
            case Ast.Compound c -> c.items().forEach(x -> regions(f, x));
            case Ast.If i -> {
                regions(f, i.then());
                visits.add(new Visit(f, new Anchor.Before(i.then()), "if", i.first()));
                if (i.otherwise() != null) {
                    regions(f, i.otherwise());
                    visits.add(new Visit(f, new Anchor.Before(i.otherwise()), "else", i.otherwise().first()));
                }
            }
            case Ast.While w -> {
                regions(f, w.body());
                visits.add(new Visit(f, new Anchor.Before(w.body()), "while", w.first()));
            }
            case Ast.DoWhile d -> {
                regions(f, d.body());
                visits.add(new Visit(f, new Anchor.Before(d.body()), "do", d.first()));
            }
            case Ast.For x -> {
                regions(f, x.body());
                visits.add(new Visit(f, new Anchor.Before(x.body()), "for", x.first()));
            }
            case Ast.Switch w -> regions(f, w.body());
            case Ast.Case c -> {
                Ast.Stmt inner = c.body();
                while (inner instanceof Ast.Case nested) {
                    inner = nested.body();
                }
                regions(f, inner);
                visits.add(new Visit(f, new Anchor.Before(inner), c.value() == null ? "default" : "case", c.first()));
            }
            case Ast.Label l -> regions(f, l.body());
            default -> { }
        }
    }
}
