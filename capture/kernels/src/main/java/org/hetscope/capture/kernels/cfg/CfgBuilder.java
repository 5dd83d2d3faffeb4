package org.hetscope.capture.kernels.cfg;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.capture.kernels.lang.Ast;
import org.hetscope.capture.kernels.lang.Ast.*;

/**
 * Builds the CFG of a function from its structured statements. Empty blocks with one successor (joins with
 * nothing in them) are folded into their successor and unreachable blocks are dropped, so every block left
 * holds code and has a place in the source where instrumentation can go.
 */
public final class CfgBuilder {
    private record Pending(int from, int to, EdgeKind kind, Ast.Expr caseValue) {}

    private final Ast.TranslationUnit unit;
    private final List<BasicBlock> blocks = new ArrayList<>();
    private final List<Pending> edges = new ArrayList<>();
    private final Deque<int[]> loops = new ArrayDeque<>();
    private final Deque<Integer> breaks = new ArrayDeque<>();
    private final Deque<List<int[]>> switchCases = new ArrayDeque<>();
    private final Deque<List<Ast.Expr>> switchValues = new ArrayDeque<>();
    private BasicBlock cur;

    private CfgBuilder(Ast.TranslationUnit unit) {
        this.unit = unit;
    }

    public static Cfg build(Ast.TranslationUnit unit, FunctionDef f) {
        return new CfgBuilder(unit).run(f);
    }

    private BasicBlock block() {
        BasicBlock b = new BasicBlock(blocks.size());
        blocks.add(b);
        return b;
    }

    private void edge(BasicBlock from, int to, EdgeKind kind) {
        edges.add(new Pending(from.id, to, kind, null));
    }

    private void item(Stmt s, Ast.Node n) {
        if (cur.anchor == null) {
            cur.anchor = new Anchor.Before(s);
        }
        cur.items.add(n);
    }

    private Cfg run(FunctionDef f) {
        cur = block();
        cur.anchor = new Anchor.Entry(f);
        statement(f.body());
        edge(cur, Cfg.EXIT, EdgeKind.JUMP);
        return finish(f);
    }

    private void statement(Stmt s) {
        switch (s) {
            case Compound c -> c.items().forEach(this::statement);
            case Pragma p -> { }
            case DeclStmt d -> item(s, d);
            case ExprStmt e -> {
                if (e.expr() != null) {
                    item(s, e);
                }
            }
            case Return r -> {
                item(s, r);
                edge(cur, Cfg.EXIT, EdgeKind.JUMP);
                cur = block();
            }
            case Break b -> {
                if (breaks.isEmpty()) {
                    throw new UnsupportedKernelException(unit.pos(s), "break outside a loop or switch");
                }
                item(s, b);
                edge(cur, breaks.peek(), EdgeKind.JUMP);
                cur = block();
            }
            case Continue c -> {
                if (loops.isEmpty()) {
                    throw new UnsupportedKernelException(unit.pos(s), "continue outside a loop");
                }
                item(s, c);
                edge(cur, loops.peek()[0], EdgeKind.JUMP);
                cur = block();
            }
            case If i -> {
                item(s, i.cond());
                BasicBlock test = cur;
                test.branch = i.cond();
                BasicBlock join = null;
                BasicBlock then = block();
                edge(test, then.id, EdgeKind.TRUE);
                cur = then;
                then.anchor = new Anchor.Before(i.then());
                statement(i.then());
                BasicBlock thenEnd = cur;
                if (i.otherwise() != null) {
                    BasicBlock other = block();
                    other.anchor = new Anchor.Before(i.otherwise());
                    edge(test, other.id, EdgeKind.FALSE);
                    cur = other;
                    statement(i.otherwise());
                    join = block();
                    edge(thenEnd, join.id, EdgeKind.JUMP);
                    edge(cur, join.id, EdgeKind.JUMP);
                } else {
                    join = block();
                    edge(test, join.id, EdgeKind.FALSE);
                    edge(thenEnd, join.id, EdgeKind.JUMP);
                }
                cur = join;
            }
            case While w -> {
                BasicBlock test = block();
                test.anchor = new Anchor.Cond(w.cond());
                test.items.add(w.cond());
                test.branch = w.cond();
                edge(cur, test.id, EdgeKind.JUMP);
                loop(test, test.id, w.body(), test);
            }
            case DoWhile d -> {
                BasicBlock body = block();
                body.anchor = new Anchor.Before(d.body());
                edge(cur, body.id, EdgeKind.JUMP);
                int contMark = Integer.MIN_VALUE + 400 + loops.size();
                int afterMark = Integer.MIN_VALUE + 500 + loops.size();
                loops.push(new int[] {contMark});
                breaks.push(afterMark);
                int edgeMark = edges.size();
                cur = body;
                statement(d.body());
                loops.pop();
                breaks.pop();
                BasicBlock test = block();
                test.anchor = new Anchor.Cond(d.cond());
                test.items.add(d.cond());
                test.branch = d.cond();
                edge(cur, test.id, EdgeKind.JUMP);
                BasicBlock after = block();
                edge(test, body.id, EdgeKind.TRUE);
                edge(test, after.id, EdgeKind.FALSE);
                retarget(edgeMark, contMark, test.id);
                retarget(edgeMark, afterMark, after.id);
                cur = after;
            }
            case For f -> {
                if (cur.anchor == null) {
                    cur.anchor = new Anchor.Before(f);
                }
                if (f.init() != null) {
                    statement(f.init());
                }
                BasicBlock test = null;
                if (f.cond() != null) {
                    test = block();
                    test.anchor = new Anchor.Cond(f.cond());
                    test.items.add(f.cond());
                    test.branch = f.cond();
                    edge(cur, test.id, EdgeKind.JUMP);
                }
                if (test != null) {
                    BasicBlock t = test;
                    forLoop(f, t);
                } else {
                    forLoop(f, null);
                }
            }
            case Switch sw -> {
                item(s, sw.value());
                BasicBlock head = cur;
                head.branch = sw;
                int afterMark = Integer.MIN_VALUE + 1 + switchCases.size();
                breaks.push(afterMark);
                switchCases.push(new ArrayList<>());
                int edgeMark = edges.size();
                cur = block();
                statement(sw.body());
                BasicBlock end = cur;
                List<int[]> cases = switchCases.pop();
                breaks.pop();
                BasicBlock after = block();
                boolean hasDefault = false;
                for (int[] c : cases) {
                    Ast.Expr value = c[1] < 0 ? null : caseValues.get(c[1]);
                    hasDefault |= value == null;
                    edges.add(new Pending(head.id, c[0], value == null ? EdgeKind.DEFAULT : EdgeKind.CASE, value));
                }
                if (!hasDefault) {
                    edges.add(new Pending(head.id, after.id, EdgeKind.DEFAULT, null));
                }
                for (int k = edgeMark; k < edges.size(); k++) {
                    Pending p = edges.get(k);
                    if (p.to() == afterMark) {
                        edges.set(k, new Pending(p.from(), after.id, p.kind(), p.caseValue()));
                    }
                }
                edge(end, after.id, EdgeKind.JUMP);
                cur = after;
            }
            case Case c -> {
                if (switchCases.isEmpty()) {
                    throw new UnsupportedKernelException(unit.pos(s), "case label outside a switch");
                }
                BasicBlock b = block();
                edge(cur, b.id, EdgeKind.JUMP);
                cur = b;
                Stmt inner = c.body();
                while (inner instanceof Case nested) {
                    switchCases.peek().add(new int[] {b.id, valueIndex(c.value())});
                    c = nested;
                    inner = nested.body();
                }
                switchCases.peek().add(new int[] {b.id, valueIndex(c.value())});
                b.anchor = new Anchor.Before(inner);
                statement(inner);
            }
            case Goto g -> throw new UnsupportedKernelException(unit.pos(s), "goto is not supported by the instrumenter");
            case Label l -> throw new UnsupportedKernelException(unit.pos(s),
                    "labels (goto targets) are not supported by the instrumenter");
        }
    }

    private final List<Ast.Expr> caseValues = new ArrayList<>();

    private int valueIndex(Ast.Expr v) {
        if (v == null) {
            return -1;
        }
        caseValues.add(v);
        return caseValues.size() - 1;
    }

    private void loop(BasicBlock test, int continueTarget, Stmt bodyStmt, BasicBlock backTo) {
        BasicBlock body = block();
        body.anchor = new Anchor.Before(bodyStmt);
        edge(test, body.id, EdgeKind.TRUE);
        int afterMark = Integer.MIN_VALUE + 100 + loops.size();
        loops.push(new int[] {continueTarget});
        breaks.push(afterMark);
        int edgeMark = edges.size();
        cur = body;
        statement(bodyStmt);
        loops.pop();
        breaks.pop();
        edge(cur, backTo.id, EdgeKind.JUMP);
        BasicBlock after = block();
        edge(test, after.id, EdgeKind.FALSE);
        retarget(edgeMark, afterMark, after.id);
        cur = after;
    }

    private void forLoop(For f, BasicBlock test) {
        // continue goes to the step block, which is created after the body; use a placeholder
        int stepMark = Integer.MIN_VALUE + 200 + loops.size();
        int afterMark = Integer.MIN_VALUE + 300 + loops.size();
        BasicBlock body = block();
        body.anchor = new Anchor.Before(f.body());
        if (test != null) {
            edge(test, body.id, EdgeKind.TRUE);
        } else {
            edge(cur, body.id, EdgeKind.JUMP);
        }
        loops.push(new int[] {stepMark});
        breaks.push(afterMark);
        int edgeMark = edges.size();
        cur = body;
        statement(f.body());
        loops.pop();
        breaks.pop();
        int loopBack = test != null ? test.id : body.id;
        int stepTarget = loopBack;
        if (f.step() != null) {
            BasicBlock step = block();
            step.anchor = new Anchor.Step(f.step());
            step.items.add(f.step());
            edge(cur, step.id, EdgeKind.JUMP);
            edge(step, loopBack, EdgeKind.JUMP);
            stepTarget = step.id;
        } else {
            edge(cur, loopBack, EdgeKind.JUMP);
        }
        BasicBlock after = block();
        if (test != null) {
            edge(test, after.id, EdgeKind.FALSE);
        }
        retarget(edgeMark, stepMark, stepTarget);
        retarget(edgeMark, afterMark, after.id);
        cur = after;
    }

    private void retarget(int from, int placeholder, int target) {
        for (int k = from; k < edges.size(); k++) {
            Pending p = edges.get(k);
            if (p.to() == placeholder) {
                edges.set(k, new Pending(p.from(), target, p.kind(), p.caseValue()));
            }
        }
    }

    private Cfg finish(FunctionDef f) {
        int n = blocks.size();
        // fold empty blocks (no items, one way out) into their successor
        int[] forward = new int[n];
        for (int b = 0; b < n; b++) {
            forward[b] = b;
        }
        for (int b = 1; b < n; b++) {
            BasicBlock bb = blocks.get(b);
            if (!bb.items.isEmpty()) {
                continue;
            }
            int target = Integer.MAX_VALUE;
            boolean single = true;
            for (Pending p : edges) {
                if (p.from() == b) {
                    if (target == Integer.MAX_VALUE) {
                        target = p.to();
                    } else if (target != p.to()) {
                        single = false;
                    }
                }
            }
            if (single && target != Integer.MAX_VALUE && target != b) {
                forward[b] = target;
            }
        }
        int[] resolved = new int[n];
        for (int b = 0; b < n; b++) {
            int t = b;
            int guard = 0;
            while (t >= 0 && forward[t] != t && guard++ <= n) {
                t = forward[t];
            }
            resolved[b] = guard > n ? b : t;
        }
        // reachable blocks from the entry over resolved edges
        Map<Integer, List<Pending>> out = new LinkedHashMap<>();
        for (Pending p : edges) {
            if (p.from() < 0 || p.from() >= n || resolved[p.from()] != p.from()) {
                continue;
            }
            int to = p.to() < 0 ? Cfg.EXIT : resolved[p.to()];
            out.computeIfAbsent(p.from(), k -> new ArrayList<>()).add(new Pending(p.from(), to, p.kind(), p.caseValue()));
        }
        boolean[] seen = new boolean[n];
        Deque<Integer> work = new ArrayDeque<>();
        work.push(0);
        seen[0] = true;
        while (!work.isEmpty()) {
            int b = work.pop();
            for (Pending p : out.getOrDefault(b, List.of())) {
                if (p.to() >= 0 && !seen[p.to()]) {
                    seen[p.to()] = true;
                    work.push(p.to());
                }
            }
        }
        int[] renumber = new int[n];
        List<BasicBlock> kept = new ArrayList<>();
        for (int b = 0; b < n; b++) {
            renumber[b] = -1;
            if (seen[b]) {
                renumber[b] = kept.size();
                BasicBlock bb = blocks.get(b);
                bb.id = kept.size();
                kept.add(bb);
            }
        }
        List<Edge> all = new ArrayList<>();
        for (BasicBlock bb : kept) {
            bb.successors.clear();
        }
        for (int b = 0; b < n; b++) {
            if (!seen[b]) {
                continue;
            }
            BasicBlock bb = blocks.get(b);
            // merge edges with the same target; a case sharing the default's block becomes the default
            Map<Integer, Edge> byTarget = new LinkedHashMap<>();
            for (Pending p : out.getOrDefault(b, List.of())) {
                int to = p.to() < 0 ? Cfg.EXIT : renumber[p.to()];
                Edge known = byTarget.get(to);
                List<Ast.Expr> values = p.caseValue() == null ? List.of() : List.of(p.caseValue());
                if (known == null) {
                    byTarget.put(to, new Edge(0, bb.id, to, p.kind(), values));
                } else {
                    EdgeKind kind = known.kind() == p.kind() ? known.kind()
                            : known.kind() == EdgeKind.DEFAULT || p.kind() == EdgeKind.DEFAULT ? EdgeKind.DEFAULT
                            : EdgeKind.JUMP;
                    List<Ast.Expr> merged = new ArrayList<>(known.caseValues());
                    merged.addAll(values);
                    byTarget.put(to, new Edge(0, bb.id, to, kind, kind == EdgeKind.CASE ? merged : List.of()));
                }
            }
            if (byTarget.size() == 1) {
                Edge only = byTarget.values().iterator().next();
                byTarget.put(only.to(), new Edge(0, bb.id, only.to(), EdgeKind.JUMP, List.of()));
            }
            for (Edge e : byTarget.values()) {
                Edge numbered = new Edge(all.size(), e.from(), e.to(), e.kind(), e.caseValues());
                all.add(numbered);
                bb.successors.add(numbered);
            }
        }
        return new Cfg(f, List.copyOf(kept), List.copyOf(all));
    }
}
