package org.hetscope.formats.paje.starpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.MemoryBlock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * starpu_block_lifetime holds, per block, the first {@code register} and the last {@code unregister} event of its
 * handle, recounted here from the raw lines of paje.trace (the analyses read this table instead of re-deriving it
 * from the instants' names and JSON arguments).
 */
class BlockLifetimeTest {

    @ParameterizedTest
    @ValueSource(strings = {"chol-dmda-nb6", "chol-lws-nb12"})
    void firstRegisterAndLastUnregisterOfEachHandle(String fixture) throws Exception {
        Map<String, Long[]> expected = new HashMap<>();
        for (StarpuFixtureTest.Raw r : StarpuFixtureTest.raw(fixture)) {
            if (r.f().length == 5 && (r.f()[2].equals("register") || r.f()[2].equals("unregister"))) {
                Long[] life = expected.computeIfAbsent(r.f()[4], k -> new Long[2]);
                if (r.f()[2].equals("register")) {
                    life[0] = life[0] == null ? r.ns() : Math.min(life[0], r.ns());
                } else {
                    life[1] = life[1] == null ? r.ns() : Math.max(life[1], r.ns());
                }
            }
        }
        assertTrue(expected.size() > 10, fixture + ": registered handles " + expected.size());

        CollectingSink s = StarpuFixtureTest.load(fixture);
        Map<Long, String> handleOf = new HashMap<>();
        for (MemoryBlock b : s.memoryBlocks) {
            handleOf.put(b.id(), b.handle());
        }
        StarpuTables.BlockLifetime t = StarpuTables.BLOCK_LIFETIME;
        Map<String, Long[]> stored = new HashMap<>();
        for (Object[] row : s.extraRows.get(t.name())) {
            String handle = handleOf.get(t.blockId.cast(row[t.blockId.index()]));
            Long[] old = stored.put(handle, new Long[] {t.registeredTs.cast(row[t.registeredTs.index()]),
                    t.unregisteredTs.cast(row[t.unregisteredTs.index()])});
            assertEquals(null, old, "one row per block: " + handle);
        }
        assertEquals(expected.keySet(), stored.keySet());
        for (var e : expected.entrySet()) {
            assertEquals(Arrays.asList(e.getValue()), Arrays.asList(stored.get(e.getKey())), e.getKey());
        }
    }
}
