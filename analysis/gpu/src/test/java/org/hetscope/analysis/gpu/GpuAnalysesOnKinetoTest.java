package org.hetscope.analysis.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.model.Progress;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.hetscope.store.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statistics, utilisation and launch latency on kineto-cuda-simple-add.json.gz, against values computed here
 * from the raw JSON events (Jackson tree model, exact decimal arithmetic), not through the reader.
 */
class GpuAnalysesOnKinetoTest {
    static final Path FIXTURE = Path.of(System.getProperty("hetscope.root", "."))
            .resolve("../shared/fixtures/chrome/kineto-cuda-simple-add.json.gz");

    @TempDir
    static Path dir;
    static Store store;
    static List<JsonNode> raw = new ArrayList<>();

    @BeforeAll
    static void importFixture() throws Exception {
        Path file = dir.resolve("simple-add.duckdb");
        StoreWriter writer = StoreWriter.create(file);
        new ChromeTraceFormat().read(FIXTURE, writer, Progress.NONE);
        writer.commit();
        store = Store.open(file);
        try (InputStream in = new GZIPInputStream(Files.newInputStream(FIXTURE))) {
            new ObjectMapper().readTree(in).get("traceEvents").forEach(raw::add);
        }
    }

    @AfterAll
    static void close() {
        store.close();
    }

    static long ns(JsonNode micros) {
        return new BigDecimal(micros.asText()).movePointRight(3).longValueExact();
    }

    /** Durations of complete events of one category, grouped by a key. */
    static Map<String, List<Long>> durations(String category, java.util.function.Function<JsonNode, String> key) {
        Map<String, List<Long>> m = new TreeMap<>();
        for (JsonNode e : raw) {
            if ("X".equals(e.path("ph").asText()) && category.equals(e.path("cat").asText())) {
                m.computeIfAbsent(key.apply(e), k -> new ArrayList<>()).add(ns(e.get("dur")));
            }
        }
        return m;
    }

    static double quantile7(List<Long> values, double p) {
        List<Long> v = new ArrayList<>(values);
        v.sort(null);
        double h = (v.size() - 1) * p;
        int lo = (int) Math.floor(h);
        int hi = Math.min(v.size() - 1, lo + 1);
        return v.get(lo) + (h - lo) * (v.get(hi) - v.get(lo));
    }

    static void assertStats(Map<String, List<Long>> expected, Table table, String keyColumn) {
        assertEquals(expected.size(), table.size());
        for (int r = 0; r < table.size(); r++) {
            String key = (String) table.get(r, keyColumn);
            List<Long> d = expected.get(key);
            long total = d.stream().mapToLong(Long::longValue).sum();
            double mean = (double) total / d.size();
            double var = d.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum() / d.size();
            assertEquals((long) d.size(), table.get(r, "count"), key);
            assertEquals(total, ((Number) table.get(r, "total_ns")).longValue(), key);
            assertEquals(d.stream().mapToLong(Long::longValue).min().orElseThrow(), table.get(r, "min_ns"), key);
            assertEquals(d.stream().mapToLong(Long::longValue).max().orElseThrow(), table.get(r, "max_ns"), key);
            assertEquals(mean, (Double) table.get(r, "mean_ns"), 1e-6, key);
            assertEquals(Math.sqrt(var), (Double) table.get(r, "stddev_ns"), 1e-6, key);
            assertEquals(quantile7(d, 0.5), (Double) table.get(r, "p50_ns"), 1e-6, key);
            assertEquals(quantile7(d, 0.95), (Double) table.get(r, "p95_ns"), 1e-6, key);
        }
    }

    @Test
    void kernelStatisticsMatchTheRawEvents() {
        Map<String, List<Long>> expected = durations("kernel", e -> e.get("name").asText());
        assertTrue(expected.size() > 3);
        assertStats(expected, new DurationStatistics(store).kernels(), "kernel");
    }

    @Test
    void apiStatisticsMatchTheRawEvents() {
        Map<String, List<Long>> expected = durations("cuda_runtime", e -> e.get("name").asText());
        assertStats(expected, new DurationStatistics(store).apiCalls(), "function");
    }

    @Test
    void memcpyStatisticsPerKindMatchTheRawEvents() {
        Map<String, List<Long>> expected = durations("gpu_memcpy", e -> e.get("name").asText().substring(7, 11));
        expected.put("memset", durations("gpu_memset", e -> "memset").get("memset"));
        Table t = new DurationStatistics(store).memoryOperations();
        assertStats(expected, t, "kind");
        Map<String, Long> bytes = new HashMap<>();
        for (JsonNode e : raw) {
            String cat = e.path("cat").asText();
            if (cat.equals("gpu_memcpy") || cat.equals("gpu_memset")) {
                String kind = cat.equals("gpu_memset") ? "memset" : e.get("name").asText().substring(7, 11);
                bytes.merge(kind, e.path("args").path("bytes").asLong(), Long::sum);
            }
        }
        for (int r = 0; r < t.size(); r++) {
            assertEquals(bytes.get((String) t.get(r, "kind")), ((Number) t.get(r, "bytes")).longValue());
        }
    }

    @Test
    void utilisationOfDeviceZeroMatchesABruteForceUnion() {
        // Independent union of kernel and copy intervals of device 0 from the raw events.
        List<long[]> kernels = new ArrayList<>();
        List<long[]> copies = new ArrayList<>();
        for (JsonNode e : raw) {
            String cat = e.path("cat").asText();
            if (!"X".equals(e.path("ph").asText()) || e.path("args").path("device").asInt(-1) != 0) {
                continue;
            }
            long s = ns(e.get("ts"));
            long[] iv = {s, s + ns(e.get("dur"))};
            if (cat.equals("kernel")) {
                kernels.add(iv);
            } else if (cat.equals("gpu_memcpy") || cat.equals("gpu_memset")) {
                copies.add(iv);
            }
        }
        Utilisation u = new Utilisation(store);
        long[] span = u.traceSpan();
        long deviceId = store.scalarLong("SELECT id FROM device WHERE ordinal = 0");
        Busy b = u.busy(deviceId, null, span[0], span[1]);
        assertEquals(unionLength(kernels), b.kernelBusy());
        assertEquals(unionLength(copies), b.copyBusy());
        List<long[]> all = new ArrayList<>(kernels);
        all.addAll(copies);
        assertEquals(unionLength(all), b.busy());
        assertEquals(kernels.stream().mapToLong(k -> k[1] - k[0]).sum(), b.kernelTime());
    }

    static long unionLength(List<long[]> intervals) {
        List<long[]> v = new ArrayList<>(intervals);
        v.sort((a, b) -> Long.compare(a[0], b[0]));
        long total = 0;
        long curS = Long.MIN_VALUE;
        long curE = Long.MIN_VALUE;
        for (long[] iv : v) {
            if (iv[0] > curE) {
                if (curE > curS) {
                    total += curE - curS;
                }
                curS = iv[0];
                curE = iv[1];
            } else {
                curE = Math.max(curE, iv[1]);
            }
        }
        if (curE > curS) {
            total += curE - curS;
        }
        return total;
    }

    @Test
    void launchLatencyIsKernelStartMinusApiStartByCorrelation() {
        Map<Long, Long> apiStart = new HashMap<>();
        Map<Long, Long> gpuStart = new HashMap<>();
        for (JsonNode e : raw) {
            JsonNode c = e.path("args").path("correlation");
            if (!c.isIntegralNumber() || !"X".equals(e.path("ph").asText())) {
                continue;
            }
            String cat = e.path("cat").asText();
            if (cat.equals("cuda_runtime")) {
                apiStart.put(c.asLong(), ns(e.get("ts")));
            } else if (cat.equals("kernel") || cat.equals("gpu_memcpy") || cat.equals("gpu_memset")) {
                gpuStart.put(c.asLong(), ns(e.get("ts")));
            }
        }
        Table perFlow = new LaunchLatency(store).perFlow();
        int checked = 0;
        for (int r = 0; r < perFlow.size(); r++) {
            long corr = (Long) perFlow.get(r, "correlation_id");
            assertEquals(gpuStart.get(corr) - apiStart.get(corr), perFlow.get(r, "latency_ns"));
            checked++;
        }
        long expectedFlows = gpuStart.keySet().stream().filter(apiStart::containsKey).count();
        assertEquals(expectedFlows, checked);
    }
}
