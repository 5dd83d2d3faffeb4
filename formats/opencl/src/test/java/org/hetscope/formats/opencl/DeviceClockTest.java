package org.hetscope.formats.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The device-to-host offset interval against a brute-force search over every candidate offset. */
class DeviceClockTest {

    @Test
    void intervalIsExactlyTheFeasibleOffsets() {
        Random rnd = new Random(7);
        for (int trial = 0; trial < 500; trial++) {
            int n = 1 + rnd.nextInt(6);
            long trueOffset = rnd.nextInt(81) - 40;
            boolean consistent = rnd.nextBoolean();
            List<long[]> cmds = new ArrayList<>();
            DeviceClock c = new DeviceClock();
            for (int i = 0; i < n; i++) {
                long start = rnd.nextInt(1000);
                long end = start + rnd.nextInt(30);
                // QUEUED taken inside the call (host time), expressed on the device clock
                long hostQueued = start + (end > start ? rnd.nextInt((int) (end - start) + 1) : 0);
                long queued = hostQueued - trueOffset + (consistent ? 0 : rnd.nextInt(41) - 20);
                cmds.add(new long[] {start, end, queued});
                c.bound(start, end, queued);
            }
            long lo = Long.MAX_VALUE;
            long hi = Long.MIN_VALUE;
            for (long o = -200; o <= 200; o++) {
                boolean ok = true;
                for (long[] m : cmds) {
                    ok &= m[0] <= m[2] + o && m[2] + o <= m[1];
                }
                if (ok) {
                    lo = Math.min(lo, o);
                    hi = Math.max(hi, o);
                }
            }
            if (lo <= hi) {
                assertTrue(c.aligned());
                assertEquals(lo, c.lo);
                assertEquals(hi, c.hi);
                assertTrue(c.offset() >= lo && c.offset() <= hi);
            } else {
                assertFalse(c.aligned());
                assertEquals(c.lo, c.offset());
            }
            if (consistent) {
                assertTrue(c.aligned(), "the true offset is always feasible");
                assertTrue(c.lo <= trueOffset && trueOffset <= c.hi);
            }
        }
    }
}
