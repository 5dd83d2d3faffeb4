package org.hetscope.analysis.profiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.hetscope.formats.rocpd.rocprof.RocprofCsv;
import org.hetscope.formats.rocpd.rocprof.RocprofCsvFormat;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Counter tables, derived counters, the CSV join, roofline and advice on a rocprof results.csv run. */
class CountersAndRooflineTest {
    @TempDir
    Path dir;

    /** Writes a results.csv: 3 kernels, 40 dispatches, one kernel with work-group 32 on a wave-64 GPU. */
    private Path results(boolean timestamps, long seed) throws Exception {
        Random rnd = new Random(seed);
        StringBuilder b = new StringBuilder("Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,scr,"
                + "arch_vgpr,accum_vgpr,sgpr,wave_size,sig,obj" + (timestamps ? ",DispatchNs,BeginNs,EndNs,CompleteNs"
                : "") + ",FLOPS,BYTES,VALUUtilization\n");
        long t = 1_000_000;
        String[] names = {"\"needle_1(int*, int) [clone .kd]\"", "\"needle_2(int*, int) [clone .kd]\"", "copy_k"};
        for (int i = 0; i < 40; i++) {
            int k = i % 3;
            long dur = 20_000 + rnd.nextInt(30_000);
            b.append(i).append(',').append(names[k]).append(",1,0,").append(i).append(",9,9,4096,")
                    .append(k == 0 ? 32 : 64).append(",0,0,8,0,16,64,0,0");
            if (timestamps) {
                b.append(',').append(t - 500).append(',').append(t).append(',').append(t + dur).append(',')
                        .append(t + dur + 100);
            }
            b.append(',').append(1e6 * (1 + rnd.nextInt(50))).append(',').append(1e5 * (1 + rnd.nextInt(50)))
                    .append(',').append(k == 0 ? 38.0 : 90.0).append('\n');
            t += dur + 5_000;
        }
        Path f = dir.resolve(timestamps ? "results.csv" : "results-nots.csv");
        Files.writeString(f, b.toString());
        return f;
    }

    @Test
    void countersJoinRooflineAndAdvice() throws Exception {
        Path withTime = results(true, 1);
        Path noTime = results(false, 1);
        List<RocprofCsv.Dispatch> csv = RocprofCsv.read(withTime);
        try (Store store = Stores.importInto(dir, "r", new RocprofCsvFormat(), withTime)) {
            KernelCounters kc = KernelCounters.load(store);
            assertEquals(40, kc.dispatches().size());
            kc.derive("AI=FLOPS/BYTES");
            // per-kernel means against a direct computation over the CSV lines
            Map<String, double[]> sums = new HashMap<>();
            for (RocprofCsv.Dispatch d : csv) {
                double[] s = sums.computeIfAbsent(RocprofCsv.baseName(d.kernelName()), k -> new double[2]);
                s[0]++;
                s[1] += d.counters().get("FLOPS") / d.counters().get("BYTES");
            }
            Table per = kc.perKernel();
            int checked = 0;
            for (Object[] r : per.rows()) {
                if (r[1].equals("AI")) {
                    double[] s = sums.get((String) r[0]);
                    assertEquals((long) s[0], r[2]);
                    assertEquals(s[1] / s[0], (Double) r[3], 1e-9);
                    checked++;
                }
            }
            assertEquals(3, checked);
            // joining the timestamp-less file by order gives the same kernels as joining by time: the k-th
            // dispatch of the file is the k-th slice the reader wrote from the timed file
            List<Long> sliceIds = store.query("SELECT id FROM slice WHERE category = 'kernel' ORDER BY id").rows()
                    .stream().map(r -> (Long) r[0]).toList();
            CounterCsvJoin.load(store, withTime);
            Table byTime = CounterCsvJoin.table(store);
            CounterCsvJoin.load(store, noTime);
            Table byOrder = CounterCsvJoin.table(store);
            assertEquals(List.of("index", "kernel", "slice_id", "rule", "FLOPS", "BYTES", "VALUUtilization"),
                    byOrder.columns());
            for (int i = 0; i < csv.size(); i++) {
                Object[] t = byTime.rows().get(i);
                Object[] o = byOrder.rows().get(i);
                assertEquals("time", t[3]);
                assertEquals("order", o[3]);
                assertEquals(sliceIds.get(i), t[2]);
                assertEquals(sliceIds.get(i), o[2]);
                assertEquals((long) i, o[0]);
                assertEquals(RocprofCsv.baseName(csv.get(i).kernelName()), o[1]);
                assertEquals(csv.get(i).counters().get("FLOPS"), o[4]);
                assertEquals(csv.get(i).counters().get("VALUUtilization"), o[6]);
            }
            // roofline: every dispatch gets a point whose numbers follow from its own counters
            Roofline roof = new Roofline(10e12, 400e9);
            List<Roofline.Point> pts = roof.points(kc, "FLOPS", "BYTES");
            assertEquals(40, pts.size());
            for (Roofline.Point p : pts) {
                assertEquals(p.flops() / p.bytes(), p.intensity(), 1e-9);
                assertEquals(p.intensity() < 25 ? "memory" : "compute", p.bound());
            }
            // advice: the work-group 32 kernel on a wave-64 device, with the VALU utilisation under the bound
            Table advice = new Advisor(store).table();
            List<String> rules = advice.rows().stream().map(r -> r[0] + " " + r[2]).toList();
            assertTrue(rules.contains("workgroup-size needle_1(int*, int)"), rules.toString());
            assertTrue(rules.contains("low-valu-utilisation needle_1(int*, int)"), rules.toString());
            assertTrue(rules.contains("profiler-serialised trace"), rules.toString());
            assertTrue(advice.rows().stream().noneMatch(r -> r[0].equals("workgroup-size")
                    && !r[2].equals("needle_1(int*, int)")));
        }
    }

    /**
     * A file mixing lines with and without timestamps: a kernel joined by time leaves the order pairing even when
     * its dispatch comes later in the file, so no kernel is joined twice.
     */
    @Test
    void aKernelJoinedByTimeIsNotPairedByOrderAgain() throws Exception {
        Path withTime = results(true, 2);
        try (Store store = Stores.importInto(dir, "m", new RocprofCsvFormat(), withTime)) {
            List<Object[]> kernels = store.query("SELECT id, ts, dur FROM slice WHERE name = 'copy_k' ORDER BY ts")
                    .rows();
            long mid0 = (Long) kernels.get(0)[1] + (Long) kernels.get(0)[2] / 2;
            // line 2: untimed copy_k; line 3: copy_k timed inside the first copy_k kernel; line 4: untimed copy_k
            Path mixed = dir.resolve("mixed.csv");
            Files.writeString(mixed, "Index,KernelName,BeginNs,EndNs,FLOPS\n0,copy_k,,,1\n1,copy_k," + (mid0 - 1)
                    + "," + (mid0 + 1) + ",2\n2,copy_k,,,3\n");
            CounterCsvJoin.load(store, mixed);
            List<Object[]> rows = CounterCsvJoin.table(store).rows();
            assertEquals(List.of("order", "time", "order"), rows.stream().map(r -> r[3]).toList());
            assertEquals(List.of(kernels.get(1)[0], kernels.get(0)[0], kernels.get(2)[0]),
                    rows.stream().map(r -> r[2]).toList());
            assertEquals(List.of(1.0, 2.0, 3.0), rows.stream().map(r -> r[4]).toList());
        }
    }

    /** A results.csv without timestamps imported into the store of its run: the library's view joins it there. */
    @Test
    void anUntimedFileImportedWithItsTraceIsJoinedInTheStore() throws Exception {
        try (Store store = Stores.importInto(dir, "both", new RocprofCsvFormat(), results(true, 3),
                results(false, 3))) {
            List<Object[]> rows = store.query("SELECT j.rule, s.args FROM hs_rocprof_join j "
                    + "JOIN slice s ON s.id = j.slice_id ORDER BY j.line").rows();
            assertEquals(40, rows.size());
            for (int i = 0; i < rows.size(); i++) {
                assertEquals("order", rows.get(i)[0]);
                assertTrue(((String) rows.get(i)[1]).contains("\"index\":" + i + ","), (String) rows.get(i)[1]);
            }
            assertEquals(120L, store.scalarLong("SELECT count(*) FROM hs_rocprof_join_counter"));
        }
    }
}
