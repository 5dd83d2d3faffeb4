package org.hetscope.capture.kernels.instrument;

import org.hetscope.capture.kernels.cfg.Anchor;
import org.hetscope.capture.kernels.lang.Ast;
import org.hetscope.capture.kernels.lang.AstWalk;

/** Puts code at block entries, around bodies and at the exits of a kernel, through a {@link Rewriter}. */
final class Placement {
    static final int BRACES = 0;
    static final int DECLARE = 5;
    static final int BLOCK = 10;
    static final int EXIT = 20;
    static final int COND = 30;
    static final int EDGE = 40;

    private final Rewriter rw;

    Placement(Rewriter rw) {
        this.rw = rw;
    }

    /**
     * Places code at a block entry: {@code stmtCode} (a statement) before a statement or at function entry,
     * {@code exprCode} (an expression) inside a loop condition or for step, evaluated before it.
     */
    void at(Anchor a, String stmtCode, String exprCode, int depth) {
        switch (a) {
            case Anchor.Entry e -> rw.open(e.function().body().first(), " " + stmtCode, depth);
            case Anchor.Before b -> {
                if (b.stmt() instanceof Ast.Compound c) {
                    rw.open(c.first(), " " + stmtCode, depth);
                } else {
                    rw.before(b.stmt().first(), stmtCode + " ", depth);
                }
            }
            case Anchor.Cond c -> rw.wrap(c.cond().first(), c.cond().last(), "(" + exprCode + ", ", ")", depth);
            case Anchor.Step s -> rw.wrap(s.step().first(), s.step().last(), "(" + exprCode + ", ", ")", depth);
        }
    }

    /** Wraps bodies of if/else/loops that are single statements in braces, so code can go in front of them. */
    void braceBodies(Ast.FunctionDef f) {
        AstWalk.visit(f.body(), n -> {
            switch (n) {
                case Ast.If i -> {
                    brace(i.then());
                    if (i.otherwise() != null) {
                        brace(i.otherwise());
                    }
                }
                case Ast.While w -> brace(w.body());
                case Ast.DoWhile d -> brace(d.body());
                case Ast.For x -> brace(x.body());
                default -> { }
            }
        });
    }

    private void brace(Ast.Stmt s) {
        if (!(s instanceof Ast.Compound)) {
            rw.wrap(s.first(), s.last(), "{ ", " }", BRACES);
        }
    }

    /** Runs {@code exitCode} before every return of the kernel and at its end. */
    void exits(Ast.FunctionDef kernel, String exitCode) {
        AstWalk.visit(kernel.body(), n -> {
            if (n instanceof Ast.Return r) {
                rw.wrap(r.first(), r.last(), "{ " + exitCode + " ", " }", EXIT);
            }
        });
        rw.before(kernel.body().last(), exitCode + " ", EXIT);
    }

    /** Adds a parameter in front of a function's parameter list. */
    void firstParameter(Ast.TranslationUnit unit, Ast.FunctionDef f, String param) {
        int open = f.openParen();
        if (f.params().isEmpty()) {
            if (unit.tokens().get(open + 1).text().equals("void")) {
                rw.drop(open + 1);
            }
            rw.open(open, " " + param, DECLARE);
        } else {
            rw.open(open, " " + param + ",", DECLARE);
        }
    }

    /**
     * Leaves out every function the kernel does not reach (other kernels, unused helpers), since instrumented
     * helpers change their signature; prototypes of reached helpers get {@code helperParam} when it is not null.
     */
    void keepOnly(KernelScope scope, String helperParam) {
        java.util.Set<String> kept = new java.util.HashSet<>();
        kept.add(scope.kernel().name());
        scope.helpers().forEach(h -> kept.add(h.name()));
        for (Ast.Decl d : scope.unit().decls()) {
            if (!(d instanceof Ast.FunctionDef f)) {
                continue;
            }
            if (!kept.contains(f.name())) {
                for (int t = f.first(); t <= f.last(); t++) {
                    rw.drop(t);
                }
            } else if (f.body() == null && helperParam != null) {
                firstParameter(scope.unit(), f, helperParam);
            }
        }
    }

    /** Adds an argument in front of the arguments of a call. */
    void firstArgument(Ast.TranslationUnit unit, Ast.Call c, String arg) {
        int k = c.first();
        while (!(unit.tokens().get(k).text().equals(c.name()) && unit.tokens().get(k + 1).text().equals("("))) {
            k++;
        }
        rw.open(k + 1, " " + arg + (c.args().isEmpty() ? "" : ","), DECLARE);
    }
}
