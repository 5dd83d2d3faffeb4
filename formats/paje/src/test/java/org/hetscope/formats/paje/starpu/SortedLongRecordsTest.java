package org.hetscope.formats.paje.starpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.hetscope.formats.paje.SpillFileNames;
import org.junit.jupiter.api.Test;

class SortedLongRecordsTest {
    @Test
    void readsBackEveryRecordInAStableSortOfTheLeadingColumnsWhateverTheBudget() throws Exception {
        Random random = new Random(5);
        Set<String> before = SpillFileNames.starpu();
        for (int round = 0; round < 12; round++) {
            int width = 1 + random.nextInt(6);
            int keys = 1 + random.nextInt(width);
            int n = round == 0 ? 0 : random.nextInt(round < 4 ? 10 : 4000);
            List<long[]> records = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long[] r = new long[width];
                for (int c = 0; c < width; c++) {
                    // few distinct key values so that ties are common; extremes too
                    r[c] = switch (random.nextInt(10)) {
                        case 0 -> Long.MIN_VALUE;
                        case 1 -> Long.MAX_VALUE;
                        case 2 -> random.nextLong();
                        default -> random.nextInt(4) - 1;
                    };
                }
                records.add(r);
            }
            Comparator<long[]> order = (a, b) -> {
                for (int k = 0; k < keys; k++) {
                    int c = Long.compare(a[k], b[k]);
                    if (c != 0) {
                        return c;
                    }
                }
                return 0;
            };
            List<long[]> expected = new ArrayList<>(records);
            expected.sort(order); // List.sort is stable: ties stay in the order added
            if (round % 3 == 1) {
                // already in key order, ties included (no sort is needed): they must come back as added
                records = new ArrayList<>(expected);
            } else if (round % 3 == 2 && n > 2) {
                // in key order but for the last record
                records = new ArrayList<>(expected.subList(1, n));
                records.add(expected.get(0));
                expected = new ArrayList<>(records);
                expected.sort(order);
            }
            for (long budget : new long[] {1, 3, 97, 1 << 20}) {
                try (SortedLongRecords s = new SortedLongRecords("test records", width, keys, budget)) {
                    records.forEach(s::add);
                    assertEquals(n, s.size());
                    for (int pass = 0; pass < 2; pass++) {
                        SortedLongRecords.Cursor c = s.cursor();
                        for (int i = 0; i < n; i++) {
                            assertTrue(c.next(), "record " + i);
                            long[] got = new long[width];
                            for (int col = 0; col < width; col++) {
                                got[col] = c.get(col);
                            }
                            assertEquals(Arrays.toString(expected.get(i)), Arrays.toString(got),
                                    "round " + round + " budget " + budget + " pass " + pass + " record " + i);
                        }
                        assertEquals(false, c.next());
                    }
                }
            }
        }
        assertTrue(before.containsAll(SpillFileNames.starpu()), "spill files are deleted on close");
    }
}
