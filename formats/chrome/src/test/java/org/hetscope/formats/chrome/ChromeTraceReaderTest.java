package org.hetscope.formats.chrome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.hetscope.model.Category;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Flow;
import org.hetscope.model.FlowRule;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

class ChromeTraceReaderTest {

    static CollectingSink read(String fixture) throws Exception {
        CollectingSink sink = new CollectingSink();
        new ChromeTraceFormat().read(Fixtures.path(fixture), sink, Progress.NONE);
        return sink;
    }

    static final java.util.List<String> FIXTURES = Fixtures.ALL;

    @ParameterizedTest
    @FieldSource("FIXTURES")
    void completeEventsPerCategoryMatchAnIndependentCount(String fixture) throws Exception {
        Map<String, Long> expected = new TreeMap<>();
        for (JsonNode e : Fixtures.rawEvents(fixture)) {
            if ("X".equals(e.path("ph").asText())) {
                expected.merge(e.path("cat").asText(), 1L, Long::sum);
            }
        }
        CollectingSink sink = read(fixture);
        Map<String, Long> actual = sink.slices.stream()
                .collect(Collectors.groupingBy(Slice::sourceCategory, TreeMap::new, Collectors.counting()));
        assertEquals(expected, actual);
        assertFalse(expected.isEmpty());
    }

    @ParameterizedTest
    @FieldSource("FIXTURES")
    void everyEventIsPlacedOrCounted(String fixture) throws Exception {
        long instants = 0;
        long flowEvents = 0;
        long total = 0;
        for (JsonNode e : Fixtures.rawEvents(fixture)) {
            total++;
            String ph = e.path("ph").asText();
            if (ph.equals("i") || ph.equals("I")) {
                instants++;
            } else if (ph.equals("s") || ph.equals("f") || ph.equals("t")) {
                flowEvents++;
            }
        }
        CollectingSink sink = read(fixture);
        assertEquals(Long.toString(total), sink.info.get("chrome.events"));
        assertEquals(instants, sink.instants.size());
        long pairs = Long.parseLong(sink.info.getOrDefault("chrome.flow_pairs", "0"));
        long flowSkipped = sink.skipped.entrySet().stream().filter(x -> x.getKey().startsWith("unmatched_flow: flow "))
                .mapToLong(Map.Entry::getValue).sum();
        // each pair uses two flow events; every other flow event is counted as skipped
        assertEquals(flowEvents, 2 * pairs + flowSkipped);
    }

    @ParameterizedTest
    @FieldSource("FIXTURES")
    void correlationFlowsLinkTheApiCallToItsGpuActivity(String fixture) throws Exception {
        // Independent pairing from the raw events: API call and GPU activity sharing a correlation id.
        Map<Long, String> apiByCorrelation = new HashMap<>();
        Map<Long, String> gpuByCorrelation = new HashMap<>();
        for (JsonNode e : Fixtures.rawEvents(fixture)) {
            JsonNode corr = e.path("args").path("correlation");
            if (!"X".equals(e.path("ph").asText()) || !corr.isIntegralNumber()) {
                continue;
            }
            String cat = e.path("cat").asText();
            String key = e.path("name").asText() + "@" + new BigDecimal(e.path("ts").asText()).movePointRight(3)
                    .toBigIntegerExact();
            if (cat.equals("cuda_runtime") || cat.equals("cuda_driver")) {
                apiByCorrelation.putIfAbsent(corr.asLong(), key);
            } else {
                gpuByCorrelation.put(corr.asLong(), key);
            }
        }
        Set<String> expected = new HashSet<>();
        gpuByCorrelation.forEach((c, gpu) -> {
            if (apiByCorrelation.containsKey(c)) {
                expected.add(c + ":" + apiByCorrelation.get(c) + "->" + gpu);
            }
        });
        CollectingSink sink = read(fixture);
        Map<Long, Slice> byId = new HashMap<>();
        sink.slices.forEach(s -> byId.put(s.id(), s));
        Set<String> actual = new HashSet<>();
        for (Flow f : sink.flows) {
            if (f.rule() != FlowRule.CORRELATION) {
                continue;
            }
            Slice from = byId.get(f.fromSliceId());
            Slice to = byId.get(f.toSliceId());
            assertEquals(Category.API, from.category());
            assertEquals(f.correlationId(), from.correlationId());
            assertEquals(f.correlationId(), to.correlationId());
            actual.add(f.correlationId() + ":" + from.name() + "@" + from.ts() + "->" + to.name() + "@" + to.ts());
        }
        assertEquals(expected, actual);
    }

    @ParameterizedTest
    @FieldSource("FIXTURES")
    void kinetoAc2gPairsAreTheCorrelationFlows(String fixture) throws Exception {
        // Kineto's own ac2g flow events, paired by id in the raw file.
        Map<String, Integer> ends = new HashMap<>();
        for (JsonNode e : Fixtures.rawEvents(fixture)) {
            String ph = e.path("ph").asText();
            if ("ac2g".equals(e.path("cat").asText()) && (ph.equals("s") || ph.equals("f"))) {
                ends.merge(e.path("id").asText(), ph.equals("s") ? 1 : 100, Integer::sum);
            }
        }
        long rawPairs = ends.values().stream().filter(v -> v == 101).count();
        CollectingSink sink = read(fixture);
        long sourceAc2g = sink.flows.stream().filter(f -> f.kind().equals("ac2g")).count();
        assertEquals(0, sourceAc2g, "every ac2g pair must coincide with a correlation flow");
        assertEquals(Long.toString(rawPairs), sink.info.getOrDefault("chrome.flow_pairs_same_as_correlation",
                "0"));
    }

    @org.junit.jupiter.api.Test
    void deviceProperties() throws Exception {
        CollectingSink sink = read("kineto-rocm6.2-mi250-minitoy.json.gz");
        assertFalse(sink.devices.isEmpty());
        var d = sink.devices.get(0);
        assertEquals("AMD", d.vendor());
        assertEquals(64, d.warpSize());
        assertEquals(104, d.computeUnits());
        assertEquals(68702699520L, d.memoryBytes());
        // first event of the file: 4203669604595.407 us, exact
        assertTrue(sink.slices.stream().anyMatch(s -> s.ts() == 4203669604595407L));
        assertEquals(sink.slices.stream().filter(s -> s.category() == Category.KERNEL).count(),
                sink.kernels.size());
    }

    @org.junit.jupiter.api.Test
    void copiesWithoutBytesTakeTheSizeOfTheirApiCall() throws Exception {
        // ROCm Kineto: the gpu_memcpy event has no "bytes"; its hipMemcpyWithStream call (same correlation) has
        // "size": "2560" as a string.
        Map<Long, Long> sizeByCorrelation = new HashMap<>();
        long copies = 0;
        for (JsonNode e : Fixtures.rawEvents("kineto-rocm6.2-mi250-minitoy.json.gz")) {
            JsonNode a = e.path("args");
            if ("cuda_runtime".equals(e.path("cat").asText()) && a.has("size")) {
                sizeByCorrelation.put(a.get("correlation").asLong(), Long.parseLong(a.get("size").asText()));
            }
            if ("gpu_memcpy".equals(e.path("cat").asText())) {
                copies++;
            }
        }
        CollectingSink sink = read("kineto-rocm6.2-mi250-minitoy.json.gz");
        assertEquals(copies, sink.transfers.size());
        for (var t : sink.transfers) {
            assertEquals(sizeByCorrelation.get(t.correlationId()), t.bytes());
        }
        assertEquals(copies, sink.skipped.get("bytes_from_call"));
        assertEquals(null, sink.skipped.get("missing_bytes"));
    }

    @org.junit.jupiter.api.Test
    void kernelDispatchAttributes() throws Exception {
        // {"name": "ampere_sgemm_128x64_nn", ..., "registers per thread": 122, "shared memory": 12544,
        //  "grid": [8, 16, 5], "block": [128, 1, 1]} in the raw file
        CollectingSink sink = read("kineto-cuda-event-sync-multistream.json.gz");
        Map<Long, Slice> byId = new HashMap<>();
        sink.slices.forEach(s -> byId.put(s.id(), s));
        var sgemm = sink.kernels.stream().filter(k -> byId.get(k.sliceId()).name().equals("ampere_sgemm_128x64_nn"))
                .findFirst().orElseThrow();
        assertEquals(new org.hetscope.model.Dim3(8, 16, 5), sgemm.grid());
        assertEquals(new org.hetscope.model.Dim3(128, 1, 1), sgemm.block());
        assertEquals(122, sgemm.registersPerThread());
        assertEquals(12544L, sgemm.sharedMemoryStatic());
        assertEquals(20L, sgemm.stream());
        assertNotNull(sgemm.deviceId());
    }
}
