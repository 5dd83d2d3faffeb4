package org.hetscope.capture.kernels.instrument;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.hetscope.capture.kernels.lang.Ast;
import org.hetscope.capture.kernels.lang.Ast.*;
import org.hetscope.capture.kernels.lang.Builtins;
import org.hetscope.capture.kernels.lang.CType;
import org.hetscope.capture.kernels.lang.Space;

/**
 * Static counts of memory accesses and floating-point operations of expressions (hetscope rules, documented in
 * docs/schema.md): an lvalue of a __global/__local/__constant object read counts one load, written one store;
 * compound assignment and ++/-- count both; atomics count a load and a store; vloadN/vstoreN one access; binary
 * + - * / (and compound forms, ++/--) on floating types one FLOP per component; fma/mad 2; math builtins 1.
 * Operands that run only conditionally (right of && and ||, arms of ?:) are handed to {@code conditional}.
 */
final class StaticCounts {
    final Map<CounterKind, Long> counts = new EnumMap<>(CounterKind.class);
    private final BiConsumer<Expr, Integer> conditional;
    private final int depth;

    /**
     * @param conditional receives operands evaluated only on some paths, with their nesting depth
     */
    StaticCounts(BiConsumer<Expr, Integer> conditional, int depth) {
        this.conditional = conditional;
        this.depth = depth;
    }

    boolean isEmpty() {
        return counts.values().stream().allMatch(v -> v == 0);
    }

    private void add(CounterKind k, long n) {
        if (k != null && n != 0) {
            counts.merge(k, n, Long::sum);
        }
    }

    private void load(Space s) {
        if (s != null) {
            add(CounterKind.load(s), 1);
        }
    }

    private void store(Space s) {
        if (s != null) {
            add(CounterKind.store(s), 1);
        }
    }

    /** Counts one block item: a statement or an expression evaluated as a whole. */
    void item(Ast.Node n) {
        switch (n) {
            case DeclStmt d -> d.vars().forEach(v -> {
                if (v.init() != null) {
                    expr(v.init(), true);
                }
            });
            case ExprStmt e -> {
                if (e.expr() != null) {
                    expr(e.expr(), true);
                }
            }
            case Return r -> {
                if (r.value() != null) {
                    expr(r.value(), true);
                }
            }
            case Expr e -> expr(e, true);
            default -> { }
        }
    }

    private static boolean memoryObject(Expr e) {
        return e.space() != null && e.space().counted() && !(e.type() instanceof CType.Array);
    }

    /** @param read whether the value of an lvalue is read here (false for assignment targets and &x) */
    void expr(Expr e, boolean read) {
        switch (e) {
            case Ident x -> {
                if (read && memoryObject(x) && x.variable()) {
                    load(x.space());
                }
            }
            case Literal x -> { }
            case SizeofType x -> { }
            case Index x -> {
                expr(x.base(), x.base().type() instanceof CType.Pointer);
                expr(x.index(), true);
                if (read && memoryObject(x)) {
                    load(x.space());
                }
            }
            case Member x -> {
                expr(x.base(), x.arrow());
                if (read && memoryObject(x)) {
                    load(x.space());
                }
            }
            case Unary x -> {
                switch (x.op()) {
                    case "sizeof" -> { }
                    case "*" -> {
                        expr(x.operand(), true);
                        if (read && memoryObject(x)) {
                            load(x.space());
                        }
                    }
                    case "&" -> expr(x.operand(), false);
                    case "++", "--" -> {
                        expr(x.operand(), false);
                        if (memoryObject(x.operand())) {
                            load(x.operand().space());
                            store(x.operand().space());
                        }
                        if (x.operand().type().floating()) {
                            add(CounterKind.FLOP, x.operand().type().components());
                        }
                    }
                    default -> expr(x.operand(), true);
                }
            }
            case Cast x -> expr(x.operand(), true);
            case VectorLiteral x -> x.parts().forEach(p -> expr(p, true));
            case InitList x -> x.items().forEach(p -> expr(p, true));
            case Binary x -> binary(x);
            case Conditional x -> {
                expr(x.cond(), true);
                conditional.accept(x.then(), depth + 1);
                conditional.accept(x.otherwise(), depth + 1);
            }
            case Call x -> call(x);
        }
    }

    private void binary(Binary x) {
        String op = x.op();
        if (x.assignment()) {
            expr(x.left(), false);
            if (!op.equals("=") && memoryObject(x.left())) {
                load(x.left().space());
            }
            if (memoryObject(x.left())) {
                store(x.left().space());
            }
            expr(x.right(), true);
            String arith = op.substring(0, op.length() - 1);
            if (List.of("+", "-", "*", "/").contains(arith) && x.left().type().floating()) {
                add(CounterKind.FLOP, x.left().type().components());
            }
            return;
        }
        if (op.equals("&&") || op.equals("||")) {
            expr(x.left(), true);
            conditional.accept(x.right(), depth + 1);
            return;
        }
        expr(x.left(), true);
        expr(x.right(), true);
        if (List.of("+", "-", "*", "/").contains(op) && x.type().floating()) {
            add(CounterKind.FLOP, x.type().components());
        }
    }

    private void call(Call x) {
        boolean atomic = Builtins.atomic(x.name()) && x.function() == null;
        for (int k = 0; k < x.args().size(); k++) {
            Expr a = x.args().get(k);
            expr(a, true);
        }
        if (x.function() != null) {
            return;
        }
        if (atomic && !x.args().isEmpty() && x.args().getFirst().type() instanceof CType.Pointer p) {
            load(p.space());
            store(p.space());
        } else if (x.name().startsWith("vload") && x.args().size() > 1
                && x.args().get(1).type() instanceof CType.Pointer p) {
            load(p.space());
        } else if (x.name().startsWith("vstore") && x.args().size() > 2
                && x.args().get(2).type() instanceof CType.Pointer p) {
            store(p.space());
        }
        add(CounterKind.FLOP, Builtins.flops(x.name(), x.args(), x.type()));
    }
}
