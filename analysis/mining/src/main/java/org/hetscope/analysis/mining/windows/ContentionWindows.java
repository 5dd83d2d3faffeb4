package org.hetscope.analysis.mining.windows;

import java.util.ArrayList;
import java.util.List;

/**
 * Contention windows (Algorithm 2 of the thesis, corrected as in spec section 5): seeds are visited in time order
 * with an explicit cursor; each seed not yet absorbed opens a window of every event with |t - t_seed| <= omega/2,
 * found by binary search for its first event and a scan to its last, and every seed inside it is absorbed. So a
 * later window starts after its seed's predecessor window's seed, and two windows overlap by less than omega/2.
 * Half widths are compared exactly (2|t - t_seed| <= omega), so odd omegas need no rounding.
 */
public final class ContentionWindows {
    private ContentionWindows() {}

    /**
     * @param times  event times, sorted ascending
     * @param seed   which events are high-latency seeds
     * @param omega  window width (same unit as the times)
     */
    public static List<ContentionWindow> find(long[] times, boolean[] seed, long omega) {
        if (omega < 0) {
            throw new IllegalArgumentException("window width must not be negative");
        }
        boolean[] absorbed = new boolean[times.length];
        List<ContentionWindow> out = new ArrayList<>();
        for (int cursor = 0; cursor < times.length; cursor++) {
            if (!seed[cursor] || absorbed[cursor]) {
                continue;
            }
            long twice = 2 * times[cursor];
            int first = firstAtLeast(times, twice - omega);
            int last = first;
            while (last < times.length && 2 * times[last] <= twice + omega) {
                if (seed[last]) {
                    absorbed[last] = true;
                }
                last++;
            }
            out.add(new ContentionWindow(cursor, Math.ceilDiv(twice - omega, 2), Math.floorDiv(twice + omega, 2),
                    first, last));
        }
        return out;
    }

    /** First index whose doubled time reaches {@code twiceT}. */
    private static int firstAtLeast(long[] times, long twiceT) {
        int lo = 0;
        int hi = times.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (2 * times[mid] < twiceT) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
