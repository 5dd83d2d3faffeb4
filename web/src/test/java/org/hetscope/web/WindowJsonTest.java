package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The hand-written window response read back with Jackson's parser. */
class WindowJsonTest {
    @Test
    void responseParsesToTheItemsWritten() throws Exception {
        String[] names = {"volta_sgemm", "quote \" and backslash \\", "tab\tnew\nline", "é ü ☃ 𝄞", "", "\u0001"};
        long[] numbers = {0, 1, -1, 9, 10, 99, 100, 123_456_789, 1_700_000_000_123_456_789L, Long.MAX_VALUE,
            Long.MIN_VALUE, -987_654_321_012L};
        SplittableRandom r = new SplittableRandom(3);
        Map<Long, List<WindowItem>> window = new LinkedHashMap<>();
        for (long track = 5; track < 9; track++) {
            List<WindowItem> items = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                items.add(new WindowItem(r.nextInt(4), pick(r, numbers), pick(r, numbers), pick(r, numbers),
                        pick(r, numbers), pick(r, numbers), names[r.nextInt(names.length)],
                        r.nextBoolean() ? null : names[r.nextInt(names.length)], pick(r, numbers)));
            }
            window.put(track, items);
        }
        window.put(42L, List.of());
        JsonNode json = new ObjectMapper().readTree(WindowJson.write(-5, Long.MAX_VALUE, 1920, window));
        assertEquals(-5, json.get("t0").asLong());
        assertEquals(Long.MAX_VALUE, json.get("t1").asLong());
        assertEquals(1920, json.get("px").asInt());
        assertEquals(9, json.get("columns").size());
        int t = 0;
        for (Map.Entry<Long, List<WindowItem>> e : window.entrySet()) {
            JsonNode track = json.get("tracks").get(t++);
            assertEquals((long) e.getKey(), track.get("track").asLong());
            assertEquals(e.getValue().size(), track.get("items").size());
            for (int i = 0; i < e.getValue().size(); i++) {
                WindowItem it = e.getValue().get(i);
                JsonNode a = track.get("items").get(i);
                assertEquals(it.depth(), a.get(0).asInt());
                assertEquals(it.start(), a.get(1).asLong());
                assertEquals(it.end(), a.get(2).asLong());
                assertEquals(it.count(), a.get(3).asLong());
                assertEquals(it.busy(), a.get(4).asLong());
                assertEquals(it.id(), a.get(5).asLong());
                assertEquals(it.name(), json.get("names").get(a.get(6).asInt()).asText());
                assertEquals(it.category() == null ? "" : it.category(),
                        json.get("categories").get(a.get(7).asInt()).asText());
                assertEquals(it.matches(), a.get(8).asLong());
            }
        }
        assertEquals(window.size(), json.get("tracks").size());
    }

    private static long pick(SplittableRandom r, long[] values) {
        return r.nextInt(3) == 0 ? r.nextLong() : values[r.nextInt(values.length)];
    }
}
