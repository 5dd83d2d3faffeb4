package org.hetscope.formats.paje.starpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.hetscope.model.Residency;
import org.junit.jupiter.api.Test;

/** The column stores of the StarPU import against plain collections doing the same. */
class StarpuColumnsTest {
    @Test
    void residenciesComeBackLikeAStableSortOfRecordsWhetherSpilledOrNot() throws Exception {
        Random rnd = new Random(3);
        for (String every : new String[] {null, "1", "7", "500"}) {
            if (every != null) {
                System.setProperty("hetscope.starpu.spillEvery", every);
            }
            try {
                for (int round = 0; round < 10; round++) {
                    List<Residency> ref = new ArrayList<>();
                    try (Residencies cols = new Residencies()) {
                        int n = rnd.nextInt(round < 3 ? 30 : 3000);
                        for (int i = 0; i < n; i++) {
                            // few distinct keys, so that ties on (block, node, start) keep their order
                            Residency r = new Residency(rnd.nextInt(7), 1 + rnd.nextInt(3), rnd.nextInt(20),
                                    rnd.nextInt(5), rnd.nextBoolean() ? "owner" : "shared");
                            cols.add(r.blockId(), r.nodeId(), r.ts(), r.dur(), r.state());
                            ref.add(r);
                        }
                        ref.sort(Comparator.comparingLong(Residency::blockId).thenComparingLong(Residency::nodeId)
                                .thenComparingLong(Residency::ts));
                        assertEquals(ref.size(), cols.size());
                        SortedLongRecords.Cursor c = cols.cursor();
                        for (int i = 0; i < n; i++) {
                            assertEquals(true, c.next());
                            assertEquals(ref.get(i), Residencies.record(c), "position " + i + ", spill " + every);
                        }
                        assertEquals(false, c.next());
                    }
                }
            } finally {
                System.clearProperty("hetscope.starpu.spillEvery");
            }
        }
    }

    @Test
    void onlyStarpusOwnSpellingOfACommunicationIdIsOne() {
        assertEquals(0, StarpuImport.comId("com_0"));
        assertEquals(12345, StarpuImport.comId("com_12345"));
        assertEquals(Long.MAX_VALUE, StarpuImport.comId("com_" + Long.MAX_VALUE));
        for (String other : new String[] {"com_", "com_007", "com_-5", "com_1x", "com_99999999999999999999",
                "cam_1", "com_ 1", "1"}) {
            assertEquals(-1, StarpuImport.comId(other), other);
        }
    }
}
