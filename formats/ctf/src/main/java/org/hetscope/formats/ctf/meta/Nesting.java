package org.hetscope.formats.ctf.meta;

import java.util.IdentityHashMap;
import java.util.Map;
import org.hetscope.formats.ctf.meta.FieldType.ArrayType;
import org.hetscope.formats.ctf.meta.FieldType.EnumType;
import org.hetscope.formats.ctf.meta.FieldType.Member;
import org.hetscope.formats.ctf.meta.FieldType.Option;
import org.hetscope.formats.ctf.meta.FieldType.OptionalType;
import org.hetscope.formats.ctf.meta.FieldType.SequenceType;
import org.hetscope.formats.ctf.meta.FieldType.StructType;
import org.hetscope.formats.ctf.meta.FieldType.VariantType;

/**
 * Bounds how deeply field classes nest (structures, variants, arrays, sequences and optionals inside one another).
 * The parsers, the layout compiler and the decoders walk field classes recursively, so metadata nesting thousands of
 * levels deep (damaged or hostile) would end in a StackOverflowError; it is refused with the position instead. The
 * depth is bounded both as written (nested braces) and as built (a named type used inside the next one, or many array
 * dimensions), because either way the walk goes as deep.
 */
final class Nesting {
    /** Far above what tracers write (LTTng and babeltrace2 traces nest a few levels) and far below the stack's limit. */
    static final int MAX_DEPTH = 100;

    /** Heights of the field classes seen so far: a named type is checked once, wherever it is used. */
    private final Map<FieldType, Integer> heights = new IdentityHashMap<>();

    /** The reason given when the nesting is too deep. */
    static String tooDeep() {
        return "field classes nested more than " + MAX_DEPTH + " levels deep (structures, variants, arrays or "
                + "sequences inside one another): damaged or hostile metadata";
    }

    /** Whether {@code t} nests more than {@link #MAX_DEPTH} levels. */
    boolean tooDeep(FieldType t) {
        return height(t, MAX_DEPTH + 1) > MAX_DEPTH;
    }

    /** The nesting height of {@code t} (1 for a scalar), or more than MAX_DEPTH when it goes deeper than the budget. */
    private int height(FieldType t, int budget) {
        if (budget <= 0) {
            return MAX_DEPTH + 1;
        }
        Integer known = heights.get(t);
        if (known != null) {
            return known;
        }
        int inner = 0;
        switch (t) {
            case StructType s -> {
                for (Member m : s.members()) {
                    inner = Math.max(inner, height(m.type(), budget - 1));
                }
            }
            case VariantType v -> {
                for (Option o : v.options()) {
                    inner = Math.max(inner, height(o.type(), budget - 1));
                }
            }
            case ArrayType a -> inner = height(a.element(), budget - 1);
            case SequenceType q -> inner = height(q.element(), budget - 1);
            case OptionalType o -> inner = height(o.inner(), budget - 1);
            case EnumType e -> inner = height(e.container(), budget - 1);
            default -> inner = 0;
        }
        int h = Math.min(MAX_DEPTH + 1, inner + 1);
        heights.put(t, h);
        return h;
    }
}
