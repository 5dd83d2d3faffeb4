package org.hetscope.formats.paje;

import java.util.HashMap;
import java.util.Map;

/**
 * What the header and the definition lines of a Paje file have declared so far: event definitions by id, types
 * and containers by alias and by name, added in file order.
 */
final class PajeDictionary {
    private EventDefinition[] byId = new EventDefinition[64];
    final Map<String, PajeType> types = new HashMap<>();
    final Map<String, PajeContainer> containers = new HashMap<>();
    /** Set when the first body line was read: the event definitions are final from then on (until a '%' line). */
    boolean announced;

    /** The definition of an event id, or null. */
    EventDefinition definition(int id) {
        return id < byId.length ? byId[id] : null;
    }

    void define(EventDefinition d) {
        if (d.id() >= byId.length) {
            byId = java.util.Arrays.copyOf(byId, Math.max(d.id() + 1, byId.length * 2));
        }
        byId[d.id()] = d;
    }
}
