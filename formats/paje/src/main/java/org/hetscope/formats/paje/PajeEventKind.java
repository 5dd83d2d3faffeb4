package org.hetscope.formats.paje;

import java.util.Map;

/** The standard Paje event kinds a {@code %EventDef} can declare, by their Paje names. */
public enum PajeEventKind {
    DEFINE_CONTAINER_TYPE("PajeDefineContainerType"),
    DEFINE_EVENT_TYPE("PajeDefineEventType"),
    DEFINE_STATE_TYPE("PajeDefineStateType"),
    DEFINE_VARIABLE_TYPE("PajeDefineVariableType"),
    DEFINE_LINK_TYPE("PajeDefineLinkType"),
    DEFINE_ENTITY_VALUE("PajeDefineEntityValue"),
    CREATE_CONTAINER("PajeCreateContainer"),
    DESTROY_CONTAINER("PajeDestroyContainer"),
    NEW_EVENT("PajeNewEvent"),
    SET_STATE("PajeSetState"),
    PUSH_STATE("PajePushState"),
    POP_STATE("PajePopState"),
    RESET_STATE("PajeResetState"),
    SET_VARIABLE("PajeSetVariable"),
    ADD_VARIABLE("PajeAddVariable"),
    SUB_VARIABLE("PajeSubVariable"),
    START_LINK("PajeStartLink"),
    END_LINK("PajeEndLink");

    private final String pajeName;

    PajeEventKind(String pajeName) {
        this.pajeName = pajeName;
    }

    public String pajeName() {
        return pajeName;
    }

    private static final Map<String, PajeEventKind> BY_NAME;

    static {
        java.util.HashMap<String, PajeEventKind> m = new java.util.HashMap<>();
        for (PajeEventKind k : values()) {
            m.put(k.pajeName, k);
        }
        BY_NAME = Map.copyOf(m);
    }

    /** Whether lines of this kind add to the types, values or containers that later lines refer to. */
    public boolean defines() {
        return ordinal() <= CREATE_CONTAINER.ordinal();
    }

    /** The kind for a Paje event name, or null for a name this reader does not know. */
    public static PajeEventKind byName(String name) {
        return BY_NAME.get(name);
    }
}
