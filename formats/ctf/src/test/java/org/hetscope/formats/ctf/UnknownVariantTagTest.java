package org.hetscope.formats.ctf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Progress;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CTF 1.8 variant is tagged by an enumeration; a tag value that maps to no enumerator, or to a label the variant
 * has no option for, leaves no way to know the event's layout. The reader must then report the file, the packet and
 * the event where it happened, keep every event before it and every later packet, and do so the same way whether
 * the event class is still interpreted or already compiled to bytecode (after
 * {@link CompiledTrace#DEFAULT_CODEGEN_AFTER} events). Streams are laid out byte by byte below; babeltrace2, where
 * installed, must fail on the same traces after printing the same events. An unsigned 64-bit tag whose enumerator
 * range runs past 2^63 - 1 is checked too: its values there are known, not unknown.
 */
class UnknownVariantTagTest {
    static final String METADATA = """
            /* CTF 1.8 */
            typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
            typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
            typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
            trace {
                major = 1; minor = 8; byte_order = le;
                packet.header := struct { uint32_t magic; uint32_t stream_id; };
            };
            env { hostname = "h"; };
            clock { name = c; freq = 1000000000; };
            typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := clk_t;
            stream {
                packet.context := struct { uint64_t packet_size; uint64_t content_size; };
                event.header := struct { uint8_t id; clk_t timestamp; };
            };
            event {
                name = "ev"; id = 0;
                fields := struct {
                    enum : uint8_t { small = 0, big = 1, orphan = 2 } kind;
                    variant <kind> { uint8_t small; uint32_t big; } value;
                    uint8_t after;
                };
            };
            """;

    /** Tag values: the two with an option, one whose label "orphan" has none, one with no enumerator at all. */
    static final int SMALL = 0;
    static final int BIG = 1;
    static final int ORPHAN = 2;
    static final int UNMAPPED = 9;

    /** Size of packet header (magic, stream_id) and context (packet_size, content_size) in bytes. */
    static final int PACKET_START = 24;

    /** One event: the option's value is 8 bits for every tag but BIG (32 bits), as the layout above says. */
    static byte[] event(long ts, int tag, long value, int after) {
        ByteBuffer b = ByteBuffer.allocate(1 + 8 + 1 + 4 + 1).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 0).putLong(ts).put((byte) tag);
        if (tag == BIG) {
            b.putInt((int) value);
        } else {
            b.put((byte) value);
        }
        b.put((byte) after);
        return java.util.Arrays.copyOf(b.array(), b.position());
    }

    /** A packet holding {@code events}, padded to 8 bytes (packet_size counts the padding, content_size not). */
    static byte[] packet(List<byte[]> events) {
        int content = PACKET_START;
        for (byte[] e : events) {
            content += e.length;
        }
        int size = (content + 7) / 8 * 8;
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xC1FC1FC1).putInt(0).putLong(size * 8L).putLong(content * 8L);
        for (byte[] e : events) {
            b.put(e);
        }
        return b.array();
    }

    /** What the test wrote: the stream's bytes, where each event starts, and which timestamps are decodable. */
    record Written(byte[] stream, List<Long> eventOffsets, List<Long> packetOffsets, List<Long> goodTimes) {}

    /**
     * Packet 0: {@code before} good events (alternating small and big), the bad one with {@code badTag}, two good
     * ones after it (lost with the rest of the packet). Packet 1: three good events, which must all be kept.
     */
    static Written write(Path dir, int before, int badTag) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("metadata"), METADATA);
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        List<Long> offsets = new ArrayList<>();
        List<Long> packets = new ArrayList<>();
        List<Long> good = new ArrayList<>();
        long ts = 1_000;
        List<byte[]> p0 = new ArrayList<>();
        for (int i = 0; i < before; i++) {
            ts += 10;
            p0.add(event(ts, i % 2 == 0 ? SMALL : BIG, i % 2 == 0 ? i % 200 : 100_000 + i, i % 7));
            good.add(ts);
        }
        p0.add(event(ts += 10, badTag, 42, 1));
        p0.add(event(ts += 10, SMALL, 1, 1));
        p0.add(event(ts += 10, BIG, 2, 2));
        List<byte[]> p1 = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ts += 10;
            p1.add(event(ts, i == 1 ? BIG : SMALL, 70_000 + i, i));
            good.add(ts);
        }
        for (List<byte[]> p : List.of(p0, p1)) {
            packets.add((long) file.size());
            long at = file.size() + PACKET_START;
            for (byte[] e : p) {
                offsets.add(at);
                at += e.length;
            }
            file.writeBytes(packet(p));
        }
        Files.write(dir.resolve("stream_0"), file.toByteArray());
        return new Written(file.toByteArray(), offsets, packets, good);
    }

    record Decoded(List<Long> times, List<String> texts, List<CtfProblem> problems, StreamStats stats) {}

    static Decoded decode(Path dir, int codegenAfter) throws Exception {
        List<Long> times = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        EventText text = new EventText();
        try (CtfTrace t = CtfTrace.open(dir); CtfTrace.Cursor c = t.cursor()) {
            t.codegenAfter(codegenAfter);
            while (c.next()) {
                times.add(c.event().timestampNs());
                texts.add(text.format(c.event()));
            }
            return new Decoded(times, texts, t.problems(), t.streamStats().get(0));
        }
    }

    /** Checks one damaged trace both ways; returns the problem reported. */
    static CtfProblem check(Path dir, Written w, int before, String reason) throws Exception {
        Decoded interpreted = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> decode(dir, 0));
        Decoded compiled = assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> decode(dir, CompiledTrace.DEFAULT_CODEGEN_AFTER));
        for (Decoded d : List.of(interpreted, compiled)) {
            assertEquals(w.goodTimes(), d.times(), "events before the bad one and the next packet are kept");
            assertEquals(1, d.problems().size(), d.problems().toString());
            CtfProblem p = d.problems().get(0);
            assertEquals(dir.resolve("stream_0"), p.file());
            assertEquals((long) w.packetOffsets().get(0), p.packetOffset());
            assertEquals((long) w.eventOffsets().get(before), p.eventOffset(), "offset of the bad event");
            assertTrue(p.reason().contains(reason), p.reason());
            assertTrue(p.toString().contains("stream_0 packet at byte 0, event at byte " + w.eventOffsets().get(before)),
                    p.toString());
            assertEquals(w.goodTimes().size(), d.stats().events(), "events counted");
            assertEquals(2, d.stats().packets(), "packets counted");
        }
        assertEquals(interpreted.texts(), compiled.texts());
        assertEquals(interpreted.problems().toString(), compiled.problems().toString());
        return interpreted.problems().get(0);
    }

    @Test
    void tagWithNoEnumeratorIsReportedWhereItIs(@TempDir Path tmp) throws Exception {
        Written w = write(tmp, 3, UNMAPPED);
        check(tmp, w, 3, "unknown tag value 9 for variant 'value'");
        CtfProblem p = check(tmp, w, 3, "maps to no enumerator of 'kind'");
        // the variant starts after the event header (id, timestamp: 9 bytes) and its tag (1 byte)
        assertTrue(p.reason().contains("at byte " + (w.eventOffsets().get(3) + 10)), "the variant's own offset: " + p);
        agreesWithBabeltrace(tmp);
    }

    @Test
    void tagWhoseLabelHasNoOptionIsReportedWhereItIs(@TempDir Path tmp) throws Exception {
        Written w = write(tmp, 3, ORPHAN);
        check(tmp, w, 3, "unknown tag value 2 for variant 'value'");
        check(tmp, w, 3, "'orphan'");
        agreesWithBabeltrace(tmp);
    }

    /** More good events than it takes to compile the class, so that generated code meets the bad tag. */
    @Test
    void compiledDecoderReportsTheSame(@TempDir Path tmp) throws Exception {
        int before = CompiledTrace.DEFAULT_CODEGEN_AFTER + 36;
        for (int tag : new int[] {UNMAPPED, ORPHAN}) {
            Path dir = tmp.resolve("tag" + tag);
            Written w = write(dir, before, tag);
            check(dir, w, before, "unknown tag value " + tag + " for variant 'value'");
            try (CtfTrace t = CtfTrace.open(dir); StreamDecoder d = t.stream(0, x -> { })) {
                int n = 0;
                while (d.next()) {
                    n++;
                }
                assertEquals(w.goodTimes().size(), n);
                CompiledTrace.Event ev = t.compiledTraces().get(0).streams.get(0L).byId.get(0L);
                assertNotNull(ev.body, "the bad tag was met by generated code");
                assertNotNull(ev.stream.head, "and the event header too");
            }
            agreesWithBabeltrace(dir);
        }
    }

    /** The same trace through the importer: the damage is counted once, named by file, packet and event. */
    @Test
    void importCountsTheDamage(@TempDir Path tmp) throws Exception {
        Written w = write(tmp, 5, UNMAPPED);
        CollectingSink sink = new CollectingSink();
        new org.hetscope.formats.ctf.mapping.CtfTraceFormat().read(tmp, sink, Progress.NONE);
        assertEquals(Long.toString(w.goodTimes().size()), sink.info.get("ctf.events"));
        String where = tmp.resolve("stream_0") + " packet at byte 0, event at byte " + w.eventOffsets().get(5);
        assertTrue(sink.info.get("ctf.problem.0").startsWith(where + ": unknown tag value 9"), sink.info.toString());
        assertEquals(null, sink.info.get("ctf.problem.1"), "one problem");
        long damaged = sink.skipped.entrySet().stream()
                .filter(e -> e.getKey().startsWith("damaged_packet: unknown tag value 9"))
                .mapToLong(java.util.Map.Entry::getValue).sum();
        assertEquals(1, damaged, sink.skipped.toString());
    }

    /**
     * Not an unknown tag: an unsigned 64-bit tag whose enumerator's range runs past 2^63 - 1 (its upper bound is
     * negative as a Java {@code long}) must select that enumerator's option for values on both sides of 2^63, in the
     * interpreter and in generated code alike.
     */
    @Test
    void unsignedTagRangePast2To63SelectsItsOption(@TempDir Path tmp) throws Exception {
        String metadata = METADATA
                .replace("enum : uint8_t { small = 0, big = 1, orphan = 2 } kind;",
                        "enum : uint64_t { small = 0 ... 9, wide = 10 ... 0xFFFFFFFFFFFFFFFF } kind;")
                .replace("variant <kind> { uint8_t small; uint32_t big; } value;",
                        "variant <kind> { uint8_t small; uint32_t wide; } value;");
        assertNotEquals(METADATA, metadata);
        Files.writeString(tmp.resolve("metadata"), metadata);
        long[] tags = {5, 10, Long.MIN_VALUE, -1L, Long.MAX_VALUE};
        List<byte[]> events = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        int n = CompiledTrace.DEFAULT_CODEGEN_AFTER + 11;
        for (int i = 0; i < n; i++) {
            long tag = tags[i % tags.length];
            boolean wide = tag != 5;
            long ts = 1_000 + 10L * i;
            ByteBuffer b = ByteBuffer.allocate(1 + 8 + 8 + 4 + 1).order(ByteOrder.LITTLE_ENDIAN);
            b.put((byte) 0).putLong(ts).putLong(tag);
            if (wide) {
                b.putInt(100_000 + i);
            } else {
                b.put((byte) i);
            }
            b.put((byte) (i % 5));
            events.add(java.util.Arrays.copyOf(b.array(), b.position()));
            expected.add(ts + " ev: { kind = ( \"" + (wide ? "wide" : "small") + "\" : container = "
                    + Long.toUnsignedString(tag) + " ), value = { " + (wide ? "wide = " + (100_000 + i) : "small = " + i)
                    + " }, after = " + i % 5 + " }");
        }
        Files.write(tmp.resolve("stream_0"), packet(events));
        for (int codegen : new int[] {0, CompiledTrace.DEFAULT_CODEGEN_AFTER}) {
            Decoded d = decode(tmp, codegen);
            assertTrue(d.problems().isEmpty(), d.problems().toString());
            List<String> got = new ArrayList<>();
            for (int i = 0; i < d.times().size(); i++) {
                got.add(d.times().get(i) + " " + d.texts().get(i));
            }
            assertEquals(expected, got, "codegen after " + codegen);
        }
        assertEquals(n, ScopeCompilerTest.lockstep(tmp).events());
        Assumptions.assumeTrue(Babeltrace.available(), "babeltrace2 is not installed (Debian package babeltrace2)");
        Babeltrace.Run run = Babeltrace.run(tmp, "h");
        assertEquals(0, run.exit(), run.errors());
        List<Babeltrace.Line> ours = new ArrayList<>();
        for (String e : expected) {
            int sp = e.indexOf(' ');
            ours.add(new Babeltrace.Line(Long.parseLong(e.substring(0, sp)),
                    e.substring(sp + 1).replaceFirst("value = \\{ (small|wide) = ", "value = { ")));
        }
        assertEquals(ours, run.lines());
    }

    /**
     * babeltrace2 must fail too, and what it printed before failing must be what we kept of the damaged packet
     * (it stops at the damage, where we go on with the next packet).
     */
    static void agreesWithBabeltrace(Path dir) throws Exception {
        Assumptions.assumeTrue(Babeltrace.available(), "babeltrace2 is not installed (Debian package babeltrace2)");
        Babeltrace.Run run = Babeltrace.run(dir, "h");
        assertNotEquals(0, run.exit(), "babeltrace2 fails on the bad tag");
        Decoded ours = decode(dir, CompiledTrace.DEFAULT_CODEGEN_AFTER);
        List<Babeltrace.Line> expected = new ArrayList<>();
        for (int i = 0; i < ours.times().size() - 3; i++) {
            // babeltrace2 2.0 prints a CTF 1.8 variant's option without the option's name
            String text = ours.texts().get(i).replaceFirst("value = \\{ (small|big) = ", "value = { ");
            expected.add(new Babeltrace.Line(ours.times().get(i), text));
        }
        assertEquals(expected, run.lines());
        assertTrue(run.errors().contains("variant"), "babeltrace2 blames the variant: " + run.errors());
    }
}
