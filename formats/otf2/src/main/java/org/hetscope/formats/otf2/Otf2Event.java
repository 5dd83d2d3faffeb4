package org.hetscope.formats.otf2;

/**
 * One decoded event of a location, with global ids (local ids already mapped) and raw ticks.
 *
 * @param kind what happened
 * @param ref the region, metric, or communicator the event names
 * @param peer the partner rank of a message, the request id of a non-blocking call, else 0
 * @param tag the message tag, else 0
 * @param bytes the message length, else 0
 * @param values metric values (as doubles) for {@link Kind#METRIC}, else null
 */
public record Otf2Event(Kind kind, long location, long ticks, long ref, long peer, long tag, long bytes,
                        double[] values) {

    /** The event records hetscope decodes; the rest are counted and skipped. */
    public enum Kind { ENTER, LEAVE, MPI_SEND, MPI_ISEND, MPI_RECV, MPI_IRECV, METRIC, PROGRAM_BEGIN, PROGRAM_END }
}
