package org.hetscope.model;

import java.util.Locale;

/** The normalised kind of a {@link Slice} or {@link Instant}; the source's own category is kept beside it. */
public enum Category {
    API, KERNEL, MEMCPY, MEMSET, SYNC, CPU_OP, ANNOTATION, TASK, STATE, ALLOC, MARKER, OTHER;

    // every stored slice and instant asks for its label: made once, not lower-cased per row
    private final String label = name().toLowerCase(Locale.ROOT);

    public String label() {
        return label;
    }

    public static Category fromLabel(String label) {
        return valueOf(label.toUpperCase(Locale.ROOT));
    }
}
