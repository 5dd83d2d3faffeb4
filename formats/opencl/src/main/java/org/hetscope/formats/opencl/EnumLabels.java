package org.hetscope.formats.opencl;

import java.util.HashMap;
import java.util.Map;
import org.hetscope.formats.ctf.CtfEvent;
import org.hetscope.formats.ctf.FieldVisitor;

/**
 * The label of an enumeration field (an OpenCL function, command type or direction), cached per event class,
 * field and value so the payload is walked only the first time a value is seen.
 */
final class EnumLabels {
    private final Map<String, Map<Long, String>> cache = new HashMap<>();

    String label(CtfEvent e, String field) {
        long value = e.getLong(field);
        Map<Long, String> m = cache.computeIfAbsent(e.name() + '/' + field, k -> new HashMap<>());
        String label = m.get(value);
        if (label == null) {
            String[] found = {null};
            e.visitPayload(new FieldVisitor() {
                @Override
                public void integer(String name, long v, boolean signed, int size, int base) {}

                @Override
                public void enumeration(String name, long v, boolean signed, String[] labels) {
                    if (name.equals(field) && found[0] == null) {
                        found[0] = labels.length > 0 ? labels[0] : Long.toString(v);
                    }
                }

                @Override
                public void real(String name, double v) {}

                @Override
                public void string(String name, String v) {}
            });
            label = found[0] == null ? Long.toString(value) : found[0];
            m.put(value, label);
        }
        return label;
    }
}
