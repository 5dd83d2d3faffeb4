package org.hetscope.formats.paje;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One {@code %EventDef} block of a Paje header: which event kind an id stands for and in which order its fields
 * come. The standard fields of the kind are located by name; every other field is an extra field whose value is
 * passed on with the record (StarPU adds Handle, Info, Size, Tid, JobId, ...).
 */
public final class EventDefinition {
    /** Standard field roles; {@link #index(Field)} gives their position in a body line (without the id). */
    public enum Field { TIME, ALIAS, TYPE, CONTAINER, NAME, VALUE, START_CONTAINER_TYPE, END_CONTAINER_TYPE, COLOR,
        START_CONTAINER, END_CONTAINER, KEY }

    private final int id;
    private final PajeEventKind kind;
    private final List<String> fieldNames;
    private final int[] index = new int[Field.values().length];
    private final int[] extraIndex;
    private final String[] extraNames;
    EventDefinition(int id, PajeEventKind kind, List<String> fieldNames) {
        this.id = id;
        this.kind = kind;
        this.fieldNames = List.copyOf(fieldNames);
        java.util.Arrays.fill(index, -1);
        List<Integer> extras = new ArrayList<>();
        for (int i = 0; i < fieldNames.size(); i++) {
            Field f = roleOf(kind, fieldNames.get(i));
            if (f != null && index[f.ordinal()] < 0) {
                index[f.ordinal()] = i;
            } else {
                extras.add(i);
            }
        }
        extraIndex = extras.stream().mapToInt(Integer::intValue).toArray();
        extraNames = new String[extraIndex.length];
        for (int i = 0; i < extraIndex.length; i++) {
            extraNames[i] = fieldNames.get(extraIndex[i]);
        }
    }

    private static Field roleOf(PajeEventKind kind, String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "time" -> Field.TIME;
            case "alias" -> Field.ALIAS;
            // Older Paje files name the parent type ContainerType or EntityType (PajeNG's --no-strict).
            case "type", "containertype", "entitytype" -> Field.TYPE;
            case "container" -> Field.CONTAINER;
            case "name" -> Field.NAME;
            case "value" -> Field.VALUE;
            case "startcontainertype", "sourcecontainertype" -> Field.START_CONTAINER_TYPE;
            case "endcontainertype", "destcontainertype" -> Field.END_CONTAINER_TYPE;
            case "color" -> Field.COLOR;
            case "startcontainer", "sourcecontainer" -> Field.START_CONTAINER;
            case "endcontainer", "destcontainer" -> Field.END_CONTAINER;
            case "key" -> Field.KEY;
            default -> null;
        };
    }

    /** Fields a body line of this kind must carry; checked when the header is complete. */
    List<Field> required() {
        return switch (kind) {
            case DEFINE_CONTAINER_TYPE, DEFINE_EVENT_TYPE, DEFINE_STATE_TYPE, DEFINE_VARIABLE_TYPE ->
                    List.of(Field.TYPE, Field.NAME);
            case DEFINE_LINK_TYPE -> List.of(Field.TYPE, Field.START_CONTAINER_TYPE, Field.END_CONTAINER_TYPE,
                    Field.NAME);
            case DEFINE_ENTITY_VALUE -> List.of(Field.TYPE, Field.NAME);
            case CREATE_CONTAINER -> List.of(Field.TIME, Field.TYPE, Field.CONTAINER, Field.NAME);
            case DESTROY_CONTAINER -> List.of(Field.TIME, Field.NAME, Field.TYPE);
            case NEW_EVENT, SET_STATE, PUSH_STATE, SET_VARIABLE, ADD_VARIABLE, SUB_VARIABLE ->
                    List.of(Field.TIME, Field.TYPE, Field.CONTAINER, Field.VALUE);
            case POP_STATE, RESET_STATE -> List.of(Field.TIME, Field.TYPE, Field.CONTAINER);
            case START_LINK -> List.of(Field.TIME, Field.TYPE, Field.CONTAINER, Field.START_CONTAINER, Field.KEY);
            case END_LINK -> List.of(Field.TIME, Field.TYPE, Field.CONTAINER, Field.END_CONTAINER, Field.KEY);
        };
    }

    public int id() {
        return id;
    }

    public PajeEventKind kind() {
        return kind;
    }

    public List<String> fieldNames() {
        return fieldNames;
    }

    public int fieldCount() {
        return fieldNames.size();
    }

    /** Position of a standard field in a body line (0 = first field after the id), or -1 when absent. */
    public int index(Field f) {
        return index[f.ordinal()];
    }

    /** Names of the extra fields, in line order. */
    public String[] extraNames() {
        return extraNames;
    }

    int[] extraIndex() {
        return extraIndex;
    }

    /** Position of an extra field by name, among {@link #extraNames()}, or -1. */
    public int extra(String name) {
        for (int i = 0; i < extraNames.length; i++) {
            if (extraNames[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
