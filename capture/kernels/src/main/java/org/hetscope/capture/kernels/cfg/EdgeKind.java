package org.hetscope.capture.kernels.cfg;

/** Why control goes from one block to another. */
public enum EdgeKind {
    /** Unconditional: fall-through, jump, or both branch arms reaching the same block. */
    JUMP,
    /** A condition held (then-branch, loop continues). */
    TRUE,
    /** A condition failed (else-branch, loop exit). */
    FALSE,
    /** A switch case label. */
    CASE,
    /** The switch default label, or no case matched. */
    DEFAULT
}
