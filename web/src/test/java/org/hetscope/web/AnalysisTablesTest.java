package org.hetscope.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.hetscope.model.Entity;
import org.hetscope.model.MemoryBlock;
import org.hetscope.model.MemoryNode;
import org.hetscope.model.Residency;
import org.hetscope.model.Slice;
import org.hetscope.model.TableSpec;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.hetscope.store.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The registry behind the page's statistics and analysis panel. */
class AnalysisTablesTest {
    private static final TableSpec RUNTIME_EVENT_TABLE = TableSpec.parse("runtime_event", "ts BIGINT, what VARCHAR");
    @TempDir
    Path dir;

    @Test
    void listsStatisticsAnalysesThatApplyAndExtraStoreTables() throws Exception {
        SyntheticTrace trace = SyntheticTrace.write(dir.resolve("a.duckdb"), 300, 9);
        try (Store s = Store.open(dir.resolve("a.duckdb"))) {
            AnalysisTables tables = AnalysisTables.standard();
            List<String> names = tables.list(s).stream().map(AnalysisTables.Provider::name).toList();
            assertEquals(List.of("kernels", "api", "memcpy", "utilisation", "concurrency", "gpu.launch_latency"), names);
            // Launch latency counts one row per launch flow, grouped by the launching call's name.
            Map<Long, Slice> byId = trace.slices.stream().collect(Collectors.toMap(Slice::id, x -> x));
            Map<String, Long> expected = trace.flows.stream().collect(Collectors.groupingBy(
                    f -> byId.get(f.fromSliceId()).name() + "/" + byId.get(f.toSliceId()).category().label(),
                    Collectors.counting()));
            Table latency = tables.compute(s, "gpu.launch_latency");
            assertEquals(expected.size(), latency.size());
            for (int i = 0; i < latency.size(); i++) {
                assertEquals(expected.get(latency.get(i, "api_function") + "/" + latency.get(i, "activity")),
                        latency.get(i, "count"));
            }
        }
    }

    @Test
    void memoryViewsAndReaderTablesAppearWhenTheStoreHasThem() throws Exception {
        Path file = dir.resolve("m.duckdb");
        try (StoreWriter w = StoreWriter.create(file)) {
            long ram = w.newId(Entity.MEMORY_NODE);
            w.memoryNode(new MemoryNode(ram, "RAM", null, "RAM"));
            long block = w.newId(Entity.MEMORY_BLOCK);
            w.memoryBlock(new MemoryBlock(block, "0x1", "A", 4096L, ram, "0,0"));
            w.residency(new Residency(block, ram, 1_000, 5_000, "owner"));
            w.defineTable(RUNTIME_EVENT_TABLE);
            w.row(RUNTIME_EVENT_TABLE, 1_500L, "alloc");
            w.row(RUNTIME_EVENT_TABLE, 2_500L, "free");
            w.commit();
        }
        try (Store s = Store.open(file)) {
            AnalysisTables tables = AnalysisTables.standard();
            List<String> names = tables.list(s).stream().map(AnalysisTables.Provider::name).toList();
            assertTrue(names.contains("memory.heatmap"), names.toString());
            assertFalse(names.contains("gpu.launch_latency"), names.toString());
            assertTrue(names.contains("store.runtime_event"), names.toString());
            Table extra = tables.compute(s, "store.runtime_event");
            assertEquals(2, extra.size());
            assertEquals("alloc", extra.get(0, "what"));
        }
    }
}
