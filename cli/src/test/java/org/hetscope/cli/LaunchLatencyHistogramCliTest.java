package org.hetscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hetscope gpu --latency-histogram} on a real Kineto trace: the buckets (1, 2, 5 per decade from 1 µs) hold
 * every flow of {@code gpu --per-flow} once, recounted here with edges written out independently; the listed buckets
 * run from the first to the last non-empty one without gaps.
 */
class LaunchLatencyHistogramCliTest {
    @TempDir
    Path dir;

    @Test
    void bucketsHoldEveryFlowOnce() throws Exception {
        String store = dir.resolve("k.hets").toString();
        CliRun imp = CliRun.of("import", TimeWindowCliTest.FIXTURE.toString(), "-o", store);
        assertTrue(imp.exitCode() == 0 || imp.exitCode() == 3, imp.err());
        CliRun hist = CliRun.of("gpu", store, "--latency-histogram", "--json");
        assertEquals(0, hist.exitCode(), hist.err());
        CliRun flows = CliRun.of("gpu", store, "--per-flow", "--json");
        ObjectMapper json = new ObjectMapper();
        long[] edges = {0, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 2_000_000,
            5_000_000, 10_000_000, 20_000_000, 50_000_000, 100_000_000, 200_000_000, 500_000_000, 1_000_000_000L,
            2_000_000_000L, 5_000_000_000L};
        TreeMap<Long, Long> recount = new TreeMap<>();
        long total = 0;
        for (JsonNode f : json.readTree(flows.out())) {
            long v = f.get("latency_ns").asLong();
            long lo = v < 0 ? -1 : 0;
            for (long e : edges) {
                if (v >= e) {
                    lo = e;
                }
            }
            recount.merge(lo, 1L, Long::sum);
            total++;
        }
        assertTrue(total > 1000, "flows: " + total);
        JsonNode rows = json.readTree(hist.out());
        long sum = 0;
        Long prevHi = null;
        for (JsonNode r : rows) {
            long lo = r.get("lo_ns").isNull() ? -1 : r.get("lo_ns").asLong();
            long n = r.get("flows").asLong();
            assertEquals(recount.getOrDefault(lo, 0L), n, "bucket from " + lo);
            if (prevHi != null) {
                assertEquals(prevHi, lo, "buckets follow each other");
            }
            prevHi = r.get("hi_ns").isNull() ? null : r.get("hi_ns").asLong();
            sum += n;
        }
        assertEquals(total, sum);
        assertTrue(rows.get(0).get("flows").asLong() > 0 && rows.get(rows.size() - 1).get("flows").asLong() > 0);
    }
}
