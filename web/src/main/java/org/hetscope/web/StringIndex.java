package org.hetscope.web;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Numbers the distinct strings of a window response in first-seen order, so each item carries an index, not text. */
final class StringIndex {
    private final Map<String, Integer> indexes = new HashMap<>();
    private final List<String> values = new ArrayList<>();

    /** The index of {@code value} (null reads as the empty string), given the next one when first seen. */
    int index(String value) {
        String key = value == null ? "" : value;
        Integer i = indexes.get(key);
        if (i == null) {
            i = values.size();
            indexes.put(key, i);
            values.add(key);
        }
        return i;
    }

    /** The strings, at their indexes. */
    List<String> values() {
        return values;
    }
}
