package org.hetscope.model;

/**
 * How a {@link Flow} was established. {@link #SOURCE} and {@link #CORRELATION} are facts from the trace; the others
 * are guesses and are shown as such. Stored in lower case ({@code source}, {@code correlation}, {@code fifo},
 * {@code time}, {@code process_order}).
 */
public enum FlowRule {
    /** The trace said so (its own flow events, a traced waker). */
    SOURCE,
    /** The same correlation id (per process where the ids are). */
    CORRELATION,
    /** Launch order per (process, stream): a device runs a stream's work in launch order. */
    FIFO,
    /** The thread running at the time (kernel wakeups without interrupt tracing). */
    TIME,
    /** Launch order per process, for launches whose stream is not known. */
    PROCESS_ORDER;

    /** Whether the rule is a guess, not a fact of the trace. */
    public boolean guess() {
        return this != SOURCE && this != CORRELATION;
    }
}
