package org.hetscope.capture.kernels.cfg;

import org.hetscope.capture.kernels.lang.Ast;

/** Where code placed at the entry of a basic block goes in the source. */
public sealed interface Anchor {
    /** Just after the opening brace of the function body. */
    record Entry(Ast.FunctionDef function) implements Anchor {}

    /** Just before a statement. */
    record Before(Ast.Stmt stmt) implements Anchor {}

    /** Inside a loop condition, evaluated before it on every test (comma operator). */
    record Cond(Ast.Expr cond) implements Anchor {}

    /** Inside a {@code for} step expression, evaluated before it. */
    record Step(Ast.Expr step) implements Anchor {}
}
