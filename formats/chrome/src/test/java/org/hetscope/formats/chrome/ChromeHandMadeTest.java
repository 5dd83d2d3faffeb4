package org.hetscope.formats.chrome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.hetscope.model.Category;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.FlowRule;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceFormatException;
import org.hetscope.model.TraceSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Small hand-written traces for each phase and for damaged input. */
class ChromeHandMadeTest {
    @TempDir
    Path dir;

    private Path write(String name, String json) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, json);
        return p;
    }

    private CollectingSink read(Path p) throws Exception {
        CollectingSink sink = new CollectingSink();
        new ChromeTraceFormat().read(p, sink, Progress.NONE);
        return sink;
    }

    @Test
    void fractionalMicrosecondsRoundTripToExactNanoseconds() throws Exception {
        Path p = write("t.json", """
                [{"ph":"X","name":"a","pid":1,"tid":1,"ts":1.001,"dur":0.320},
                 {"ph":"X","name":"b","pid":1,"tid":1,"ts":1234567890.123,"dur":8928948690719.325},
                 {"ph":"i","name":"c","pid":1,"tid":1,"ts":4203669604595.407}]
                """);
        CollectingSink sink = read(p);
        Slice a = sink.slices.get(0);
        Slice b = sink.slices.get(1);
        assertEquals(1001L, a.ts());
        assertEquals(320L, a.dur());
        assertEquals(1234567890123L, b.ts());
        assertEquals(8928948690719325L, b.dur());
        assertEquals(4203669604595407L, sink.instants.get(0).ts());
        assertEquals("4203669604595.407", org.hetscope.model.Nanos.toMicrosText(sink.instants.get(0).ts()));
    }

    @Test
    void beginEndPairsNestPerThreadAndCountersAndAsyncAreKept() throws Exception {
        Path p = write("t.json", """
                {"displayTimeUnit":"ns","traceEvents":[
                 {"ph":"B","name":"outer","pid":1,"tid":2,"ts":10,"args":{"a":1}},
                 {"ph":"B","name":"inner","pid":1,"tid":2,"ts":11},
                 {"ph":"E","pid":1,"tid":2,"ts":12},
                 {"ph":"E","pid":1,"tid":2,"ts":20,"args":{"b":2}},
                 {"ph":"C","name":"mem","pid":1,"ts":5,"args":{"used":100,"free":28}},
                 {"ph":"b","cat":"io","name":"read","id":"0x1","pid":1,"ts":3},
                 {"ph":"n","cat":"io","name":"progress","id":"0x1","pid":1,"ts":4},
                 {"ph":"e","cat":"io","name":"read","id":"0x1","pid":1,"ts":9},
                 {"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"worker"}},
                 {"ph":"s","cat":"dep","name":"d","id":7,"pid":1,"tid":2,"ts":11},
                 {"ph":"X","cat":"task","name":"later","pid":1,"tid":3,"ts":30,"dur":5},
                 {"ph":"f","cat":"dep","name":"d","id":7,"pid":1,"tid":3,"ts":30},
                 {"ph":"P","name":"sample","pid":1,"tid":2,"ts":15}
                ]}
                """);
        CollectingSink sink = read(p);
        assertEquals("ns", sink.info.get("chrome.displayTimeUnit"));
        Slice outer = sink.slices.stream().filter(s -> s.name().equals("outer")).findFirst().orElseThrow();
        Slice inner = sink.slices.stream().filter(s -> s.name().equals("inner")).findFirst().orElseThrow();
        assertEquals(10_000L, outer.ts());
        assertEquals(10_000L, outer.dur());
        assertEquals(1_000L, inner.dur());
        assertEquals("{\"a\":1,\"b\":2}", outer.argsJson());
        assertEquals(2, sink.counters.size());
        Slice read = sink.slices.stream().filter(s -> s.name().equals("read")).findFirst().orElseThrow();
        assertEquals(6_000L, read.dur());
        assertTrue(sink.tracks.stream().anyMatch(t -> t.name().equals("worker")));
        // s binds to the enclosing slice (inner, at 11), f without bp binds to the next slice (later, at 30)
        var flow = sink.flows.stream().filter(f -> f.rule() == FlowRule.SOURCE).findFirst().orElseThrow();
        assertEquals(inner.id(), flow.fromSliceId());
        Slice later = sink.slices.stream().filter(s -> s.name().equals("later")).findFirst().orElseThrow();
        assertEquals(later.id(), flow.toSliceId());
        assertEquals(Category.OTHER, later.category());
        // the 'P' sample is kept as a generic instant and counted
        assertTrue(sink.instants.stream().anyMatch(i -> i.name().equals("sample")));
        assertEquals(1L, sink.skipped.get("kept_generic: phase 'P' (instant)"));
    }

    @Test
    void arrayFormWithoutClosingBracketIsAccepted() throws Exception {
        Path p = write("t.json", "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2},\n");
        CollectingSink sink = read(p);
        assertEquals(1, sink.slices.size());
    }

    @Test
    void gzipInputIsDetectedByContent() throws Exception {
        Path p = dir.resolve("t.trace");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            out.write("{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2}]}"
                    .getBytes(StandardCharsets.UTF_8));
        }
        assertTrue(new ChromeTraceFormat().accepts(p));
        assertEquals(1, read(p).slices.size());
    }

    private TraceFormatException damaged(String json) throws IOException {
        Path p = write("bad.json", json);
        CollectingSink sink = new CollectingSink();
        return assertThrows(TraceFormatException.class, () -> new ChromeTraceFormat().read(p, sink,
                Progress.NONE));
    }

    @Test
    void truncatedObjectFormNamesFileAndPosition() throws Exception {
        TraceFormatException e = damaged("{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,"
                + "\"ts\":1,\"dur\":2},\n{\"ph\":\"X\",\"na");
        assertTrue(e.getMessage().contains("bad.json"), e.getMessage());
        assertTrue(e.position().contains("line 2"), e.position());
    }

    @Test
    void wrongTypesSkipTheEventAndCountItWithItsPosition() throws Exception {
        String json = "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":\"soon\",\"dur\":2},\n"
                + "{\"ph\":3,\"ts\":1},\n1,\n{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2}]";
        Path p = write("bad.json", json);
        ChromeDamageTest.Sink sink = ChromeDamageTest.read(p);
        assertEquals(List.of("b"), sink.slices.stream().map(Slice::name).toList());
        String ts = "damaged_record: trace event: 'ts' must be a number of microseconds, found a string";
        assertEquals(1L, sink.skipped.get(ts));
        assertEquals(p + " at byte 1 (line 1)", sink.where.get(ts));
        String ph = "damaged_record: trace event: 'ph' must be a string, found a number";
        assertEquals(p + " at byte " + json.indexOf("{\"ph\":3") + " (line 2)", sink.where.get(ph));
        assertEquals(1L, sink.skipped.get("damaged_record: trace event that is not an object"));
    }

    @Test
    void unbalancedBeginEndIsCountedNotFatal() throws Exception {
        ChromeDamageTest.Sink e = ChromeDamageTest.read(write("e.json", "[{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":5}]"));
        assertEquals(1L, e.skipped.get(ChromeDamageTest.STRAY_END));
        assertEquals(p(e.where.get(ChromeDamageTest.STRAY_END)), "byte 1 (line 1)");
        ChromeDamageTest.Sink b = ChromeDamageTest.read(write("b.json",
                "[{\"ph\":\"B\",\"name\":\"open\",\"pid\":1,\"tid\":1,\"ts\":5},"
                + "{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":6,\"dur\":1}]"));
        Slice open = b.slices.stream().filter(s -> s.name().equals("open")).findFirst().orElseThrow();
        assertEquals(5_000L, open.ts());
        assertEquals(2_000L, open.dur());
        assertEquals("{\"unended\":true}", open.argsJson());
        assertEquals(1L, b.skipped.get(ChromeDamageTest.UNENDED));
        assertEquals(0, b.damage());
    }

    private String p(String where) {
        return where.substring(where.indexOf(" at ") + 4);
    }

    @Test
    void binaryFileIsNotAcceptedAndFailsCleanly() throws Exception {
        Path p = dir.resolve("bin.json");
        byte[] junk = new byte[4096];
        new java.util.Random(1).nextBytes(junk);
        junk[0] = 0x7f;
        Files.write(p, junk);
        assertEquals(false, new ChromeTraceFormat().accepts(p));
        CollectingSink sink = new CollectingSink();
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> new ChromeTraceFormat().read(p, sink, Progress.NONE));
        assertTrue(e.getMessage().startsWith(p.toString()), e.getMessage());
        assertEquals(List.of(), sink.slices);
    }
}
