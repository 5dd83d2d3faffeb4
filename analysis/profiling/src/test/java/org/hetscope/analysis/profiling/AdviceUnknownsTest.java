package org.hetscope.analysis.profiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hetscope.formats.rocpd.rocprof.RocprofCsv;
import org.hetscope.formats.rocpd.rocprof.RocprofCsvFormat;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 defect 7: advice must say what it does not know (a rocprof results.csv without wave_size gives no
 * warp size, so nothing can be said about work-groups filling wavefronts), let the user give it, and judge VALU
 * utilisation per dispatch rather than on the mean over a kernel name.
 */
class AdviceUnknownsTest {
    @TempDir
    Path dir;

    /**
     * A results.csv of one kernel: {@code bad} dispatches with work-group {@code badWg} at 20 % VALU (P1), then
     * {@code good} with work-group 256 at 95 % (P2); the wave_size column only when {@code wave} is not null.
     */
    private Path results(String name, Integer wave, int bad, long badWg, int good) throws Exception {
        StringBuilder b = new StringBuilder("Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,scr,"
                + "arch_vgpr,accum_vgpr,sgpr," + (wave == null ? "" : "wave_size,")
                + "sig,obj,DispatchNs,BeginNs,EndNs,CompleteNs,VALUUtilization\n");
        long t = 1_000_000;
        for (int i = 0; i < bad + good; i++) {
            boolean p1 = i < bad;
            b.append(i).append(",\"kern(float*) [clone .kd]\",1,0,").append(i).append(",9,9,65536,")
                    .append(p1 ? badWg : 256).append(",0,0,8,0,16,").append(wave == null ? "" : wave + ",")
                    .append("0,0,").append(t - 500).append(',').append(t).append(',').append(t + 20_000).append(',')
                    .append(t + 20_100).append(',').append(p1 ? "20.0" : "95.0").append('\n');
            t += 30_000;
        }
        Path f = dir.resolve(name);
        Files.writeString(f, b.toString());
        return f;
    }

    private static List<Object[]> rule(Table advice, String rule) {
        return advice.rows().stream().filter(r -> r[0].equals(rule)).toList();
    }

    private static String text(Table advice) {
        StringBuilder b = new StringBuilder();
        advice.rows().forEach(r -> b.append(String.join(" | ", java.util.Arrays.stream(r).map(String::valueOf)
                .toList())).append('\n'));
        return b.toString();
    }

    @Test
    void unknownWavefrontIsSaidNotAssumed() throws Exception {
        Path csv = results("nowave.csv", null, 10, 256, 0);
        assertTrue(RocprofCsv.read(csv).stream().allMatch(d -> d.waveSize() == null));
        try (Store store = Stores.importInto(dir, "nowave", new RocprofCsvFormat(), csv)) {
            Table advice = new Advisor(store).table();
            String all = text(advice);
            // Before: "likely cause: thread divergence (the work-group size is a multiple of the wavefront)".
            assertFalse(all.contains("is a multiple of the"), all);
            assertEquals(1, rule(advice, "warp-size-unknown").size(), all);
            assertTrue(all.contains("--warp-size"), all);
            List<Object[]> low = rule(advice, "low-valu-utilisation");
            assertEquals(1, low.size(), all);
            assertTrue(((String) low.get(0)[3]).contains("not judged: the warp/wavefront size is unknown"), all);

            // Given by the user: wavefronts of 64 hold work-group 256 exactly, so the cause is divergence.
            Table given = new Advisor(store, 64).table();
            String g = text(given);
            assertTrue(rule(given, "warp-size-unknown").isEmpty(), g);
            assertTrue(((String) rule(given, "low-valu-utilisation").get(0)[3])
                    .contains("thread divergence (the work-group size 256 is a multiple of the wavefront size 64)"), g);
        }
    }

    @Test
    void userWarpSizeFindsPartialWavefronts() throws Exception {
        Path csv = results("wg96.csv", null, 4, 96, 0);
        try (Store store = Stores.importInto(dir, "wg96", new RocprofCsvFormat(), csv)) {
            assertTrue(rule(new Advisor(store).table(), "workgroup-size").isEmpty());
            Table advice = new Advisor(store, 64).table();
            List<Object[]> wg = rule(advice, "workgroup-size");
            assertEquals(1, wg.size(), text(advice));
            // 96 threads in 2 wavefronts of 64: at most 96 / 128 = 75 % of the lanes active.
            assertTrue(((String) wg.get(0)[3]).contains("work-group size 96 is not a multiple of the wavefront size "
                    + "64: at most 75.0%"), text(advice));
            assertEquals("kern(float*)", wg.get(0)[2]);
        }
        Path profile = dir.resolve("gpu.properties");
        Files.writeString(profile, "warpSize = 64\n");
        assertEquals(64, DeviceProfile.read(profile).warpSize());
        Files.writeString(profile, "warpSize = -3\n");
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> DeviceProfile.read(profile)).getMessage().contains("gpu.properties"));
    }

    @Test
    void lowValuOfOneConfigurationIsNotHiddenByTheMean() throws Exception {
        // P1: 10 dispatches of work-group 32 at 20 %; P2: 30 of work-group 256 at 95 %: the kernel's mean is 76.25 %.
        Path csv = results("p1p2.csv", 64, 10, 32, 30);
        try (Store store = Stores.importInto(dir, "p1p2", new RocprofCsvFormat(), csv)) {
            Table advice = new Advisor(store).table();
            List<Object[]> low = rule(advice, "low-valu-utilisation");
            assertEquals(1, low.size(), text(advice));
            String a = (String) low.get(0)[3];
            String e = (String) low.get(0)[4];
            assertTrue(a.contains("in 10 dispatches (work-group 32)") && a.contains("the work-group size 32 (lane "
                    + "bound 50.0%)"), a);
            assertTrue(e.contains("10 of the 40 dispatches") && e.contains("min 20.0%")
                    && e.contains("mean over all 40: 76.3%"), e);
        }
    }
}
