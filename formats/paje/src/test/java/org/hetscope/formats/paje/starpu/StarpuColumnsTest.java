package org.hetscope.formats.paje.starpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
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
    void taskExecutionsKeepTheLastOfEachJobIdAndReportTheOthers() throws Exception {
        Random rnd = new Random(11);
        for (int round = 0; round < 30; round++) {
            if (round % 2 == 1) {
                System.setProperty("hetscope.starpu.spillEvery", Integer.toString(1 + rnd.nextInt(50)));
            }
            TaskExecutions cols = new TaskExecutions();
            Map<Long, long[]> last = new LinkedHashMap<>();
            Map<Long, Integer> seen = new TreeMap<>();
            List<String> expectedReports = new ArrayList<>();
            int n = rnd.nextInt(round < 5 ? 20 : 5000);
            for (int i = 0; i < n; i++) {
                long job = round % 3 == 0 ? rnd.nextLong() : rnd.nextInt(Math.max(1, n / 2)) - 3;
                long line = 1000 + i;
                cols.add(job, 10 * i, i, i + 5, rnd.nextInt(4), "t" + (i % 7), line);
                if (seen.merge(job, 1, Integer::sum) > 1) {
                    expectedReports.add(job + "@" + line);
                }
                last.put(job, new long[] {10 * i, i, i + 5});
            }
            List<String> reports = new ArrayList<>();
            List<long[]> walked = new ArrayList<>();
            cols.walk((job, line) -> reports.add(job + "@" + line),
                    (job, slice, from, to, w, name) -> walked.add(new long[] {job, slice, from, to}));
            assertEquals(expectedReports.stream().sorted().toList(), reports.stream().sorted().toList());
            assertEquals(last.size(), walked.size());
            long prev = Long.MIN_VALUE;
            for (int r = 0; r < walked.size(); r++) {
                long job = walked.get(r)[0];
                if (r > 0) {
                    assertEquals(true, job > prev, "JobIds ascending, each once");
                }
                prev = job;
                long[] want = last.get(job);
                assertEquals(want[0], walked.get(r)[1]);
                assertEquals(want[1], walked.get(r)[2]);
                assertEquals(want[2], walked.get(r)[3]);
            }
            cols.close();
            System.clearProperty("hetscope.starpu.spillEvery");
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
