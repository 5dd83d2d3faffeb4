package org.hetscope.analysis.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class BusyTest {

    @Test
    void goldenExampleOfTheSpec() {
        // gpu-runtime-tracing.md 2.5: kernels [0,10] [5,15], copy [12,20], W=[0,25]
        Busy b = Busy.of(new long[] {0, 5}, new long[] {10, 15}, new long[] {12}, new long[] {20}, 0, 25);
        assertEquals(15, b.kernelBusy());
        assertEquals(8, b.copyBusy());
        assertEquals(3, b.overlap());
        assertEquals(20, b.busy());
        assertEquals(5, b.idle());
        assertArrayEquals(new long[] {10, 10, 5}, b.concurrency());
        assertEquals(20.0 / 15.0, b.meanConcurrency(), 1e-12);
        assertEquals(1, b.idleGaps());
        assertEquals(5, b.longestIdleGap());
    }

    @Test
    void agreesWithANanosecondByNanosecondCount() {
        Random random = new Random(7);
        for (int round = 0; round < 300; round++) {
            int nk = random.nextInt(6);
            int nc = random.nextInt(4);
            long[] ks = new long[nk];
            long[] ke = new long[nk];
            long[] cs = new long[nc];
            long[] ce = new long[nc];
            for (int i = 0; i < nk; i++) {
                ks[i] = random.nextInt(60);
                ke[i] = ks[i] + random.nextInt(25);
            }
            for (int i = 0; i < nc; i++) {
                cs[i] = random.nextInt(60);
                ce[i] = cs[i] + random.nextInt(25);
            }
            long w0 = random.nextInt(20);
            long w1 = w0 + random.nextInt(70);
            Busy b = Busy.of(ks, ke, cs, ce, w0, w1);
            long kernelBusy = 0, copyBusy = 0, overlap = 0, busy = 0, kernelTime = 0;
            long[] conc = new long[8];
            for (long t = w0; t < w1; t++) {
                int k = 0, c = 0;
                for (int i = 0; i < nk; i++) {
                    if (ks[i] <= t && t < ke[i]) {
                        k++;
                    }
                }
                for (int i = 0; i < nc; i++) {
                    if (cs[i] <= t && t < ce[i]) {
                        c++;
                    }
                }
                conc[k]++;
                kernelTime += k;
                kernelBusy += k > 0 ? 1 : 0;
                copyBusy += c > 0 ? 1 : 0;
                overlap += k > 0 && c > 0 ? 1 : 0;
                busy += k > 0 || c > 0 ? 1 : 0;
            }
            assertEquals(kernelBusy, b.kernelBusy());
            assertEquals(copyBusy, b.copyBusy());
            assertEquals(overlap, b.overlap());
            assertEquals(busy, b.busy());
            assertEquals((w1 - w0) - busy, b.idle());
            assertEquals(kernelTime, b.kernelTime());
            for (int k = 0; k < b.concurrency().length; k++) {
                assertEquals(conc[k], b.concurrency()[k], "time with " + k + " kernels");
            }
        }
    }
}
