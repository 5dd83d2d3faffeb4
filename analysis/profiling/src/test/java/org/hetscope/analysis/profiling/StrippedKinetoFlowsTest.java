package org.hetscope.analysis.profiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.model.FlowRule;
import org.hetscope.store.Store;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Launch arrows without correlation ids (issue 27 item 5): each Kineto fixture is imported as it is, where the
 * correlation ids give the true launch -> activity pairs, and again from a copy with every id that could link a
 * launch to its activity removed ({@code correlation} and {@code External id} args, the {@code ac2g} flow events
 * keyed by the correlation). The guesses on the copy must name the true launch for at least 99 % of the true pairs
 * on every fixture.
 * (kineto-cuda-cupti-profiler is left out: none of its activities, CUPTI profiler ranges, carries a correlation id,
 * so it has no true pairs.)
 */
class StrippedKinetoFlowsTest {
    @TempDir
    Path dir;

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
            .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));

    /** Writes the trace without correlation ids, External ids and ac2g flow events; returns how many were cut. */
    static int strip(Path in, Path out) throws Exception {
        JsonNode root;
        try (InputStream is = new GZIPInputStream(Files.newInputStream(in))) {
            root = JSON.readTree(is);
        }
        ArrayNode events = (ArrayNode) (root.isArray() ? root : root.get("traceEvents"));
        ArrayNode kept = JSON.createArrayNode();
        int cut = 0;
        for (JsonNode e : events) {
            String ph = e.path("ph").asText();
            if (("s".equals(ph) || "f".equals(ph)) && "ac2g".equals(e.path("cat").asText())) {
                cut++;
                continue;
            }
            if (e.get("args") instanceof ObjectNode args) {
                for (String field : List.of("correlation", "External id", "external id")) {
                    if (args.remove(field) != null) {
                        cut++;
                    }
                }
            }
            kept.add(e);
        }
        JsonNode written = root.isArray() ? kept : ((ObjectNode) root).set("traceEvents", kept);
        try (OutputStream os = new GZIPOutputStream(Files.newOutputStream(out))) {
            JSON.writeValue(os, written);
        }
        return cut;
    }

    static String callKey(Span c) {
        return c.ts() + " " + c.name();
    }

    static String activityKey(Span a) {
        return a.ts() + " " + a.name() + " stream " + a.stream();
    }

    /** The launch arrows (not the sync records, which have no launch order) as activity key -> call key. */
    static Map<String, String> arrows(Store store, boolean exactOnly) {
        ProfileData d = ProfileData.load(store);
        Map<String, String> out = new HashMap<>();
        for (FlowMatcher.Match m : new FlowMatcher(FlowMatcher.DEFAULT_TOLERANCE_NS).match(d.calls, d.activities,
                d.collectiveLaunches)) {
            if (exactOnly) {
                assertEquals(FlowRule.CORRELATION, m.rule(), "with ids every pair of these fixtures is exact");
            } else {
                assertNotEquals(FlowRule.CORRELATION, m.rule(), "no correlation id is left in the copy");
            }
            String previous = out.put(activityKey(m.activity()), callKey(m.call()));
            assertEquals(null, previous, "activity keys are unique: " + activityKey(m.activity()));
        }
        return out;
    }

    /**
     * kineto-cuda-sampled-rank0 is the hard one: its launch calls name no stream, and the NCCL kernels of stream 84
     * either wait up to 54 ms behind a collective while stream 7 runs kernels launched after them, or start at once
     * while stream 7 is backed up with kernels launched before them; start order alone then pairs the launches in
     * between one off (87.0 %, 1047 of 1204, before the collective launches were told apart by their enclosing
     * {@code nccl:*} op; launch order per process without the per-stream constraint got 82.5 %, the time match
     * before it 25.3 %).
     */
    @ParameterizedTest
    @CsvSource({"chrome/kineto-cuda-simple-add.json.gz", "chrome/kineto-cuda-event-sync-multistream.json.gz",
        "chrome/kineto-cuda-sampled-rank0.json.gz", "chrome/kineto-rocm6.2-mi250-minitoy.json.gz",
        "examples/kineto-cuda-simple-add.json.gz"})
    void launchOrderRecoversTheTruePairs(String name) throws Exception {
        double share = 0.99;
        Path file = name.startsWith("examples/") ? Stores.ROOT.resolve(name) : Stores.fixture(name);
        Path stripped = dir.resolve("stripped.json.gz");
        assertTrue(strip(file, stripped) > 0);
        Map<String, String> truth;
        Set<String> launches = new HashSet<>();
        try (Store store = Stores.importInto(dir, "ids", new ChromeTraceFormat(), file)) {
            truth = arrows(store, true);
            ProfileData.load(store).calls.forEach(c -> launches.add(callKey(c)));
        }
        assertFalse(truth.isEmpty());
        assertEquals(truth.size(), new HashSet<>(truth.values()).size(), "one activity per launch call");
        try (Store store = Stores.importInto(dir, "stripped", new ChromeTraceFormat(), stripped)) {
            ProfileData d = ProfileData.load(store);
            // the copy is the same trace: same calls and activities at the same times, only the ids are gone
            Set<String> calls = new HashSet<>();
            d.calls.forEach(c -> calls.add(callKey(c)));
            assertEquals(launches, calls);
            assertTrue(d.calls.stream().allMatch(c -> c.correlationId() == null));
            assertTrue(d.activities.stream().allMatch(a -> a.correlationId() == null));
            Map<String, String> guessed = arrows(store, false);
            long right = truth.entrySet().stream().filter(e -> e.getValue().equals(guessed.get(e.getKey()))).count();
            String figure = String.format(java.util.Locale.ROOT, "%s: %d of %d true pairs recovered (%.1f %%), %d guesses",
                    name, right, truth.size(), 100.0 * right / truth.size(), guessed.size());
            System.out.println("stripped Kineto flows: " + figure);
            assertTrue(right >= share * truth.size(), figure);
        }
    }
}
