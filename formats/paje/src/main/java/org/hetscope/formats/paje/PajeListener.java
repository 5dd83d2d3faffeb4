package org.hetscope.formats.paje;

import org.hetscope.model.SkipReason;

/**
 * Receives what a {@link PajeReader} decoded. Types and containers come in file order as soon as they are
 * defined; events come in file order; links come when both ends were seen; states and variable values come at
 * the end of the trace, in time order per (container, type), because Paje files need not be sorted.
 */
public interface PajeListener {

    /** The header is complete; the definitions by id are known. */
    default void header(java.util.Map<Integer, EventDefinition> definitions) {}

    default void type(PajeType type) {}

    default void value(PajeType type, PajeValue value) {}

    default void container(PajeContainer container) {}

    default void event(PajeEvent event) {}

    default void link(PajeLink link) {}

    default void state(PajeState state) {}

    /** One value of a variable, after set/add/sub were replayed in time order. */
    default void variable(PajeContainer container, PajeType type, long time, double value, long line) {}

    /** Something not placed: counted by the caller with this description and line. */
    default void problem(SkipReason reason, String what, long line, String detail) {}

    /**
     * Every line is read and every event and link was told: the states and variables are replayed next, then
     * {@link #end} follows with the same times. Work that needs only the events may start here, beside the replay.
     */
    default void bodyRead(long start, long end) {}

    /** The trace is complete; {@code end} is the latest time seen. */
    default void end(long start, long end) {}
}
