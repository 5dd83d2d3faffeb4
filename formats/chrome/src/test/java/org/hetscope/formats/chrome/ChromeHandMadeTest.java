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
        assertEquals(1L, sink.skipped.get("phase 'P' (kept as instant)"));
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
    void wrongTypesAreRejectedWithPosition() throws Exception {
        TraceFormatException e = damaged("[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":\"soon\","
                + "\"dur\":2}]");
        assertTrue(e.getMessage().contains("'ts' must be a number"), e.getMessage());
        assertTrue(e.position().contains("column"), e.position());
        TraceFormatException e2 = damaged("[{\"ph\":3,\"ts\":1}]");
        assertTrue(e2.getMessage().contains("'ph' must be a string"), e2.getMessage());
        TraceFormatException e3 = damaged("[1,2,3]");
        assertTrue(e3.getMessage().contains("must be an object"), e3.getMessage());
    }

    @Test
    void unbalancedBeginEndIsAnError() throws Exception {
        TraceFormatException e = damaged("[{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":5}]");
        assertTrue(e.getMessage().contains("without a matching 'B'"), e.getMessage());
        TraceFormatException e2 = damaged("[{\"ph\":\"B\",\"name\":\"open\",\"pid\":1,\"tid\":1,\"ts\":5},"
                + "{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":6,\"dur\":1}]");
        assertTrue(e2.getMessage().contains("never ended"), e2.getMessage());
        assertTrue(e2.position().contains("byte 1 "), e2.position());
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
