package org.hetscope.formats.paje;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A type of the Paje type hierarchy: a container type, or a state, event, variable or link type that belongs to
 * a container type. Entity values (state and event values, with names and colours) are scoped by their type.
 */
public final class PajeType {
    /** What a type describes. */
    public enum Kind { CONTAINER, STATE, EVENT, VARIABLE, LINK }

    private final Kind kind;
    private final String alias;
    private final String name;
    private final PajeType parent;
    private final PajeType startType;
    private final PajeType endType;
    private final Map<String, PajeValue> values = new LinkedHashMap<>();
    /** Dense index among the types of one trace, for per-container lookups. */
    final int slot;

    PajeType(int slot, Kind kind, String alias, String name, PajeType parent, PajeType startType, PajeType endType) {
        this.slot = slot;
        this.kind = kind;
        this.alias = alias;
        this.name = name;
        this.parent = parent;
        this.startType = startType;
        this.endType = endType;
    }

    public Kind kind() {
        return kind;
    }

    public String alias() {
        return alias;
    }

    public String name() {
        return name;
    }

    /** The container type this type belongs to (for a container type: its parent; null at the root). */
    public PajeType parent() {
        return parent;
    }

    public PajeType startType() {
        return startType;
    }

    public PajeType endType() {
        return endType;
    }

    /** Counts the declared values, so that what a text was resolved to can be known to be still valid. */
    private int valuesVersion;

    int valuesVersion() {
        return valuesVersion;
    }

    void addValue(PajeValue v) {
        valuesVersion++;
        values.put(v.alias(), v);
        values.putIfAbsent(v.name(), v);
    }

    /** The declared value with this alias or name; an undeclared one is created with the text as its name. */
    PajeValue value(String text) {
        PajeValue v = values.get(text);
        if (v == null) {
            v = new PajeValue(text, text, null, false);
            values.put(text, v);
        }
        return v;
    }

    /** The declared entity values of this type. */
    public java.util.Collection<PajeValue> declaredValues() {
        return values.values().stream().filter(PajeValue::declared).distinct().toList();
    }

    @Override
    public String toString() {
        return kind + " " + alias + " (" + name + ")";
    }
}
