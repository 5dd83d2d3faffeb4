package org.hetscope.capture.kernels.lang;

/** Typing rules of expressions: usual arithmetic conversions and vector component selection. */
public final class Types {
    private Types() {}

    public static CType arithmetic(CType a, CType b) {
        if (a instanceof CType.Vector) {
            return a;
        }
        if (b instanceof CType.Vector) {
            return b;
        }
        if (a instanceof CType.Pointer || a instanceof CType.Array) {
            return a;
        }
        if (b instanceof CType.Pointer || b instanceof CType.Array) {
            return b;
        }
        if (a instanceof CType.Scalar x && b instanceof CType.Scalar y) {
            if (x.floating() || y.floating()) {
                if (!y.floating()) {
                    return x;
                }
                if (!x.floating()) {
                    return y;
                }
                return x.bytes() >= y.bytes() ? x : y;
            }
            if (x.bytes() > 4 || y.bytes() > 4) {
                return x.bytes() >= y.bytes() ? x : y;
            }
            return x.name().equals("uint") || y.name().equals("uint") ? CType.UINT : CType.INT;
        }
        return a;
    }

    /** The type of {@code v.name} for a vector {@code v}: one component or a shorter vector. */
    public static CType swizzle(CType.Vector v, String name) {
        int n;
        if (name.equals("hi") || name.equals("lo") || name.equals("even") || name.equals("odd")) {
            n = Math.max(1, v.width() == 3 ? 2 : v.width() / 2);
        } else if (name.startsWith("s") || name.startsWith("S")) {
            n = name.length() - 1;
        } else {
            n = name.length();
        }
        return n <= 1 ? v.element() : new CType.Vector(v.element(), n);
    }
}
