package org.hetscope.web;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The window response, streamed: items are arrays {@code [depth, start, end, count, busy, id, name, category,
 * matches]} where name and category are indexes into the response's {@code names} and {@code categories} lists
 * (long kernel names would otherwise repeat thousands of times).
 */
final class WindowJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    private WindowJson() {
    }

    static byte[] write(long t0, long t1, int px, Map<Long, List<WindowItem>> window) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 * 1024);
        Map<String, Integer> names = new HashMap<>();
        Map<String, Integer> categories = new HashMap<>();
        List<String> nameList = new java.util.ArrayList<>();
        List<String> categoryList = new java.util.ArrayList<>();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("t0", t0);
            g.writeNumberField("t1", t1);
            g.writeNumberField("px", px);
            g.writeArrayFieldStart("columns");
            for (String c : new String[] {"depth", "start", "end", "count", "busy", "id", "name", "category",
                "matches"}) {
                g.writeString(c);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("tracks");
            for (Map.Entry<Long, List<WindowItem>> e : window.entrySet()) {
                g.writeStartObject();
                g.writeNumberField("track", e.getKey());
                g.writeArrayFieldStart("items");
                for (WindowItem it : e.getValue()) {
                    g.writeStartArray();
                    g.writeNumber(it.depth());
                    g.writeNumber(it.start());
                    g.writeNumber(it.end());
                    g.writeNumber(it.count());
                    g.writeNumber(it.busy());
                    g.writeNumber(it.id());
                    g.writeNumber(index(names, nameList, it.name()));
                    g.writeNumber(index(categories, categoryList, it.category()));
                    g.writeNumber(it.matches());
                    g.writeEndArray();
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("names");
            for (String n : nameList) {
                g.writeString(n);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("categories");
            for (String c : categoryList) {
                g.writeString(c);
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static int index(Map<String, Integer> map, List<String> list, String value) {
        String key = value == null ? "" : value;
        Integer i = map.get(key);
        if (i == null) {
            i = list.size();
            map.put(key, i);
            list.add(key);
        }
        return i;
    }
}
