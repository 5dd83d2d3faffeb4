package org.hetscope.formats.paje;

import java.util.HashMap;
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
    /** Declared values by alias and by name. */
    private final Map<String, PajeValue> values = new LinkedHashMap<>();
    /** Values used without a declaration, by their text; a declared value of the same text takes precedence. */
    private final Map<String, PajeValue> undeclared = new HashMap<>();
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

    /**
     * Counts the declared values, so that what a text was resolved to can be known to be still valid. Volatile,
     * with the methods below synchronized, because the reader's block decoders resolve values on several threads.
     */
    private volatile int valuesVersion;

    int valuesVersion() {
        return valuesVersion;
    }

    synchronized void addValue(PajeValue v) {
        valuesVersion++;
        values.put(v.alias(), v);
        values.putIfAbsent(v.name(), v);
    }

    /**
     * The declared value with this alias or name; else the undeclared one of this text, created on first use with
     * the text as its name. Whichever line first uses an undeclared text makes it, so that lines decoded out of
     * file order get the same object.
     */
    synchronized PajeValue value(String text) {
        PajeValue v = values.get(text);
        if (v == null) {
            v = undeclared.computeIfAbsent(text, k -> new PajeValue(k, k, null, false));
        }
        return v;
    }

    /** The declared entity values of this type. */
    public synchronized java.util.Collection<PajeValue> declaredValues() {
        return values.values().stream().distinct().toList();
    }

    @Override
    public String toString() {
        return kind + " " + alias + " (" + name + ")";
    }
}
