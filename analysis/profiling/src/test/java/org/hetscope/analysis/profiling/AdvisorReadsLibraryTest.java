package org.hetscope.analysis.profiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.formats.nsys.NsysFormat;
import org.hetscope.model.TraceFormat;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 24, one definition of every number: advise's busy, idle and concurrency figures are the standard library's
 * ({@code hs_device_utilisation}, what {@code hetscope gpu} shows), not a sweep of its own over a window of its own.
 * Before, advise weighed busy time against the span of host calls and GPU activity, so on CloverLeaf (Nsight) it
 * called the GPU idle 50.9 % of the run while {@code gpu} showed it 88.7 % busy. The busy time is also recomputed
 * here by a union of the raw slices' intervals, independent of the library's SQL sweep.
 */
class AdvisorReadsLibraryTest {
    @TempDir
    Path dir;

    private static String ms(long ns) {
        return String.format(Locale.ROOT, "%.3f ms", ns / 1e6);
    }

    @ParameterizedTest
    @CsvSource({
        "nsys, nsys/perlmutter-cloverleaf-cuda.sqlite",
        "chrome, chrome/kineto-cuda-simple-add.json.gz",
        "chrome, chrome/kineto-cuda-event-sync-multistream.json.gz",
        "chrome, chrome/kineto-rocm6.2-mi250-minitoy.json.gz",
        "chrome, chrome/kineto-cuda-sampled-rank0.json.gz",
        "chrome, chrome/kineto-cuda-cupti-profiler.json.gz"})
    void idleAdviceStatesTheLibrarysFigures(String format, String fixture) throws Exception {
        TraceFormat f = format.equals("nsys") ? new NsysFormat() : new ChromeTraceFormat();
        try (Store store = Stores.importInto(dir, "t", f, Stores.fixture(fixture))) {
            Map<String, Object[]> lib = new TreeMap<>();
            for (Object[] r : store.query(null, "SELECT u.device, u.window_ns, u.busy_ns, u.compute_ns, u.copy_ns, "
                    + "u.idle_gaps, u.longest_idle_ns, u.idle_pct, u.device_id, (SELECT start_ns FROM "
                    + "hs_utilisation_window), (SELECT end_ns FROM hs_utilisation_window) FROM hs_device_utilisation u "
                    + "WHERE u.level = 'device' AND u.device_id IN (SELECT device_id FROM hs_device_activity)")
                    .rows()) {
                lib.put((String) r[0], r);
            }
            assertFalse(lib.isEmpty(), "no device activity in " + fixture);
            Table advice = new Advisor(store).table();
            TreeSet<String> idle = new TreeSet<>();
            for (Object[] a : advice.rows()) {
                if (!a[0].equals("gpu-idle")) {
                    continue;
                }
                idle.add((String) a[2]);
                Object[] u = lib.get((String) a[2]);
                assertTrue(u != null, "gpu-idle names a device the library has: " + a[2]);
                assertEquals("busy " + ms((Long) u[2]) + " of " + ms((Long) u[1]) + " (kernels " + ms((Long) u[3])
                        + ", copies " + ms((Long) u[4]) + "), " + u[5] + " idle gaps, longest " + ms((Long) u[6]),
                        a[4], fixture);
                assertTrue(((String) a[3]).contains(String.format(Locale.ROOT, "idle %.1f%%",
                        ((Number) u[7]).doubleValue())), (String) a[3]);
            }
            // the rule fires on exactly the devices the library finds idle more than half of its window
            TreeSet<String> expected = new TreeSet<>();
            for (Object[] u : lib.values()) {
                long busy = (Long) u[2];
                long window = (Long) u[1];
                // independent of the library's sweep: the union of the device's activity slices in the window
                assertEquals(union(store, (Long) u[8], (Long) u[9], (Long) u[10]), busy, fixture + " " + u[0]);
                if ((double) busy / window < Advisor.IDLE_SHARE) {
                    expected.add((String) u[0]);
                }
            }
            assertEquals(expected, idle, fixture);
        }
    }

    /**
     * The launch-bound evidence's median kernel is the library's median (nearest rank, p50_ns: a duration that
     * occurred), not an interpolated one; CloverLeaf has 1312 kernels, an even count.
     */
    @org.junit.jupiter.api.Test
    void launchBoundMedianIsNearestRank() throws Exception {
        assertEquals(2L, Advisor.median(List.of(4L, 1L, 3L, 2L)));
        assertEquals(3L, Advisor.median(List.of(5L, 1L, 3L, 2L, 4L)));
        assertEquals(7L, Advisor.median(List.of(7L)));
        try (Store store = Stores.importInto(dir, "n", new NsysFormat(),
                Stores.fixture("nsys/perlmutter-cloverleaf-cuda.sqlite"))) {
            Object[] lib = store.query(null, "SELECT quantile_disc(s.dur, 0.5), count(*) FROM hs_device_activity a "
                    + "JOIN slice s ON s.id = a.slice_id WHERE s.category = 'kernel'").rows().get(0);
            String evidence = new Advisor(store).run().stream().filter(a -> a.rule().equals("launch-bound"))
                    .findFirst().orElseThrow().evidence();
            assertTrue(evidence.startsWith("median kernel " + lib[0] + " ns, "), evidence);
            assertTrue(evidence.endsWith(", " + lib[1] + " kernels"), evidence);
        }
    }

    /** Length of the union of [ts, ts + dur) of the kernels, copies and fills on the device's tracks, in [w0, w1). */
    private static long union(Store store, long device, long w0, long w1) {
        List<long[]> ivs = new ArrayList<>();
        for (Object[] r : store.query(null, "SELECT s.ts, s.ts + s.dur FROM slice s JOIN track t ON t.id = s.track_id "
                + "LEFT JOIN track p ON p.id = t.parent_id AND p.kind = 'device' WHERE coalesce(t.device_id, "
                + "p.device_id) = ? AND s.category IN ('kernel', 'task', 'memcpy', 'memset')", device).rows()) {
            long s = Math.max(w0, (Long) r[0]);
            long e = Math.min(w1, (Long) r[1]);
            if (e > s) {
                ivs.add(new long[] {s, e});
            }
        }
        ivs.sort(Comparator.comparingLong(iv -> iv[0]));
        long total = 0;
        long s = 0;
        long e = Long.MIN_VALUE;
        for (long[] iv : ivs) {
            if (iv[0] > e) {
                total += e == Long.MIN_VALUE ? 0 : e - s;
                s = iv[0];
                e = iv[1];
            } else {
                e = Math.max(e, iv[1]);
            }
        }
        return total + (e == Long.MIN_VALUE ? 0 : e - s);
    }
}
