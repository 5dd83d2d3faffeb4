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

    /** Nearest rank: the value at 1-based rank ceil(percent / 100 * n) of the sorted values (docs/stdlib.md). */
    static long nearestRank(List<Long> values, int percent) {
        List<Long> v = new ArrayList<>(values);
        v.sort(null);
        int rank = Math.max(1, (percent * v.size() + 99) / 100);
        return v.get(rank - 1);
    }

    static void assertStats(Map<String, List<Long>> expected, Table table, String keyColumn) {
        assertEquals(expected.size(), table.size());
        long all = expected.values().stream().flatMap(List::stream).mapToLong(Long::longValue).sum();
        for (int r = 0; r < table.size(); r++) {
            String key = (String) table.get(r, keyColumn);
            List<Long> d = expected.get(key);
            long total = d.stream().mapToLong(Long::longValue).sum();
            double mean = (double) total / d.size();
            // population variance, two-pass
            double var = d.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum() / d.size();
            assertEquals((long) d.size(), table.get(r, "count"), key);
            assertEquals(total, ((Number) table.get(r, "total_ns")).longValue(), key);
            assertEquals(d.stream().mapToLong(Long::longValue).min().orElseThrow(), table.get(r, "min_ns"), key);
            assertEquals(d.stream().mapToLong(Long::longValue).max().orElseThrow(), table.get(r, "max_ns"), key);
            assertEquals(mean, (Double) table.get(r, "mean_ns"), 1e-9 * Math.max(1, mean), key);
            assertEquals(Math.sqrt(var), (Double) table.get(r, "stddev_ns"), 1e-6 * Math.max(1, Math.sqrt(var)), key);
            assertEquals(nearestRank(d, 50), table.get(r, "p50_ns"), key);
            assertEquals(nearestRank(d, 90), table.get(r, "p90_ns"), key);
            assertEquals(nearestRank(d, 95), table.get(r, "p95_ns"), key);
            assertEquals(nearestRank(d, 99), table.get(r, "p99_ns"), key);
            assertEquals(100.0 * total / all, (Double) table.get(r, "share_pct"), 1e-9, key);
        }
    }

    @Test
    void kernelStatisticsMatchTheRawEvents() {
        Map<String, List<Long>> expected = durations("kernel", e -> e.get("name").asText());
        assertTrue(expected.size() > 3);
        assertStats(expected, new DurationStatistics(store).kernels(), "name");
    }

    @Test
    void apiStatisticsMatchTheRawEvents() {
        Map<String, List<Long>> expected = durations("cuda_runtime", e -> e.get("name").asText());
        assertStats(expected, new DurationStatistics(store).apiCalls(), "name");
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
        List<long[]> anyDevice = new ArrayList<>();
        for (JsonNode e : raw) {
            String cat = e.path("cat").asText();
            boolean activity = cat.equals("kernel") || cat.equals("gpu_memcpy") || cat.equals("gpu_memset");
            if (!"X".equals(e.path("ph").asText()) || !activity) {
                continue;
            }
            long s = ns(e.get("ts"));
            long[] iv = {s, s + ns(e.get("dur"))};
            anyDevice.add(iv);
            if (e.path("args").path("device").asInt(-1) != 0) {
                continue;
            }
            (cat.equals("kernel") ? kernels : copies).add(iv);
        }
        // The default window: first start to last end of device activity on any device.
        long w0 = anyDevice.stream().mapToLong(iv -> iv[0]).min().orElseThrow();
        long w1 = anyDevice.stream().mapToLong(iv -> iv[1]).max().orElseThrow();
        Utilisation u = new Utilisation(store);
        assertEquals(List.of(w0, w1), List.of(u.defaultWindow()[0], u.defaultWindow()[1]));
        Table t = u.table(w0, w1, false);
        String label = Utilisation.deviceLabels(store).get(store.scalarLong("SELECT id FROM device WHERE ordinal = 0"));
        int row = -1;
        for (int r = 0; r < t.size(); r++) {
            row = label.equals(t.get(r, "device")) ? r : row;
        }
        assertTrue(row >= 0, label);
        List<long[]> all = new ArrayList<>(kernels);
        all.addAll(copies);
        long kernelUnion = unionLength(kernels);
        long copyUnion = unionLength(copies);
        long busy = unionLength(all);
        assertEquals(w1 - w0, t.get(row, "window_ns"));
        assertEquals(kernelUnion, t.get(row, "compute_ns"));
        assertEquals(copyUnion, t.get(row, "copy_ns"));
        assertEquals(busy, t.get(row, "busy_ns"));
        assertEquals(kernelUnion + copyUnion - busy, t.get(row, "overlap_ns"));
        assertEquals(w1 - w0 - busy, t.get(row, "idle_ns"));
        assertEquals(100.0 * busy / (w1 - w0), (Double) t.get(row, "busy_pct"), 1e-9);
        assertEquals((double) kernels.stream().mapToLong(k -> k[1] - k[0]).sum() / kernelUnion,
                (Double) t.get(row, "mean_concurrency"), 1e-12);
    }

    @Test
    void traceBoundsSpanEveryTimedEvent() {
        // complete events from ts to ts + dur; instants and counter samples at ts (docs/stdlib.md, hs_trace_bounds)
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (JsonNode e : raw) {
            String ph = e.path("ph").asText();
            if (ph.equals("X")) {
                long s = ns(e.get("ts"));
                first = Math.min(first, s);
                last = Math.max(last, s + ns(e.get("dur")));
            } else if (ph.equals("i") || ph.equals("I") || ph.equals("C")) {
                first = Math.min(first, ns(e.get("ts")));
                last = Math.max(last, ns(e.get("ts")));
            }
        }
        Table t = store.query("SELECT start_ns, end_ns, dur_ns FROM hs_trace_bounds");
        assertEquals(first, t.rows().get(0)[0]);
        assertEquals(last, t.rows().get(0)[1]);
        assertEquals(last - first, t.rows().get(0)[2]);
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
