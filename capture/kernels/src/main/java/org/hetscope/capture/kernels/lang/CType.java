package org.hetscope.capture.kernels.lang;

import java.util.List;

/** The types the front end tracks: enough to tell floating-point arithmetic and the memory space of accesses. */
public sealed interface CType {
    /** A scalar arithmetic type ({@code int}, {@code float}, ...) or {@code void}. */
    record Scalar(String name, boolean floating, int bytes) implements CType {}

    record Vector(Scalar element, int width) implements CType {}

    record Pointer(CType target, Space space) implements CType {}

    record Array(CType element, long length) implements CType {}

    record Struct(String name, List<Field> fields) implements CType {
        public CType field(String n) {
            for (Field f : fields) {
                if (f.name().equals(n)) {
                    return f.type();
                }
            }
            return null;
        }
    }

    /** Images, samplers, events and other types the front end does not look into. */
    record Opaque(String name) implements CType {}

    record Field(String name, CType type) {}

    Scalar VOID = new Scalar("void", false, 0);
    Scalar BOOL = new Scalar("bool", false, 1);
    Scalar INT = new Scalar("int", false, 4);
    Scalar UINT = new Scalar("uint", false, 4);
    Scalar LONG = new Scalar("long", false, 8);
    Scalar ULONG = new Scalar("ulong", false, 8);
    Scalar SIZE_T = new Scalar("size_t", false, 8);
    Scalar FLOAT = new Scalar("float", true, 4);
    Scalar DOUBLE = new Scalar("double", true, 8);
    Scalar HALF = new Scalar("half", true, 2);

    /** The scalar named, or null: char..ulong, float, double, half, bool, size_t and friends. */
    static Scalar scalar(String name) {
        return switch (name) {
            case "char", "uchar", "unsigned char", "signed char" -> new Scalar(name.replace("unsigned ", "u")
                    .replace("signed ", ""), false, 1);
            case "short", "ushort" -> new Scalar(name, false, 2);
            case "int" -> INT;
            case "uint" -> UINT;
            case "long" -> LONG;
            case "ulong" -> ULONG;
            case "size_t", "ptrdiff_t", "intptr_t", "uintptr_t" -> new Scalar(name, false, 8);
            case "float" -> FLOAT;
            case "double" -> DOUBLE;
            case "half" -> HALF;
            case "bool" -> BOOL;
            case "void" -> VOID;
            default -> null;
        };
    }

    /** A vector type name such as {@code float4}, or null. */
    static Vector vector(String name) {
        for (int w : new int[] {16, 2, 3, 4, 8}) {
            String suffix = Integer.toString(w);
            if (name.endsWith(suffix)) {
                Scalar s = scalar(name.substring(0, name.length() - suffix.length()));
                if (s != null && s != VOID && s != BOOL && !s.name().endsWith("_t")) {
                    return new Vector(s, w);
                }
            }
        }
        return null;
    }

    default boolean floating() {
        return switch (this) {
            case Scalar s -> s.floating();
            case Vector v -> v.element().floating();
            default -> false;
        };
    }

    /** Number of components: the width of a vector, 1 otherwise. */
    default int components() {
        return this instanceof Vector v ? v.width() : 1;
    }

    default String display() {
        return switch (this) {
            case Scalar s -> s.name();
            case Vector v -> v.element().name() + v.width();
            case Pointer p -> (p.space() == Space.PRIVATE ? "" : "__" + p.space().label() + " ")
                    + p.target().display() + "*";
            case Array a -> a.element().display() + "[" + (a.length() < 0 ? "" : a.length()) + "]";
            case Struct s -> "struct " + s.name();
            case Opaque o -> o.name();
        };
    }
}
