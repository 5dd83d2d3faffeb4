package org.hetscope.capture.kernels.lang;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.hetscope.capture.kernels.lang.Ast.*;

/** Generic traversal of syntax trees. */
public final class AstWalk {
    private AstWalk() {}

    /** Direct sub-expressions of an expression. */
    public static List<Expr> children(Expr e) {
        return switch (e) {
            case Ident x -> List.of();
            case Literal x -> List.of();
            case SizeofType x -> List.of();
            case Unary x -> List.of(x.operand());
            case Cast x -> List.of(x.operand());
            case VectorLiteral x -> x.parts();
            case Binary x -> List.of(x.left(), x.right());
            case Conditional x -> List.of(x.cond(), x.then(), x.otherwise());
            case Index x -> List.of(x.base(), x.index());
            case Member x -> List.of(x.base());
            case Call x -> x.args();
            case InitList x -> x.items();
        };
    }

    /** Direct sub-statements and expressions of a statement. */
    public static List<Node> children(Stmt s) {
        List<Node> out = new ArrayList<>();
        switch (s) {
            case Compound c -> out.addAll(c.items());
            case DeclStmt d -> d.vars().forEach(v -> {
                if (v.init() != null) {
                    out.add(v.init());
                }
            });
            case ExprStmt e -> {
                if (e.expr() != null) {
                    out.add(e.expr());
                }
            }
            case If i -> {
                out.add(i.cond());
                out.add(i.then());
                if (i.otherwise() != null) {
                    out.add(i.otherwise());
                }
            }
            case While w -> {
                out.add(w.cond());
                out.add(w.body());
            }
            case DoWhile d -> {
                out.add(d.body());
                out.add(d.cond());
            }
            case For f -> {
                if (f.init() != null) {
                    out.add(f.init());
                }
                if (f.cond() != null) {
                    out.add(f.cond());
                }
                if (f.step() != null) {
                    out.add(f.step());
                }
                out.add(f.body());
            }
            case Switch w -> {
                out.add(w.value());
                out.add(w.body());
            }
            case Case c -> {
                if (c.value() != null) {
                    out.add(c.value());
                }
                out.add(c.body());
            }
            case Return r -> {
                if (r.value() != null) {
                    out.add(r.value());
                }
            }
            case Label l -> out.add(l.body());
            case Break b -> { }
            case Continue c -> { }
            case Goto g -> { }
            case Pragma p -> { }
        }
        return out;
    }

    /** Visits every node below (and including) {@code n}, parents first. */
    public static void visit(Node n, Consumer<Node> visitor) {
        visitor.accept(n);
        switch (n) {
            case Expr e -> children(e).forEach(c -> visit(c, visitor));
            case Stmt s -> children(s).forEach(c -> visit(c, visitor));
            case FunctionDef f -> {
                if (f.body() != null) {
                    visit(f.body(), visitor);
                }
            }
            case Decl d -> { }
        }
    }
}
