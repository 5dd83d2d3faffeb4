package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The compact window response read back by a decoder written here from the format's description. */
class WindowBinaryTest {
    @Test
    void responseDecodesToTheItemsWritten() throws Exception {
        String[] names = {"volta_sgemm", "quote \" and backslash \\", "tab\tnew\nline", "é ü ☃ 𝄞", "", "\u0001"};
        long[] numbers = {0, 1, -1, 63, 64, -64, -65, 127, 128, 16_383, 16_384, 123_456_789,
            1_700_000_000_123_456_789L, Long.MAX_VALUE, Long.MIN_VALUE, -987_654_321_012L, 1L << 53};
        SplittableRandom r = new SplittableRandom(5);
        Map<Long, List<WindowItem>> window = new LinkedHashMap<>();
        for (long track = 5; track < 9; track++) {
            List<WindowItem> items = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                items.add(new WindowItem(r.nextInt(300), pick(r, numbers), pick(r, numbers), pick(r, numbers),
                        pick(r, numbers), pick(r, numbers), names[r.nextInt(names.length)],
                        r.nextBoolean() ? null : names[r.nextInt(names.length)], pick(r, numbers)));
            }
            window.put(track, items);
        }
        window.put(42L, List.of());
        byte[] bytes = WindowBinary.write(-5, Long.MAX_VALUE, 1920, window);
        assertArrayEquals("HSW1".getBytes(StandardCharsets.US_ASCII), Arrays.copyOf(bytes, 4));
        int headerLength = (bytes[4] & 0xFF) | (bytes[5] & 0xFF) << 8 | (bytes[6] & 0xFF) << 16 | (bytes[7] & 0xFF) << 24;
        JsonNode header = new ObjectMapper().readTree(new String(bytes, 8, headerLength, StandardCharsets.UTF_8));
        assertEquals(-5, header.get("t0").asLong());
        assertEquals(Long.MAX_VALUE, header.get("t1").asLong());
        assertEquals(1920, header.get("px").asInt());
        assertEquals(window.size(), header.get("tracks").size());
        int[] at = {8 + headerLength};
        int t = 0;
        for (Map.Entry<Long, List<WindowItem>> e : window.entrySet()) {
            JsonNode track = header.get("tracks").get(t++);
            assertEquals((long) e.getKey(), track.get(0).asLong());
            assertEquals(e.getValue().size(), track.get(1).asInt());
            long start = 0;
            long id = 0;
            for (WindowItem it : e.getValue()) {
                assertEquals(it.depth(), varint(bytes, at));
                start += zigzag(varint(bytes, at));
                assertEquals(it.start(), start);
                assertEquals(it.end(), start + zigzag(varint(bytes, at)));
                assertEquals(it.count(), zigzag(varint(bytes, at)));
                assertEquals(it.busy(), zigzag(varint(bytes, at)));
                id += zigzag(varint(bytes, at));
                assertEquals(it.id(), id);
                assertEquals(it.name(), header.get("names").get((int) varint(bytes, at)).asText());
                assertEquals(it.category() == null ? "" : it.category(),
                        header.get("categories").get((int) varint(bytes, at)).asText());
                assertEquals(it.matches(), zigzag(varint(bytes, at)));
            }
        }
        assertEquals(bytes.length, at[0], "nothing after the last item");
    }

    @Test
    void smallerThanTheJsonOfAZoomedInWindow() {
        // Shaped like a zoomed-in window at 100 M slices: one sub-pixel slice per pixel, 64 names.
        SplittableRandom r = new SplittableRandom(7);
        Map<Long, List<WindowItem>> window = new LinkedHashMap<>();
        for (long track = 11; track < 59; track++) {
            List<WindowItem> items = new ArrayList<>();
            long ts = 400_000_000;
            long id = track * 100_000 + 40_000;
            for (int i = 0; i < 1500; i++) {
                long dur = 100 + r.nextInt(6500);
                items.add(new WindowItem(0, ts, ts + dur, 1, dur, id++, "kernel_" + r.nextInt(64), "kernel", 0));
                ts += 10_000 + r.nextInt(3000) - 1500;
            }
            window.put(track, items);
        }
        int json = WindowJson.write(0, 1, 1920, window).length;
        int binary = WindowBinary.write(0, 1, 1920, window).length;
        assertEquals(true, binary * 3 < json, () -> "binary " + binary + " bytes, JSON " + json);
    }

    private static long varint(byte[] b, int[] at) {
        long v = 0;
        for (int shift = 0; ; shift += 7) {
            byte x = b[at[0]++];
            v |= (long) (x & 0x7F) << shift;
            if (x >= 0) {
                return v;
            }
        }
    }

    private static long zigzag(long v) {
        return (v >>> 1) ^ -(v & 1);
    }

    private static long pick(SplittableRandom r, long[] numbers) {
        return r.nextInt(3) == 0 ? numbers[r.nextInt(numbers.length)] : r.nextLong();
    }
}
