package org.hetscope.capture.kernels.cfg;

import java.util.ArrayList;
import java.util.List;
import org.hetscope.capture.kernels.lang.Ast;

/** The control-flow graph of one function: blocks numbered in source order, block 0 is the entry. */
public record Cfg(Ast.FunctionDef function, List<BasicBlock> blocks, List<Edge> edges) {
    public static final int EXIT = -1;

    public BasicBlock block(int id) {
        return blocks.get(id);
    }

    public List<Edge> predecessors(int id) {
        List<Edge> out = new ArrayList<>();
        for (Edge e : edges) {
            if (e.to() == id) {
                out.add(e);
            }
        }
        return out;
    }
}
