package org.hetscope.capture.kernels.instrument;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hetscope.capture.kernels.cfg.Cfg;
import org.hetscope.capture.kernels.cfg.CfgBuilder;
import org.hetscope.capture.kernels.cfg.UnsupportedKernelException;
import org.hetscope.capture.kernels.lang.Ast;
import org.hetscope.capture.kernels.lang.AstWalk;
import org.hetscope.capture.kernels.lang.CType;
import org.hetscope.capture.kernels.lang.KernelSourceException;
import org.hetscope.capture.kernels.lang.SourcePos;

/**
 * One kernel and the user functions it calls, checked for what the instrumenter supports, with a CFG per
 * function. Unsupported: goto and labels, casts that change the address space of a pointer, recursion, calls
 * of other kernels and of functions without a body.
 */
public record KernelScope(Ast.TranslationUnit unit, Ast.FunctionDef kernel, List<Ast.FunctionDef> helpers,
                          Map<Ast.FunctionDef, Cfg> cfgs) {

    public static KernelScope of(Ast.TranslationUnit unit, String kernelName) {
        Ast.FunctionDef k = unit.function(kernelName);
        if (k == null || !k.kernel()) {
            throw new KernelSourceException(new SourcePos(unit.tokens().getFirst().pos().file(), 1, 1),
                    "no __kernel function named '" + kernelName + "'; kernels: "
                            + unit.kernels().stream().map(Ast.FunctionDef::name).toList());
        }
        Set<String> helperNames = new LinkedHashSet<>();
        collectCalls(unit, k, helperNames, new ArrayList<>(List.of(k.name())));
        List<Ast.FunctionDef> helpers = new ArrayList<>();
        for (Ast.Decl d : unit.decls()) {
            if (d instanceof Ast.FunctionDef f && f.body() != null && helperNames.contains(f.name())) {
                helpers.add(f);
            }
        }
        Map<Ast.FunctionDef, Cfg> cfgs = new LinkedHashMap<>();
        for (Ast.FunctionDef f : helpers) {
            check(unit, f);
            cfgs.put(f, CfgBuilder.build(unit, f));
        }
        check(unit, k);
        cfgs.put(k, CfgBuilder.build(unit, k));
        return new KernelScope(unit, k, List.copyOf(helpers), cfgs);
    }

    public Cfg cfg() {
        return cfgs.get(kernel);
    }

    public SourcePos pos(int token) {
        return unit.tokens().get(token).pos();
    }

    private static void collectCalls(Ast.TranslationUnit unit, Ast.FunctionDef f, Set<String> out, List<String> stack) {
        AstWalk.visit(f.body(), n -> {
            if (n instanceof Ast.Call c && c.function() != null) {
                Ast.FunctionDef callee = unit.function(c.name());
                if (callee == null) {
                    throw new UnsupportedKernelException(unit.pos(c), "call of " + c.name()
                            + ", which has no body in this file");
                }
                if (callee.kernel()) {
                    throw new UnsupportedKernelException(unit.pos(c), "call of kernel " + c.name()
                            + " from a kernel is not supported by the instrumenter");
                }
                if (stack.contains(c.name())) {
                    throw new UnsupportedKernelException(unit.pos(c), "recursive call of " + c.name());
                }
                if (out.add(c.name())) {
                    stack.add(c.name());
                    collectCalls(unit, callee, out, stack);
                    stack.removeLast();
                }
            }
        });
    }

    private static void check(Ast.TranslationUnit unit, Ast.FunctionDef f) {
        AstWalk.visit(f.body(), n -> {
            if (n instanceof Ast.Cast c && c.target() instanceof CType.Pointer to
                    && c.operand().type() instanceof CType.Pointer from && to.space() != from.space()) {
                throw new UnsupportedKernelException(unit.pos(c), "cast from a " + from.space().label()
                        + " pointer to a " + to.space().label() + " pointer hides the memory space of accesses");
            }
            if (n instanceof Ast.Goto || n instanceof Ast.Label) {
                throw new UnsupportedKernelException(unit.pos(n), "goto and labels are not supported by the"
                        + " instrumenter");
            }
        });
    }
}
