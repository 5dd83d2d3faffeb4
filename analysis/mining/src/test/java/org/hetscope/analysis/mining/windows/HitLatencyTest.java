package org.hetscope.analysis.mining.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import java.util.Random;
import org.hetscope.analysis.mining.memtrace.AccessEvent;
import org.hetscope.analysis.mining.memtrace.AccessTraceGenerator;
import org.junit.jupiter.api.Test;

/** The hit latency read off a trace's latency distribution (issue 24 defect 9). */
class HitLatencyTest {
    @Test
    void generatedTracesSeparateTheirPlantedHits() {
        // The generator's hits take 1 to 3 cycles and its misses at least 10 (background misses 10-17, stores
        // after the barrier and the bank accesses above): the split must fall between, for every core count.
        for (int cores : new int[] {1, 2, 4, 8}) {
            long[] lat = AccessTraceGenerator.generate(new AccessTraceGenerator.Config(cores, 100, cores)).stream()
                    .mapToLong(AccessEvent::latency).toArray();
            assertEquals(OptionalLong.of(3), HitLatency.derive(lat), cores + " cores");
            // Without it Q3 is a hit latency (2 on 8 cores): every access a seed, windows over the whole trace.
            assertTrue(Quantiles.q3(lat) <= 3, cores + " cores: Q3 " + Quantiles.q3(lat));
        }
    }

    @Test
    void hitsOfOneLatencyAndLevelsFarApart() {
        Random r = new Random(7);
        long[] lat = new long[10_000];
        for (int i = 0; i < lat.length; i++) {
            int u = r.nextInt(100);
            lat[i] = u < 80 ? 4 : u < 95 ? 40 + r.nextInt(20) : 300 + r.nextInt(100);
        }
        assertEquals(OptionalLong.of(4), HitLatency.derive(lat));
    }

    @Test
    void noHitLevelWithoutAMajorityBelowTheSplit() {
        assertTrue(HitLatency.derive(new long[] {5, 5, 5, 5}).isEmpty()); // one value: nothing to split
        assertTrue(HitLatency.derive(new long[0]).isEmpty());
        // Most accesses slow, a few fast: the fast ones are not "most accesses", so no hit level.
        long[] lat = new long[1000];
        for (int i = 0; i < lat.length; i++) {
            lat[i] = i < 100 ? 1 : 200 + i % 7;
        }
        assertTrue(HitLatency.derive(lat).isEmpty());
    }
}
