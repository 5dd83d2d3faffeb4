package org.hetscope.analysis.mining.itemsets;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Maps item names to dense integer ids (0, 1, 2, ... in order of first appearance) and back. */
public final class ItemDictionary {
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<String> names = new ArrayList<>();

    /** The id of {@code name}, assigning the next free id on first sight. */
    public int id(String name) {
        Integer id = ids.get(name);
        if (id == null) {
            id = names.size();
            ids.put(name, id);
            names.add(name);
        }
        return id;
    }

    /** The id of {@code name}, or -1 when it was never seen. */
    public int find(String name) {
        Integer id = ids.get(name);
        return id == null ? -1 : id;
    }

    public String name(int id) {
        return names.get(id);
    }

    public int size() {
        return names.size();
    }
}
