package org.hetscope.formats.paje;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the header and the definition lines of a Paje file have declared so far: event definitions by id, types
 * and containers by alias and by name. One thread adds to it, in file order; the block decoders of other threads
 * read it, and {@link #epoch()} tells them whether it changed while they worked.
 */
final class PajeDictionary {
    private volatile EventDefinition[] byId = new EventDefinition[64];
    final Map<String, PajeType> types = new ConcurrentHashMap<>();
    final Map<String, PajeContainer> containers = new ConcurrentHashMap<>();
    /** Set when the first body line was read: the event definitions are final from then on (until a '%' line). */
    volatile boolean announced;
    private volatile long epoch;

    /** The definition of an event id, or null. */
    EventDefinition definition(int id) {
        EventDefinition[] a = byId;
        return id < a.length ? a[id] : null;
    }

    void define(EventDefinition d) {
        EventDefinition[] a = byId;
        if (d.id() >= a.length) {
            a = java.util.Arrays.copyOf(a, Math.max(d.id() + 1, a.length * 2));
        }
        a[d.id()] = d;
        byId = a;
    }

    /**
     * Counts the changes: the writer calls {@link #changed()} after each one, so that a decoder that read the
     * epoch before reading the dictionary knows, by reading it again, that what it read still holds.
     */
    long epoch() {
        return epoch;
    }

    void changed() {
        epoch++;
    }
}
