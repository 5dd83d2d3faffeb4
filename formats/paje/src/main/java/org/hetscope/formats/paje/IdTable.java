package org.hetscope.formats.paje;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Small numbers for the objects a spill file refers to (values, definitions, strings), so that each record stores
 * an int instead of the object; -1 stands for null.
 */
public final class IdTable<T> {
    private final List<T> items = new ArrayList<>();
    private final Map<T, Integer> ids;

    /**
     * @param ids an empty map: an {@link java.util.IdentityHashMap} to keep objects apart, a HashMap to merge equal
     *            ones
     */
    public IdTable(Map<T, Integer> ids) {
        this.ids = ids;
    }

    public int id(T item) {
        if (item == null) {
            return -1;
        }
        Integer id = ids.get(item);
        if (id == null) {
            id = items.size();
            items.add(item);
            ids.put(item, id);
        }
        return id;
    }

    public T get(int id) {
        return id < 0 ? null : items.get(id);
    }
}
