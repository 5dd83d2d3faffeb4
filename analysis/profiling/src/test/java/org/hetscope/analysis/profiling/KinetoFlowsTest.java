package org.hetscope.analysis.profiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On the Kineto fixtures, the correlation-id flows equal Kineto's own ac2g flow events, which this test pairs
 * from the raw JSON itself ('s' and 'f' with the same id, each bound to the X event enclosing it).
 */
class KinetoFlowsTest {
    @TempDir
    Path dir;

    record X(String pidTid, long ts, long end, String name, String cat) {}

    record FlowEnd(String ph, long id, String pidTid, long ts) {}

    static long micros(String text) {
        return new BigDecimal(text).movePointRight(3).setScale(0, java.math.RoundingMode.HALF_EVEN).longValueExact();
    }

    /** (api ts, api name, activity ts, activity name) for every ac2g pair in the file. */
    static Set<String> ac2gPairs(Path file) throws Exception {
        List<X> slices = new ArrayList<>();
        List<FlowEnd> ends = new ArrayList<>();
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file));
             JsonParser p = new JsonFactory().createParser(in)) {
            while (p.nextToken() != null) {
                if (p.currentToken() == JsonToken.FIELD_NAME && "traceEvents".equals(p.currentName())) {
                    p.nextToken();
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        Map<String, String> f = new HashMap<>();
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String k = p.currentName();
                            JsonToken v = p.nextToken();
                            if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) {
                                p.skipChildren();
                            } else {
                                f.put(k, p.getText());
                            }
                        }
                        String ph = f.get("ph");
                        String pt = f.get("pid") + "/" + f.get("tid");
                        if ("X".equals(ph) && f.get("ts") != null) {
                            long ts = micros(f.get("ts"));
                            long dur = f.get("dur") == null ? 0 : micros(f.get("dur"));
                            slices.add(new X(pt, ts, ts + dur, f.get("name"), f.get("cat")));
                        } else if ("ac2g".equals(f.get("cat")) && ("s".equals(ph) || "f".equals(ph))) {
                            ends.add(new FlowEnd(ph, Long.parseLong(f.get("id")), pt, micros(f.get("ts"))));
                        }
                    }
                }
            }
        }
        Map<Long, FlowEnd> starts = new HashMap<>();
        Map<Long, FlowEnd> finishes = new HashMap<>();
        for (FlowEnd e : ends) {
            ("s".equals(e.ph()) ? starts : finishes).put(e.id(), e);
        }
        Set<String> out = new HashSet<>();
        for (Map.Entry<Long, FlowEnd> s : starts.entrySet()) {
            FlowEnd f = finishes.get(s.getKey());
            if (f == null) {
                continue;
            }
            X a = enclosing(slices, s.getValue());
            X b = enclosing(slices, f);
            if (a == null || b == null) {
                continue;
            }
            X api = a.cat() != null && (a.cat().endsWith("_runtime") || a.cat().endsWith("_driver")) ? a : b;
            X act = api == a ? b : a;
            out.add(api.ts() + " " + api.name() + " -> " + act.ts() + " " + act.name());
        }
        return out;
    }

    static X enclosing(List<X> slices, FlowEnd e) {
        X best = null;
        for (X x : slices) {
            if (x.pidTid().equals(e.pidTid()) && x.ts() <= e.ts() && e.ts() <= x.end()
                    && (best == null || x.ts() >= best.ts())) {
                best = x;
            }
        }
        return best;
    }

    @ParameterizedTest
    @ValueSource(strings = {"kineto-cuda-simple-add.json.gz", "kineto-cuda-event-sync-multistream.json.gz",
        "kineto-rocm6.2-mi250-minitoy.json.gz"})
    void correlationFlowsEqualAc2g(String name) throws Exception {
        Path file = Stores.fixture("chrome/" + name);
        Set<String> expected = ac2gPairs(file);
        try (Store store = Stores.importInto(dir, "k", new ChromeTraceFormat(), file)) {
            Set<String> actual = new HashSet<>();
            for (FlowMatcher.Match m : new ActivityFlows(store, 1000).matches()) {
                if (m.rule() == org.hetscope.model.FlowRule.CORRELATION) {
                    actual.add(m.call().ts() + " " + m.call().name() + " -> " + m.activity().ts() + " "
                            + m.activity().name());
                }
            }
            assertTrue(!expected.isEmpty());
            // Kineto draws ac2g only for some activities (e.g. not for syncs); every ac2g pair is a correlation flow
            Set<String> missing = new HashSet<>(expected);
            missing.removeAll(actual);
            assertEquals(Set.of(), missing);
            // the other way round only Kineto's device-side sync records may lack an ac2g arrow
            Set<String> syncRecords = new HashSet<>();
            ProfileData.load(store).deviceSyncs.forEach(s -> syncRecords.add(s.ts() + " " + s.name()));
            for (String extra : actual) {
                if (!expected.contains(extra)) {
                    assertTrue(syncRecords.contains(extra.substring(extra.indexOf(" -> ") + 4)), extra);
                }
            }
        }
    }

    @Test
    void syncArrowsOnTheEventSyncTrace() throws Exception {
        Path file = Stores.fixture("chrome/kineto-cuda-event-sync-multistream.json.gz");
        try (Store store = Stores.importInto(dir, "s", new ChromeTraceFormat(), file)) {
            ProfileData d = ProfileData.load(store);
            List<SyncArrows.Arrow> arrows = new SyncArrows(1000).arrows(d.calls, d.activities, d.deviceSyncs);
            assertTrue(arrows.stream().anyMatch(a -> a.sync().name().equals("cudaDeviceSynchronize")));
            for (SyncArrows.Arrow a : arrows) {
                assertTrue(a.activity().end() <= a.sync().end() + 1000);
            }
        }
    }
}
