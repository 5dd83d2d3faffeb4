package org.hetscope.capture.kernels.instrument;

import org.hetscope.capture.kernels.lang.Space;

/** The memory and floating-point counters, in the order their slots are allocated (spec section 3.2). */
public enum CounterKind {
    GLOBAL_STORE(Space.GLOBAL, "stores"), GLOBAL_LOAD(Space.GLOBAL, "loads"), LOCAL_STORE(Space.LOCAL, "stores"),
    LOCAL_LOAD(Space.LOCAL, "loads"), CONSTANT_LOAD(Space.CONSTANT, "loads"), FLOP(null, "flop");

    public final Space space;
    public final String what;

    CounterKind(Space space, String what) {
        this.space = space;
        this.what = what;
    }

    public static CounterKind load(Space s) {
        return switch (s) {
            case GLOBAL -> GLOBAL_LOAD;
            case LOCAL -> LOCAL_LOAD;
            case CONSTANT -> CONSTANT_LOAD;
            case PRIVATE -> null;
        };
    }

    public static CounterKind store(Space s) {
        return switch (s) {
            case GLOBAL -> GLOBAL_STORE;
            case LOCAL -> LOCAL_STORE;
            default -> null;
        };
    }

    /** The label used in annotated source, e.g. {@code global_memory loads}. */
    public String label() {
        return this == FLOP ? "floating-point operations" : space.label() + "_memory " + what;
    }
}
