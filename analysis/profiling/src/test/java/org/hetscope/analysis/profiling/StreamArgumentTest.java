package org.hetscope.analysis.profiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.store.Store;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The stream a host call names in its arguments is read by the query (DuckDB's RE2), not in Java: on every Kineto
 * fixture and on arguments made to trip it, each call's stream is what a Java regular expression finds in the
 * stored argument text (the first "stream" or "wait_on_stream" key), else its track's.
 */
class StreamArgumentTest {
    private static final Pattern STREAM = Pattern.compile("\"(?:stream|wait_on_stream)\"\\s*:\\s*(-?\\d+)");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"chrome/kineto-cuda-sampled-rank0.json.gz", "chrome/kineto-cuda-simple-add.json.gz",
        "chrome/kineto-cuda-event-sync-multistream.json.gz", "chrome/kineto-rocm6.2-mi250-minitoy.json.gz",
        "chrome/kineto-cuda-cupti-profiler.json.gz", "made-up"})
    void callsKeepTheStreamTheirArgumentsName(String fixture) throws Exception {
        Path trace;
        if (fixture.equals("made-up")) {
            String[] args = {"{\"stream\": 7}", "{\"wait_on_stream\":3,\"stream\":5}", "{\"streams\": 4}",
                "{\"stream\": -1}", "{}", "{\"note\": \"\\\"stream\\\": 9\"}", "{\"stream\": \"12\"}",
                "{\"x\": 1, \"stream\" : 12}"};
            StringBuilder json = new StringBuilder("[");
            for (int i = 0; i < args.length; i++) {
                json.append(i > 0 ? "," : "").append("{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\","
                        + "\"pid\":1,\"tid\":1,\"ts\":").append(10 * i).append(",\"dur\":2,\"args\":").append(args[i])
                        .append('}');
            }
            trace = dir.resolve("made-up.json");
            Files.writeString(trace, json.append(']').toString());
        } else {
            trace = Stores.fixture(fixture);
        }
        try (Store store = Stores.importInto(dir, "s", new ChromeTraceFormat(), trace)) {
            Map<Long, Long> expected = new HashMap<>();
            for (Object[] r : store.query(null, "SELECT s.id, s.args, t.stream FROM slice s JOIN track t ON "
                    + "t.id = s.track_id WHERE s.category IN ('api', 'sync', 'kernel', 'memcpy', 'memset')").rows()) {
                Matcher m = r[1] == null ? null : STREAM.matcher((String) r[1]);
                expected.put((Long) r[0], m != null && m.find() ? Long.valueOf(m.group(1)) : (Long) r[2]);
            }
            ProfileData d = ProfileData.load(store);
            assertTrue(!d.calls.isEmpty(), fixture);
            for (Span c : d.calls) {
                assertEquals(expected.get(c.id()), c.stream(), fixture + " call " + c.id() + " " + c.name());
            }
            if (fixture.equals("made-up")) {
                // by hand: the first key that names a stream with a number, in the text's order
                assertEquals(java.util.Arrays.asList(7L, 3L, null, -1L, null, null, null, 12L),
                        d.calls.stream().map(Span::stream).toList());
            }
        }
    }
}
