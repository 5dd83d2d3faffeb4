package org.hetscope.analysis.profiling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.hetscope.formats.ctf.mapping.CtfTraceFormat;
import org.hetscope.model.Progress;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.hetscope.store.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kernel trace's CPU lanes sit under one "CPUs" lane, each holding exactly its CPU track's slices, with its
 * interrupt handlers below it.
 */
class LaneTreeKernelTest {
    @Test
    void cpuLanesHoldTheirTracksSlices(@TempDir Path dir) throws Exception {
        Path trace = Path.of(System.getProperty("hetscope.root", ".")).resolve("../shared/fixtures/ctf/bug446190");
        Path file = dir.resolve("k.duckdb");
        StoreWriter w = StoreWriter.create(file);
        new CtfTraceFormat().read(trace, w, Progress.NONE);
        w.commit();
        try (Store store = Store.open(file)) {
            Map<String, Long> expected = new HashMap<>();
            for (Object[] r : store.query("SELECT coalesce(p.name || ' / ', '') || t.name, count(*) FROM slice s "
                    + "JOIN track t ON t.id = s.track_id LEFT JOIN track p ON p.id = t.parent_id AND p.kind = 'cpu' "
                    + "WHERE t.kind = 'cpu' OR p.id IS NOT NULL GROUP BY 1").rows()) {
                expected.put((String) r[0], (Long) r[1]);
            }
            Table lanes = LaneTree.of(store).lanesTable();
            Long cpusLane = null;
            Map<String, Long> got = new HashMap<>();
            for (Object[] r : lanes.rows()) {
                if ("cpus".equals(r[2])) {
                    cpusLane = (Long) r[0];
                }
            }
            Map<Long, String> cpuOfLane = new HashMap<>();
            for (Object[] r : lanes.rows()) {
                if ("cpu".equals(r[2])) {
                    assertEquals(cpusLane, r[1], "under the CPUs lane");
                    assertEquals(1L, r[4], "one stretch at a time");
                    got.put((String) r[3], (Long) r[5]);
                    cpuOfLane.put((Long) r[0], (String) r[3]);
                }
            }
            for (Object[] r : lanes.rows()) {
                if ("interrupts".equals(r[2])) {
                    got.put(cpuOfLane.get((Long) r[1]) + " / " + r[3], (Long) r[5]);
                }
            }
            assertEquals(8, expected.size(), "four CPUs, each with its interrupts: " + expected);
            assertEquals(expected, got);
        }
    }
}
