package org.hetscope.capture.kernels.lang;

import java.util.List;
import java.util.Set;

/** What the front end knows about OpenCL C builtin functions: result types and floating-point cost. */
public final class Builtins {
    private Builtins() {}

    private static final Set<String> WORK_ITEM = Set.of("get_global_id", "get_local_id", "get_group_id",
            "get_global_size", "get_local_size", "get_num_groups", "get_global_offset", "get_enqueued_local_size",
            "get_global_linear_id", "get_local_linear_id");

    /** Math and common functions: one floating-point operation per component (hetscope rule). */
    static final Set<String> MATH = Set.of("acos", "acosh", "acospi", "asin", "asinh", "asinpi", "atan", "atan2",
            "atanh", "atanpi", "atan2pi", "cbrt", "ceil", "copysign", "cos", "cosh", "cospi", "erfc", "erf", "exp",
            "exp2", "exp10", "expm1", "fabs", "fdim", "floor", "fmax", "fmin", "fmod", "fract", "frexp", "hypot",
            "ldexp", "lgamma", "log", "log2", "log10", "log1p", "logb", "modf", "nextafter", "pow", "pown", "powr",
            "remainder", "remquo", "rint", "rootn", "round", "rsqrt", "sin", "sincos", "sinh", "sinpi", "sqrt", "tan",
            "tanh", "tanpi", "tgamma", "trunc", "clamp", "degrees", "max", "min", "mix", "radians", "step",
            "smoothstep", "sign");

    public static boolean known(String name) {
        return WORK_ITEM.contains(name) || MATH.contains(name) || name.startsWith("native_")
                || name.startsWith("half_") || name.startsWith("convert_") || name.startsWith("as_")
                || name.startsWith("vload") || name.startsWith("vstore") || name.startsWith("atomic_")
                || name.startsWith("atom_") || name.startsWith("async_") || name.startsWith("wait_group")
                || name.startsWith("prefetch") || name.startsWith("is") || Set.of("get_work_dim", "barrier",
                "mem_fence", "read_mem_fence", "write_mem_fence", "work_group_barrier", "printf", "fma", "mad",
                "dot", "cross", "length", "distance", "normalize", "fast_length", "fast_distance", "fast_normalize",
                "select", "bitselect", "any", "all", "abs", "abs_diff", "add_sat", "sub_sat", "hadd", "rhadd",
                "mad_hi", "mad_sat", "mad24", "mul24", "mul_hi", "rotate", "upsample", "clz", "popcount", "shuffle",
                "shuffle2", "signbit").contains(name);
    }

    /** Whether this builtin reads or writes memory through its pointer argument (atomics, vloadN, vstoreN). */
    public static boolean atomic(String name) {
        return name.startsWith("atomic_") || name.startsWith("atom_");
    }

    public static CType resultType(String name, List<Ast.Expr> args) {
        if (WORK_ITEM.contains(name)) {
            return CType.SIZE_T;
        }
        if (name.equals("get_work_dim")) {
            return CType.UINT;
        }
        if (name.startsWith("convert_") || name.startsWith("as_")) {
            String t = name.substring(name.indexOf('_') + 1);
            int cut = t.indexOf('_');
            if (cut > 0) {
                t = t.substring(0, cut);
            }
            CType c = CType.scalar(t);
            return c != null ? c : CType.vector(t) != null ? CType.vector(t) : CType.INT;
        }
        if (name.startsWith("vload")) {
            int w = width(name.substring(name.startsWith("vload_half") ? 10 : name.startsWith("vloada_half") ? 11 : 5));
            CType elem = args.size() > 1 && args.get(1).type() instanceof CType.Pointer p ? p.target() : CType.FLOAT;
            if (name.contains("half")) {
                elem = CType.FLOAT;
            }
            return elem instanceof CType.Scalar s && w > 1 ? new CType.Vector(s, w) : elem;
        }
        if (atomic(name)) {
            return !args.isEmpty() && args.getFirst().type() instanceof CType.Pointer p ? p.target() : CType.INT;
        }
        switch (name) {
            case "barrier", "mem_fence", "read_mem_fence", "write_mem_fence", "work_group_barrier",
                 "prefetch", "wait_group_events" -> {
                return CType.VOID;
            }
            case "printf", "any", "all" -> {
                return CType.INT;
            }
            case "dot", "length", "distance", "fast_length", "fast_distance" -> {
                CType t = args.isEmpty() ? CType.FLOAT : args.getFirst().type();
                return t instanceof CType.Vector v ? v.element() : t;
            }
            default -> { }
        }
        if (name.startsWith("vstore")) {
            return CType.VOID;
        }
        if (name.startsWith("is") || name.equals("signbit")) {
            CType t = args.isEmpty() ? CType.INT : args.getFirst().type();
            return t instanceof CType.Vector v ? new CType.Vector(CType.INT, v.width()) : CType.INT;
        }
        CType widest = null;
        for (Ast.Expr a : args) {
            widest = widest == null ? a.type() : Types.arithmetic(widest, a.type());
        }
        return widest == null ? CType.INT : widest;
    }

    private static int width(String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /** Floating-point operations of one call (hetscope rule): fma/mad 2, dot 2n-1, length 2n, distance 3n,
     * normalize 3n, cross 9, math/common functions 1 per component; 0 for non-floating results. */
    public static int flops(String name, List<Ast.Expr> args, CType result) {
        CType arg = args.isEmpty() ? result : args.getFirst().type();
        if (!arg.floating() && !result.floating()) {
            return 0;
        }
        int n = arg.components();
        String base = name.startsWith("native_") ? name.substring(7) : name.startsWith("half_") ? name.substring(5)
                : name;
        return switch (base) {
            case "fma", "mad" -> 2 * n;
            case "dot" -> 2 * n - 1;
            case "length", "fast_length" -> 2 * n;
            case "distance", "fast_distance" -> 3 * n;
            case "normalize", "fast_normalize" -> 3 * n;
            case "cross" -> 9;
            default -> MATH.contains(base) ? result.components() : 0;
        };
    }
}
