package org.hetscope.analysis.mining.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class WindowsTest {
    @Test
    void latencyLabelsOfSection2() {
        LatencyBins w20 = new LatencyBins(20, 140);
        assertEquals("lat_0_20", w20.label(0));
        assertEquals("lat_0_20", w20.label(19));
        assertEquals("lat_20_40", w20.label(20));
        assertEquals("lat_120_140", w20.label(139));
        assertEquals("lat_140_inf", w20.label(140));
        LatencyBins w10 = LatencyBins.METHOD_II;
        assertEquals("lat_10_20", w10.label(12));
        assertEquals("lat_20_30", w10.label(25));
    }

    @Test
    void thirdQuartileInterpolatesLinearly() {
        assertEquals(12.5, Quantiles.q3(new long[] {16, 2, 4, 6, 8, 10, 12, 14}), 0);
        assertEquals(7.0, Quantiles.q3(new long[] {7}), 0);
        // NumPy: np.percentile([1, 2, 3, 4, 100], 75) == 4.0 ; [1, 2] -> 1.75
        assertEquals(4.0, Quantiles.q3(new long[] {1, 2, 3, 4, 100}), 0);
        assertEquals(1.75, Quantiles.q3(new long[] {1, 2}), 1e-12);
    }

    @Test
    void fixedWindowsPutTmaxInTheLastWindow() {
        FixedWindows w = new FixedWindows(0, 200, 400);
        assertEquals(2, w.count());
        assertEquals(0, w.index(199));
        assertEquals(1, w.index(200));
        assertEquals(1, w.index(400));
        assertEquals(-1, w.index(401));
        assertEquals(400, w.end(1));
        FixedWindows v = new FixedWindows(0, 200, 401);
        assertEquals(3, v.count());
        assertEquals(2, v.index(401));
        assertEquals(1, new FixedWindows(5, 10, 5).count());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new FixedWindows(0, 1, 1_000_000_000L));
    }

    @Test
    void contentionWindowsOfTheSpecExample() {
        long[] t = {0, 5, 12, 14, 22, 40};
        long[] lat = {5, 30, 40, 5, 35, 5};
        boolean[] seed = new boolean[t.length];
        for (int i = 0; i < t.length; i++) {
            seed[i] = lat[i] >= 30;
        }
        List<ContentionWindow> w = ContentionWindows.find(t, seed, 20);
        assertEquals(List.of(new ContentionWindow(1, -5, 15, 0, 4), new ContentionWindow(4, 12, 32, 2, 5)), w);
        // overlap [12, 15] = 3 <= omega / 2; e6 (index 5) is in no window
        assertEquals(3, w.get(0).to() - w.get(1).from());
    }

    @Test
    void windowsAgreeWithADirectScanOnRandomStreams() {
        java.util.Random rnd = new java.util.Random(5);
        for (int round = 0; round < 300; round++) {
            int n = rnd.nextInt(40);
            long[] t = new long[n];
            boolean[] seed = new boolean[n];
            long now = 0;
            for (int i = 0; i < n; i++) {
                now += rnd.nextInt(6);
                t[i] = now;
                seed[i] = rnd.nextInt(4) == 0;
            }
            long omega = rnd.nextInt(15);
            List<ContentionWindow> found = ContentionWindows.find(t, seed, omega);
            // Reference: quadratic, with a set of absorbed seeds.
            boolean[] absorbed = new boolean[n];
            int k = 0;
            for (int s = 0; s < n; s++) {
                if (!seed[s] || absorbed[s]) {
                    continue;
                }
                ContentionWindow w = found.get(k++);
                assertEquals(s, w.seed());
                int first = -1;
                int last = -1;
                for (int i = 0; i < n; i++) {
                    if (2 * Math.abs(t[i] - t[s]) <= omega) {
                        if (first < 0) {
                            first = i;
                        }
                        last = i + 1;
                        absorbed[i] |= seed[i];
                    }
                }
                assertEquals(first, w.first());
                assertEquals(last, w.last());
                if (k > 1) {
                    ContentionWindow prev = found.get(k - 2);
                    assertEquals(true, 2 * (prev.to() - w.from()) <= omega, "overlap at most omega/2");
                }
            }
            assertEquals(k, found.size());
        }
    }
}
