package org.hetscope.formats.ctf.mapping;

import org.hetscope.formats.ctf.CtfEvent;

/** Turns one family of CTF events into model records; events it does not claim go to the generic mapping. */
interface EventMapper {

    /** Handles {@code e} if it belongs to this family; returns whether it did. */
    boolean map(CtfEvent e);

    /** Closes what is still open at the end of the trace ({@code endNs}: the last timestamp seen). */
    void finish(long endNs);
}
