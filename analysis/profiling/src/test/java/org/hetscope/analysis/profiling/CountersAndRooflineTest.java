package org.hetscope.analysis.profiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.hetscope.formats.rocprof.RocprofCsv;
import org.hetscope.formats.rocprof.RocprofCsvFormat;
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
            // joining the timestamp-less file by order gives the same kernels as joining by time
            List<CounterCsvJoin.Joined> byTime = CounterCsvJoin.join(store, csv);
            List<CounterCsvJoin.Joined> byOrder = CounterCsvJoin.join(store, RocprofCsv.read(noTime));
            for (int i = 0; i < csv.size(); i++) {
                assertEquals("time", byTime.get(i).rule());
                assertEquals("order", byOrder.get(i).rule());
                assertEquals(byTime.get(i).sliceId(), byOrder.get(i).sliceId());
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
}
