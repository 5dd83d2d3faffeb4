package org.hetscope.formats.ctf.mapping;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The live-block table (blocks and their byte total) against a HashMap under random allocator-like traffic
 * (aligned, reused pointers).
 */
class LiveBlocksTest {
    @Test
    void agreesWithHashMapUnderRandomTraffic() {
        for (long seed = 1; seed <= 5; seed++) {
            Random r = new Random(seed);
            LiveBlocks t = new LiveBlocks();
            Map<Long, long[]> ref = new HashMap<>();
            long refBytes = 0; // the sizes the map holds, kept as it changes
            // A small pool of 16-byte aligned pointers makes reuse and long probe runs common.
            int pool = seed % 2 == 0 ? 300 : 20_000;
            for (int op = 0; op < 200_000; op++) {
                long ptr = 0x5560_0000_0000L + 16L * r.nextInt(pool);
                if (r.nextInt(3) > 0) {
                    long size = r.nextInt(1 << 20);
                    boolean replaced = t.put(ptr, size, op, op % 97);
                    long[] old = ref.put(ptr, new long[] {size, op, op % 97});
                    refBytes += size - (old == null ? 0 : old[0]);
                    assertEquals(old != null, replaced, "put " + ptr);
                    if (old != null) {
                        assertEquals(old[0], t.removedSize);
                        assertEquals(old[1], t.removedStart);
                        assertEquals(old[2], t.removedLane);
                    }
                } else {
                    long[] old = ref.remove(ptr);
                    refBytes -= old == null ? 0 : old[0];
                    assertEquals(old != null, t.remove(ptr), "remove " + ptr);
                    if (old != null) {
                        assertEquals(old[0], t.removedSize);
                        assertEquals(old[1], t.removedStart);
                        assertEquals(old[2], t.removedLane);
                    }
                }
                assertEquals(ref.size(), t.size());
                assertEquals(refBytes, t.bytes());
            }
            Map<Long, long[]> seen = new HashMap<>();
            t.forEachSlot(i -> seen.put(t.ptrAt(i), new long[] {t.sizeAt(i), t.startAt(i), t.laneAt(i)}));
            assertEquals(ref.keySet(), seen.keySet());
            assertEquals(ref.values().stream().mapToLong(v -> v[0]).sum(), t.bytes());
            ref.forEach((k, v) -> assertEquals(List.of(v[0], v[1], v[2]),
                    List.of(seen.get(k)[0], seen.get(k)[1], seen.get(k)[2])));
        }
    }
}
