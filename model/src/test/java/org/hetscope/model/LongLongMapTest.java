package org.hetscope.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LongLongMapTest {
    @Test
    void behavesAsAHashMapUnderRandomPutsAndLookups() {
        Random rnd = new Random(7);
        for (int round = 0; round < 20; round++) {
            LongLongMap m = new LongLongMap(1 + rnd.nextInt(64));
            Map<Long, Long> ref = new HashMap<>();
            // few distinct keys (collisions, replacements) in some rounds, wide ones in others
            long range = round % 2 == 0 ? 50 : Long.MAX_VALUE;
            for (int i = 0; i < 20_000; i++) {
                long k = range == Long.MAX_VALUE ? rnd.nextLong() : rnd.nextLong(range) - 25;
                if (k == Long.MIN_VALUE) {
                    continue;
                }
                long v = rnd.nextLong();
                switch (rnd.nextInt(3)) {
                    case 0 -> {
                        assertEquals(ref.getOrDefault(k, -1L), m.put(k, v, -1L));
                        ref.put(k, v);
                    }
                    case 1 -> {
                        assertEquals(!ref.containsKey(k), m.putIfAbsent(k, v));
                        ref.putIfAbsent(k, v);
                    }
                    default -> assertEquals(ref.getOrDefault(k, 42L), m.get(k, 42L));
                }
            }
            assertEquals(ref.size(), m.size());
            for (var e : ref.entrySet()) {
                assertEquals(e.getValue(), m.get(e.getKey(), 0));
            }
        }
    }

    @Test
    void theReservedKeyIsRefused() {
        LongLongMap m = new LongLongMap();
        assertThrows(IllegalArgumentException.class, () -> m.put(Long.MIN_VALUE, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> m.putIfAbsent(Long.MIN_VALUE, 1));
    }
}
