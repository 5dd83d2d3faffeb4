package org.hetscope.formats.chrome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.SkipReason;
import org.hetscope.model.InputLimits;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceFormatException;
import org.hetscope.model.TraceSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Damaged copies of the real Kineto fixtures, made here: one damaged spot must cost only what it holds. Every
 * other event is compared with the import of the undamaged file (slices, instants and counters as multisets).
 */
class ChromeDamageTest {
    @TempDir
    Path dir;

    static final String STRAY_END = CollectingSink.key(SkipReason.UNMATCHED_END, ChromeTraceReader.STRAY_END);
    static final String UNENDED = CollectingSink.key(SkipReason.UNENDED_SLICE, ChromeTraceReader.UNENDED);

    /** A sink that also keeps where each kind of skipped item was first seen. */
    static final class Sink extends CollectingSink {
        final Map<String, String> where = new LinkedHashMap<>();

        final java.util.Set<String> damageKeys = new java.util.HashSet<>();

        @Override
        public void skipped(SkipReason reason, String detail, String w, long count) {
            super.skipped(reason, detail, w, count);
            where.putIfAbsent(key(reason, detail), w);
            if (reason.damage()) {
                damageKeys.add(key(reason, detail));
            }
        }

        long damage() {
            return damagedTotal();
        }
    }

    static Sink read(Path p) throws Exception {
        Sink sink = new Sink();
        new ChromeTraceFormat().read(p, sink, Progress.NONE);
        return sink;
    }

    static String text(String fixture) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(Fixtures.path(fixture)))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private Path gz(String name, String json) throws IOException {
        Path p = dir.resolve(name);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            out.write(json.getBytes(StandardCharsets.UTF_8));
        }
        return p;
    }

    /** The char range [start, end) of each trace event in the text (found by a separate streaming pass). */
    static List<int[]> eventRanges(String json) throws IOException {
        // the fixtures are ASCII, so byte offsets are char offsets
        List<int[]> out = new ArrayList<>();
        JsonFactory f = JsonFactory.builder().streamReadConstraints(StreamReadConstraints.builder().build()).build();
        try (JsonParser p = f.createParser(json.getBytes(StandardCharsets.UTF_8))) {
            int depth = 0;
            int eventsDepth = -1;
            JsonToken t;
            String lastName = null;
            int start = -1;
            while ((t = p.nextToken()) != null) {
                switch (t) {
                    case FIELD_NAME -> lastName = p.currentName();
                    case START_ARRAY -> {
                        depth++;
                        if (eventsDepth < 0 && (depth == 1 || "traceEvents".equals(lastName))) {
                            eventsDepth = depth;
                        }
                    }
                    case START_OBJECT -> {
                        depth++;
                        if (depth == eventsDepth + 1) {
                            start = (int) p.currentTokenLocation().getByteOffset();
                        }
                    }
                    case END_OBJECT, END_ARRAY -> {
                        if (t == JsonToken.END_OBJECT && depth == eventsDepth + 1) {
                            out.add(new int[] {start, (int) p.currentLocation().getByteOffset()});
                        }
                        depth--;
                    }
                    default -> { }
                }
            }
        }
        return out;
    }

    /** The index of the first complete ('X') event from {@code from} on. */
    static int firstComplete(String json, List<int[]> events, int from) {
        int k = from;
        while (!json.substring(events.get(k)[0], events.get(k)[1]).matches("(?s).*\"ph\": ?\"X\".*")) {
            k++;
        }
        return k;
    }

    /** Slices, instants and counter samples as comparable text, with their counts. */
    static Map<String, Integer> content(CollectingSink s) {
        Map<String, Integer> m = new HashMap<>();
        for (Slice x : s.slices) {
            m.merge("slice " + x.sourceCategory() + " " + x.name() + " " + x.ts() + " " + x.dur() + " " + x.argsJson(),
                    1, Integer::sum);
        }
        s.instants.forEach(i -> m.merge("instant " + i.name() + " " + i.ts(), 1, Integer::sum));
        s.counters.forEach(c -> m.merge("counter " + c.ts() + " " + c.value(), 1, Integer::sum));
        return m;
    }

    /** What {@code a} has more than {@code b}. */
    static Map<String, Integer> minus(Map<String, Integer> a, Map<String, Integer> b) {
        Map<String, Integer> d = new HashMap<>();
        a.forEach((k, v) -> {
            int n = v - b.getOrDefault(k, 0);
            if (n != 0) {
                d.put(k, n);
            }
        });
        b.keySet().stream().filter(k -> !a.containsKey(k)).forEach(k -> d.put(k, -b.get(k)));
        return d;
    }

    @ParameterizedTest
    @CsvSource({
        "kineto-cuda-sampled-rank0.json.gz, \"ts\":\"12.5us\"",
        "kineto-cuda-simple-add.json.gz, \"ts\":\"12.5us\"",
        "kineto-rocm6.2-mi250-minitoy.json.gz, \"ts\":\"12.5us\"",
        "kineto-cuda-cupti-profiler.json.gz, \"ts\":{\"us\":12}",
        "kineto-cuda-event-sync-multistream.json.gz, \"ts\":[12]",
        "kineto-cuda-sampled-rank0.json.gz, \"ts\":1e400",
        "kineto-cuda-simple-add.json.gz, \"ts\":true",
    })
    void oneBadEventAmongManyCostsOnlyThatEvent(String fixture, String badTs) throws Exception {
        String json = text(fixture);
        List<int[]> events = eventRanges(json);
        // a complete event from the middle of the trace
        int[] e = events.get(firstComplete(json, events, events.size() / 2));
        String event = json.substring(e[0], e[1]);
        String damagedEvent = event.replaceFirst("\"ts\": ?[0-9.eE+-]+", java.util.regex.Matcher.quoteReplacement(
                badTs));
        assertFalse(damagedEvent.equals(event));
        Path bad = gz("bad.json.gz", json.substring(0, e[0]) + damagedEvent + json.substring(e[1]));

        Sink intact = read(Fixtures.path(fixture));
        Sink damaged = read(bad);
        // exactly the one slice of that event is missing, everything else is as in the undamaged import
        Map<String, Integer> lost = minus(content(intact), content(damaged));
        assertEquals(1, lost.size(), lost.toString());
        Map.Entry<String, Integer> only = lost.entrySet().iterator().next();
        assertEquals(1, only.getValue());
        String name = new com.fasterxml.jackson.databind.ObjectMapper().readTree(event).get("name").asText();
        assertTrue(only.getKey().contains(" " + name + " "), only.getKey() + " is not " + name);
        assertEquals(1, damaged.damage(), damaged.skipped.toString());
        String what = damaged.skipped.keySet().stream().filter(damaged.damageKeys::contains).findFirst()
                .orElseThrow();
        assertTrue(what.contains("'ts' must be a number") || what.contains("out of range"), what);
        assertTrue(damaged.where.get(what).contains("bad.json.gz at decompressed byte " + e[0] + " "),
                damaged.where.get(what));
    }

    @Test
    void strayEndBeforeAnyBeginIsCountedAndTheRestKept() throws Exception {
        String fixture = "kineto-cuda-simple-add.json.gz";
        String json = text(fixture);
        int first = eventRanges(json).get(0)[0];
        Path p = gz("stray.json.gz", json.substring(0, first)
                + "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":5,\"args\":{\"ring\":1}},\n" + json.substring(first));
        Sink intact = read(Fixtures.path(fixture));
        Sink s = read(p);
        assertEquals(Map.of(), minus(content(intact), content(s)));
        assertEquals(1L, s.skipped.get(STRAY_END));
        assertTrue(s.where.get(STRAY_END).contains("decompressed byte " + first + " "));
        assertEquals(0, s.damage());
    }

    @Test
    void beginThatNeverEndsIsClosedAtTheTraceEndAndMarked() throws Exception {
        String fixture = "kineto-rocm6.2-mi250-minitoy.json.gz";
        String json = text(fixture);
        Sink intact = read(Fixtures.path(fixture));
        long start = intact.slices.stream().mapToLong(Slice::ts).min().orElseThrow();
        long end = Math.max(intact.slices.stream().mapToLong(x -> x.ts() + x.dur()).max().orElseThrow(),
                intact.instants.stream().mapToLong(i -> i.ts()).max().orElse(Long.MIN_VALUE));
        int first = eventRanges(json).get(0)[0];
        String ts = org.hetscope.model.Nanos.toMicrosText(start);
        Path p = gz("open.json.gz", json.substring(0, first)
                + "{\"ph\":\"B\",\"name\":\"still running\",\"cat\":\"user_annotation\",\"pid\":7,\"tid\":7,"
                + "\"ts\":" + ts + ",\"args\":{\"step\":3}},\n" + json.substring(first));
        Sink s = read(p);
        Map<String, Integer> added = minus(content(s), content(intact));
        assertEquals(1, added.size(), added.toString());
        Slice open = s.slices.stream().filter(x -> x.name().equals("still running")).findFirst().orElseThrow();
        assertEquals(start, open.ts());
        assertEquals(end - start, open.dur());
        assertEquals("{\"step\":3,\"unended\":true}", open.argsJson());
        assertEquals(1L, s.skipped.get(UNENDED));
        assertEquals(0, s.damage());
    }

    @Test
    void endBeforeItsBeginIsDamageAndNeighboursStay() throws Exception {
        Path p = dir.resolve("t.json");
        Files.writeString(p, """
                [{"ph":"B","name":"a","pid":1,"tid":1,"ts":10},
                 {"ph":"E","pid":1,"tid":1,"ts":5},
                 {"ph":"X","name":"b","pid":1,"tid":1,"ts":20,"dur":1},
                 {"ph":"X","name":"c","pid":1,"tid":1,"ts":30},
                 {"ph":"X","name":"d","pid":1,"tid":1,"ts":40,"dur":-2},
                 {"ph":"X","name":"e","pid":1,"tid":1},
                 [1,2],
                 {"ph":"X","name":"f","pid":1,"tid":1,"ts":50,"dur":1,"args":{"correlation":123456789012345678901234}},
                 {"ph":"X","name":"g","pid":{"x":1},"tid":1,"ts":60,"dur":1},
                 {"ph":"X","name":"h","pid":1,"tid":1,"ts":70,"dur":1}]
                """);
        Sink s = read(p);
        assertEquals(List.of("b", "h"), s.slices.stream().map(Slice::name).toList());
        assertEquals(7, s.damage(), s.skipped.toString());
    }

    @Test
    void byteOrderMarkBeforeTheJsonIsAccepted() throws Exception {
        String fixture = "kineto-cuda-event-sync-multistream.json.gz";
        Path p = dir.resolve("bom.json");
        Files.writeString(p, "\uFEFF" + text(fixture));
        assertTrue(new ChromeTraceFormat().accepts(p));
        Sink s = read(p);
        assertEquals(Map.of(), minus(content(read(Fixtures.path(fixture))), content(s)));
        assertEquals(0, s.damage());
    }

    @Test
    void garbageAfterTheDocumentIsCountedAsDamage() throws Exception {
        String fixture = "kineto-cuda-event-sync-multistream.json.gz";
        String json = text(fixture).stripTrailing();
        for (String junk : new String[] {"garbage", "{\"ph\":\"X\"}", "\u0000\u0000\u0000", "]"}) {
            Path p = gz("junk.json.gz", json + "\n" + junk);
            Sink s = read(p);
            assertEquals(Map.of(), minus(content(read(Fixtures.path(fixture))), content(s)), junk);
            assertEquals(1, s.damage(), junk + ": " + s.skipped);
            String what = "trailing_data: JSON";
            // where the document ends
            assertTrue(s.where.get(what).contains("decompressed byte " + json.length() + " "),
                    s.where.get(what));
        }
    }

    /** Nesting far past the limit, inside one event's args and as an event, costs that event only. */
    @Test
    void deepNestingSkipsTheEventWithAPlainMessage() throws Exception {
        String fixture = "kineto-rocm6.2-mi250-minitoy.json.gz";
        String json = text(fixture);
        List<int[]> events = eventRanges(json);
        int[] e = events.get(firstComplete(json, events, events.size() / 2));
        String event = json.substring(e[0], e[1]);
        String deep = "[".repeat(5000) + "1" + "]".repeat(5000);
        String damagedEvent = event.replaceFirst("\\{", java.util.regex.Matcher.quoteReplacement(
                "{\"deep\":{\"a\":" + deep + "},"));
        Path p = gz("deep.json.gz", json.substring(0, e[0]) + damagedEvent + ",\n" + deep + json.substring(e[1]));
        Sink intact = read(Fixtures.path(fixture));
        Sink s = read(p);
        Map<String, Integer> lost = minus(content(intact), content(s));
        assertEquals(1, lost.size(), lost.toString());
        assertEquals(2, s.damage(), s.skipped.toString());
        for (String what : s.skipped.keySet()) {
            assertFalse(what.contains("StreamReadConstraints") || what.contains("`"), what);
        }
        assertTrue(s.skipped.keySet().stream().anyMatch(w -> w.contains("nested deeper than "
                + ChromeTraceReader.MAX_DEPTH + " levels")), s.skipped.toString());
        assertTrue(s.where.values().stream().anyMatch(w -> w.contains("decompressed byte " + e[0] + " ")),
                s.where.toString());
    }

    @Test
    void parserMessagesCarryNoJacksonInternals() throws Exception {
        Path deep = gz("deep.json.gz", "[" + "[".repeat(5000));
        Sink s = read(deep);
        assertEquals(1, s.damage(), s.skipped.toString());
        assertTrue(s.skipped.keySet().stream().allMatch(w -> !w.contains("StreamReadConstraints")), s.skipped.toString());
        Path cut = gz("cut.json.gz", "{\"traceEvents\":[[[[{\"a\":1}");
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> read(cut));
        assertTrue(e.getMessage().startsWith(cut + " at decompressed byte "), e.getMessage());
        assertFalse(e.getMessage().contains("Source") || e.getMessage().contains("`"), e.getMessage());
    }

    /** Strings and names just past a lowered limit, at each place one can stand, including at a gzip boundary. */
    @Test
    void overlongStringsAndNamesSkipTheirEventWherever() throws Exception {
        String fixture = "kineto-cuda-event-sync-multistream.json.gz";
        String json = text(fixture);
        Sink intact = read(Fixtures.path(fixture));
        List<int[]> events = eventRanges(json);
        int limit = 4096;
        String old = System.getProperty(InputLimits.MAX_TOKEN_PROPERTY);
        System.setProperty(InputLimits.MAX_TOKEN_PROPERTY, Integer.toString(limit));
        try {
            // lengths around the limit and the parser's 64 Ki-char segments, with escapes in them
            int[] lengths = {limit + 1, limit + 7, 3 * limit, 70_000, 200_003};
            for (int n : lengths) {
                for (String shape : new String[] {"value", "name", "escaped", "topLevel"}) {
                    int[] e = events.get(firstComplete(json, events, events.size() / 3));
                    String event = json.substring(e[0], e[1]);
                    String x = shape.equals("escaped") ? "ab\\\"\\\\".repeat(n / 4 + 1) : "x".repeat(n);
                    String changed = switch (shape) {
                        case "name" -> event.replaceFirst("\\{", "{\"" + x + "\":1,");
                        case "topLevel" -> event;
                        default -> event.replaceFirst("\\{", java.util.regex.Matcher.quoteReplacement(
                                "{\"name\":\"" + x + "\",\"after\":[\"}]\"],"));
                    };
                    String doc = json.substring(0, e[0]) + changed + json.substring(e[1]);
                    if (shape.equals("topLevel")) {
                        doc = doc.replaceFirst("\\{", "{\"huge\":\"" + x + "\",");
                    }
                    Sink s = read(gz("long.json.gz", doc));
                    Map<String, Integer> lost = minus(content(intact), content(s));
                    String label = shape + " " + n;
                    assertEquals(shape.equals("topLevel") ? 0 : 1, lost.size(), label + " " + lost);
                    assertEquals(1, s.damage(), label + " " + s.skipped);
                    assertTrue(s.skipped.keySet().stream().anyMatch(w -> w.contains("longer than " + limit)),
                            label + " " + s.skipped);
                }
            }
        } finally {
            if (old == null) {
                System.clearProperty(InputLimits.MAX_TOKEN_PROPERTY);
            } else {
                System.setProperty(InputLimits.MAX_TOKEN_PROPERTY, old);
            }
        }
    }

    /** Args made of many strings, each within the limit, together past it: the event is skipped, not the heap. */
    @Test
    void argsPastTheLimitAltogetherSkipTheirEvent() throws Exception {
        String old = System.getProperty(InputLimits.MAX_TOKEN_PROPERTY);
        System.setProperty(InputLimits.MAX_TOKEN_PROPERTY, "4096");
        try {
            String many = ("\"" + "m".repeat(1000) + "\",").repeat(20);
            Path p = dir.resolve("args.json");
            Files.writeString(p, "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,\"args\":"
                    + "{\"list\":[" + many + "{\"deep\":[" + many + "1]}]}},\n"
                    + "{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":1,\"args\":{\"k\":\"" + "v".repeat(3000)
                    + "\"}}]");
            Sink s = read(p);
            assertEquals(List.of("b"), s.slices.stream().map(Slice::name).toList());
            assertEquals(1L, s.skipped.get("damaged_record: trace event: 'args' longer than 4096 "
                    + "characters (the limit: -D" + InputLimits.MAX_TOKEN_PROPERTY + "=N)"), s.skipped.toString());
        } finally {
            if (old == null) {
                System.clearProperty(InputLimits.MAX_TOKEN_PROPERTY);
            } else {
                System.setProperty(InputLimits.MAX_TOKEN_PROPERTY, old);
            }
        }
    }

    /**
     * The case at the default limit: a gzip of about 1.5 MB that unpacks to a 1.5 GB string in one event,
     * written here as a stream (the test holds no more than a buffer of it).
     */
    @Test
    void aGigabyteStringInASmallGzipIsSkippedNotHeld() throws Exception {
        String fixture = "kineto-cuda-event-sync-multistream.json.gz";
        String json = text(fixture);
        List<int[]> events = eventRanges(json);
        int[] e = events.get(events.size() / 2);
        long length = Long.getLong("hetscope.test.bigString", 1_500_000_000L);
        Path p = dir.resolve("big.json.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p), 1 << 16)) {
            out.write(json.substring(0, e[0] + 1).getBytes(StandardCharsets.UTF_8));
            out.write("\"args\":{\"blob\":\"".getBytes(StandardCharsets.UTF_8));
            byte[] chunk = new byte[1 << 20];
            java.util.Arrays.fill(chunk, (byte) 'A');
            for (long left = length; left > 0; left -= chunk.length) {
                out.write(chunk, 0, (int) Math.min(chunk.length, left));
            }
            out.write("\"},".getBytes(StandardCharsets.UTF_8));
            out.write(json.substring(e[0] + 1).getBytes(StandardCharsets.UTF_8));
        }
        assertTrue(Files.size(p) < length / 100, "gzip of " + Files.size(p) + " bytes");
        Sink s = read(p);
        Map<String, Integer> lost = minus(content(read(Fixtures.path(fixture))), content(s));
        assertTrue(lost.size() <= 1, lost.toString());
        assertEquals(1, s.damage(), s.skipped.toString());
        String what = s.skipped.keySet().stream().filter(s.damageKeys::contains).findFirst().orElseThrow();
        assertTrue(what.contains("a string longer than " + InputLimits.DEFAULT_MAX_TOKEN_BYTES + " characters"), what);
        assertTrue(s.where.get(what).contains("decompressed byte " + e[0] + " "), s.where.get(what));
    }

    @Test
    void damagedGzipNamesTheFileAndBothOffsets() throws Exception {
        byte[] gz = Files.readAllBytes(Fixtures.path("kineto-cuda-sampled-rank0.json.gz"));
        // Deflate data damaged in the middle mostly unpacks to garbage the JSON reader stops at first; the inflater
        // itself fails at a bad block header (at the start) and at a wrong checksum (at the end).
        int deflateStart = 10;
        if ((gz[3] & 0x04) != 0) {
            deflateStart += 2 + (gz[10] & 0xff) + ((gz[11] & 0xff) << 8);
        }
        if ((gz[3] & 0x08) != 0) {
            while (gz[deflateStart++] != 0) {
                // the file name ends with a zero byte
            }
        }
        byte[] badBlock = gz.clone();
        badBlock[deflateStart] = 0x07; // final block of the reserved type 3
        Path p = dir.resolve("bad.json.gz");
        Files.write(p, badBlock);
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> read(p));
        // the inflater stops just after the byte it could not use
        assertEquals(p + " at compressed byte " + (deflateStart + 1) + " (decompressed byte 0): damaged gzip data "
                + "(invalid block type); nothing after it can be read", e.getMessage());

        byte[] badSum = gz.clone();
        badSum[gz.length - 8] ^= 1;
        Files.write(p, badSum);
        TraceFormatException sum = assertThrows(TraceFormatException.class, () -> read(p));
        long text = text("kineto-cuda-sampled-rank0.json.gz").length();
        // the checksum that does not match: the first byte of the 8-byte trailer
        assertEquals(p + " at compressed byte " + (gz.length - 8) + " (decompressed byte " + text + "): damaged gzip data "
                + "(Corrupt GZIP trailer); nothing after it can be read", sum.getMessage());

        Path cut = dir.resolve("cut.json.gz");
        Files.write(cut, java.util.Arrays.copyOf(gz, gz.length / 2));
        TraceFormatException c = assertThrows(TraceFormatException.class, () -> read(cut));
        assertTrue(c.getMessage().contains("ends inside the gzip stream"), c.getMessage());
        assertTrue(c.getMessage().startsWith(cut + " at compressed byte " + gz.length / 2 + " (decompressed byte "),
                c.getMessage());

        Path header = dir.resolve("header.json.gz");
        Files.write(header, java.util.Arrays.copyOf(gz, 5));
        TraceFormatException h = assertThrows(TraceFormatException.class, () -> read(header));
        assertTrue(h.getMessage().startsWith(header.toString()), h.getMessage());
        assertNotNull(h.position());
    }
}
