package org.hetscope.formats.opencl;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.formats.ctf.CtfEvent;
import org.hetscope.formats.ctf.FieldVisitor;

/** Collects the integer elements of an event's array and sequence fields, by field name. */
final class Arrays3 implements FieldVisitor {
    private final Map<String, List<Long>> arrays = new HashMap<>();
    private String open;

    static Map<String, List<Long>> of(CtfEvent e) {
        Arrays3 v = new Arrays3();
        e.visitPayload(v);
        return v.arrays;
    }

    @Override
    public void beginArray(String name, int length) {
        open = name;
        arrays.put(name, new ArrayList<>(length));
    }

    @Override
    public void endArray(String name) {
        open = null;
    }

    @Override
    public void integer(String name, long value, boolean signed, int size, int base) {
        if (open != null) {
            arrays.get(open).add(value);
        }
    }

    @Override
    public void enumeration(String name, long value, boolean signed, String[] labels) {
        integer(name, value, signed, 0, 10);
    }

    @Override
    public void real(String name, double value) {}

    @Override
    public void string(String name, String value) {}
}
