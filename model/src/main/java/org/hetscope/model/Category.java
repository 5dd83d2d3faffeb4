package org.hetscope.model;

import java.util.Locale;

/** The normalised kind of a {@link Slice} or {@link Instant}; the source's own category is kept beside it. */
public enum Category {
    API, KERNEL, MEMCPY, MEMSET, SYNC, CPU_OP, ANNOTATION, TASK, STATE, ALLOC, MARKER, OTHER;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Category fromLabel(String label) {
        return valueOf(label.toUpperCase(Locale.ROOT));
    }
}
