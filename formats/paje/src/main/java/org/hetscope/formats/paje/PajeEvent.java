package org.hetscope.formats.paje;

/** A point event ({@code PajeNewEvent}) on a container, with the extra fields of its definition. */
public record PajeEvent(PajeContainer container, PajeType type, long time, PajeValue value,
                        EventDefinition definition, String[] extras, long line) {

    /** The value of an extra field by name, or null when the definition has no such field. */
    public String extra(String name) {
        int i = definition.extra(name);
        return i < 0 ? null : extras[i];
    }
}
