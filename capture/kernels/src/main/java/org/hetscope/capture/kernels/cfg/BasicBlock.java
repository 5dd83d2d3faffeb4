package org.hetscope.capture.kernels.cfg;

import java.util.ArrayList;
import java.util.List;
import org.hetscope.capture.kernels.lang.Ast;

/**
 * A basic block: straight-line items (simple statements and the expressions evaluated in the block: a
 * condition, a {@code for} step, a switch value) that always run together once the block is entered.
 */
public final class BasicBlock {
    int id;
    Anchor anchor;
    final List<Ast.Node> items = new ArrayList<>();
    final List<Edge> successors = new ArrayList<>();
    /** The condition deciding between TRUE and FALSE edges, or the switch whose value picks the edge. */
    Ast.Node branch;

    BasicBlock(int id) {
        this.id = id;
    }

    public int id() {
        return id;
    }

    public Anchor anchor() {
        return anchor;
    }

    public List<Ast.Node> items() {
        return items;
    }

    public List<Edge> successors() {
        return successors;
    }

    /** The branch condition ({@link Ast.Expr}) or {@link Ast.Switch}; null when the block has one successor. */
    public Ast.Node branch() {
        return successors.size() >= 2 ? branch : null;
    }

    /** First token of the block, for source lines. */
    public int firstToken() {
        return switch (anchor) {
            case Anchor.Entry e -> e.function().body().first();
            case Anchor.Before b -> b.stmt().first();
            case Anchor.Cond c -> c.cond().first();
            case Anchor.Step s -> s.step().first();
        };
    }

    public int lastToken() {
        int last = firstToken();
        for (Ast.Node n : items) {
            last = Math.max(last, n.last());
        }
        return last;
    }

    @Override
    public String toString() {
        return "B" + id + successors.stream().map(e -> (e.to() < 0 ? "exit" : "B" + e.to()) + ":" + e.kind()).toList();
    }
}
