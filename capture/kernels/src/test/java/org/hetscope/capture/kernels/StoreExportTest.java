package org.hetscope.capture.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.hetscope.capture.kernels.instrument.CounterPlan;
import org.hetscope.capture.kernels.lang.Parser;
import org.hetscope.capture.kernels.run.ArgumentSpecs;
import org.hetscope.capture.kernels.run.CounterResult;
import org.hetscope.capture.kernels.run.KernelArgument;
import org.hetscope.capture.kernels.run.KernelRunner;
import org.hetscope.capture.kernels.run.KernelStoreExport;
import org.hetscope.capture.kernels.run.TraceOptions;
import org.hetscope.capture.kernels.run.TraceResult;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.hetscope.store.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Counters and traces in the store, checked with SQL against the launch they came from. */
class StoreExportTest {

    @Test
    void countersAndTracesLandInTheStore(@TempDir Path dir) throws Exception {
        SuiteKernel k = Suite.knn(50, 8, 64, 16);
        KernelRunner runner = TestDevice.runner(k);
        CounterResult counters = runner.count(k.args().get(), k.range(), CounterPlan.Mode.SLAB);
        TraceResult trace = runner.trace(k.args().get(), k.range(), TraceOptions.of(TraceOptions.Strategy.TWO_PHASE,
                true));
        Path file = dir.resolve("knn.duckdb");
        try (StoreWriter w = StoreWriter.create(file)) {
            KernelStoreExport export = new KernelStoreExport(w, TestDevice.session());
            export.counters("compute", k.file().toString(), k.source(), counters);
            export.trace("compute", k.file().toString(), trace);
            w.commit();
        }
        try (Store store = Store.open(file)) {
            Table sites = store.query("select construct, value, min_value, max_value from kernel_counter_site"
                    + " where construct = 'while'");
            assertEquals(400L, ((Number) sites.get(0, "value")).longValue());
            assertEquals(8L, ((Number) sites.get(0, "max_value")).longValue());
            Table lines = store.query("select count(*) as n from kernel_source_line where text like '%### visits : 14 %'");
            assertEquals(1L, ((Number) lines.get(0, "n")).longValue());
            Table kc = store.query("select value from kernel_counter where name = 'global_memory loads'");
            assertEquals(800.0, ((Number) kc.get(0, "value")).doubleValue());
            // block executions equal the naive path lengths summed over work-items (1028)
            Table blocks = store.query("select sum(executions) as e from kernel_block");
            assertEquals(1028L, ((Number) blocks.get(0, "e")).longValue());
            Table body = store.query("select executions, work_items from kernel_block where block_id = 3");
            assertEquals(400L, ((Number) body.get(0, "executions")).longValue());
            Table groups = store.query("select work_group, distinct_paths, divergent_blocks from kernel_work_group"
                    + " order by work_group");
            assertEquals(4, groups.size());
            // group 3 holds work-items 48..63: two of them active, so two paths and divergence on 5 blocks
            assertEquals(2L, ((Number) groups.get(3, "distinct_paths")).longValue());
            assertEquals(5L, ((Number) groups.get(3, "divergent_blocks")).longValue());
            assertEquals(1L, ((Number) groups.get(0, "distinct_paths")).longValue());
            Table summary = store.query("select records, static_sites, valid from kernel_trace");
            assertEquals(450L, ((Number) summary.get(0, "records")).longValue());
            assertEquals(true, summary.get(0, "valid"));
            Table paths = store.query("select count(distinct path_class) as c, sum(records) as r"
                    + " from kernel_work_item_path");
            assertEquals(2L, ((Number) paths.get(0, "c")).longValue());
        }
    }

    @Test
    void argumentSpecsFollowTheKernelSignature() {
        var f = Parser.parse("a.cl", "__kernel void k(__global float *a, __local int *t, int n, double x,"
                + " __global const uchar4 *c) {}").function("k");
        List<KernelArgument> args = ArgumentSpecs.parse(f, List.of("iota:4", "local:16", "7", "0.5", "zeros:3"));
        assertEquals(List.of(0f, 1f, 2f, 3f), toList(KernelArgument.asFloats((KernelArgument.Host) args.get(0))));
        assertEquals(64, ((KernelArgument.Local) args.get(1)).bytes());
        assertEquals(7, java.nio.ByteBuffer.wrap(((KernelArgument.Scalar) args.get(2)).bytes())
                .order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt());
        assertEquals(8, ((KernelArgument.Scalar) args.get(3)).bytes().length);
        assertEquals(12, ((KernelArgument.Host) args.get(4)).bytes().length);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ArgumentSpecs.parse(f, List.of("iota:4", "local:16", "seven", "0.5", "zeros:3")));
        assertTrue(e.getMessage().contains("--arg 2 (int n)"), e.getMessage());
    }

    private static List<Float> toList(float[] a) {
        java.util.ArrayList<Float> out = new java.util.ArrayList<>();
        for (float x : a) {
            out.add(x);
        }
        return out;
    }
}
