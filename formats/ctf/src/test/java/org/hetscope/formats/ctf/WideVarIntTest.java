package org.hetscope.formats.ctf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CTF 2 variable-length integers (LEB128) whose value needs more than 64 bits are damage, reported with file, packet,
 * event, field and offset, never cut to their low 64 bits; those that fit, however many bytes they take, are exact,
 * unsigned ones up to 2^64 - 1 and signed ones down to -2^63. The streams are encoded below from {@link BigInteger}
 * values by the test's own LEB128 encoder. babeltrace2 2.1 and later (the first to read CTF 2) rejects the same
 * oversized values; where an older one is installed, that comparison is skipped.
 */
class WideVarIntTest {
    static final String U32 = "{\"type\":\"fixed-length-unsigned-integer\",\"length\":32,\"byte-order\":\"little-endian\","
            + "\"alignment\":8";

    static String metadata() {
        List<String> f = List.of(
                "{\"type\":\"preamble\",\"version\":2}",
                "{\"type\":\"trace-class\",\"environment\":{\"hostname\":\"h\"},\"packet-header-field-class\":{\"type\":"
                        + "\"structure\",\"member-classes\":[{\"name\":\"magic\",\"field-class\":" + U32
                        + ",\"roles\":[\"packet-magic-number\"]}}]}}",
                "{\"type\":\"clock-class\",\"name\":\"clk\",\"frequency\":1000000000}",
                "{\"type\":\"data-stream-class\",\"default-clock-class-name\":\"clk\",\"packet-context-field-class\":"
                        + "{\"type\":\"structure\",\"member-classes\":["
                        + "{\"name\":\"packet_size\",\"field-class\":" + U32 + ",\"roles\":[\"packet-total-length\"]}},"
                        + "{\"name\":\"content_size\",\"field-class\":" + U32 + ",\"roles\":[\"packet-content-length\"]}}]},"
                        + "\"event-record-header-field-class\":{\"type\":\"structure\",\"member-classes\":["
                        + "{\"name\":\"ts\",\"field-class\":" + U32 + ",\"roles\":[\"default-clock-timestamp\"]}}]}}",
                "{\"type\":\"event-record-class\",\"id\":0,\"name\":\"ev\",\"payload-field-class\":{\"type\":\"structure\","
                        + "\"member-classes\":["
                        + "{\"name\":\"u\",\"field-class\":{\"type\":\"variable-length-unsigned-integer\"}},"
                        + "{\"name\":\"s\",\"field-class\":{\"type\":\"variable-length-signed-integer\"}}]}}");
        StringBuilder b = new StringBuilder();
        for (String s : f) {
            b.append('\u001e').append(s).append('\n');
        }
        return b.toString();
    }

    /** Unsigned LEB128, shortest form. */
    static byte[] uleb(BigInteger v) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        do {
            int group = v.and(BigInteger.valueOf(0x7f)).intValue();
            v = v.shiftRight(7);
            out.write(v.signum() != 0 ? group | 0x80 : group);
        } while (v.signum() != 0);
        return out.toByteArray();
    }

    /** Signed LEB128, shortest form: stops once the rest is all copies of the last group's sign bit. */
    static byte[] sleb(BigInteger v) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            int group = v.and(BigInteger.valueOf(0x7f)).intValue();
            v = v.shiftRight(7);
            boolean done = v.signum() == 0 && (group & 0x40) == 0 || v.equals(BigInteger.ONE.negate()) && (group & 0x40) != 0;
            out.write(done ? group : group | 0x80);
            if (done) {
                return out.toByteArray();
            }
        }
    }

    static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return out;
    }

    static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);
    static final BigInteger TWO_63 = BigInteger.ONE.shiftLeft(63);

    /** One event as written: its timestamp, the encodings of u and s, and their values when they fit. */
    record Ev(long ts, byte[] u, byte[] s, String text) {
        int size() {
            return 4 + u.length + s.length;
        }
    }

    static Ev ev(long ts, byte[] u, byte[] s, BigInteger uValue, BigInteger sValue) {
        return new Ev(ts, u, s, "ev: { u = " + uValue + ", s = " + sValue + " }");
    }

    static Ev ev(long ts, BigInteger u, BigInteger s) {
        return ev(ts, uleb(u), sleb(s), u, s);
    }

    record Written(List<Ev> events, List<Long> eventOffsets, List<Long> packetOffsets) {}

    /** Writes the packets; each packet: magic, packet_size and content_size in bits, then its events. */
    static Written write(Path dir, List<List<Ev>> packets) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("metadata"), metadata());
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        List<Ev> all = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        List<Long> packetOffsets = new ArrayList<>();
        for (List<Ev> p : packets) {
            int content = 12;
            for (Ev e : p) {
                content += e.size();
            }
            int size = (content + 7) / 8 * 8;
            ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(0xC1FC1FC1).putInt(size * 8).putInt(content * 8);
            packetOffsets.add((long) file.size());
            for (Ev e : p) {
                offsets.add((long) file.size() + b.position());
                all.add(e);
                b.putInt((int) e.ts()).put(e.u()).put(e.s());
            }
            file.writeBytes(b.array());
        }
        Files.write(dir.resolve("stream"), file.toByteArray());
        return new Written(all, offsets, packetOffsets);
    }

    /** Events that fill the first packet beyond the point where the event class is compiled. */
    static List<Ev> fillers(long fromTs, int n) {
        List<Ev> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(ev(fromTs + i, BigInteger.valueOf(1000L * i), BigInteger.valueOf(-7L * i)));
        }
        return out;
    }

    record Decoded(List<String> lines, List<CtfProblem> problems) {}

    static Decoded decode(Path dir, int codegenAfter) throws Exception {
        List<String> lines = new ArrayList<>();
        EventText text = new EventText();
        try (CtfTrace t = CtfTrace.open(dir); CtfTrace.Cursor c = t.cursor()) {
            t.codegenAfter(codegenAfter);
            while (c.next()) {
                lines.add(c.event().timestampNs() + " " + text.format(c.event()));
            }
            if (codegenAfter > 0) {
                assertNotNull(t.compiledTraces().get(0).streams.values().iterator().next().byId.get(0L).body,
                        "the event class was compiled");
            }
            return new Decoded(lines, t.problems());
        }
    }

    /** Interpreted only, and compiled after the default number of events: both must give {@code check}'s result. */
    static Decoded decodeBothWays(Path dir) throws Exception {
        Decoded interpreted = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> decode(dir, 0));
        Decoded compiled = assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> decode(dir, CompiledTrace.DEFAULT_CODEGEN_AFTER));
        assertEquals(interpreted.lines(), compiled.lines());
        assertEquals(interpreted.problems().toString(), compiled.problems().toString());
        return interpreted;
    }

    /** The values at the edges of 64 bits, the ones before them, and padded (longer than needed) encodings. */
    static List<Ev> fitting(long ts) {
        BigInteger max64 = TWO_64.subtract(BigInteger.ONE);
        BigInteger maxLong = TWO_63.subtract(BigInteger.ONE);
        BigInteger minLong = TWO_63.negate();
        List<Ev> out = new ArrayList<>();
        out.add(ev(ts++, BigInteger.ZERO, BigInteger.ZERO));
        out.add(ev(ts++, BigInteger.valueOf(127), BigInteger.valueOf(-64)));
        out.add(ev(ts++, BigInteger.valueOf(128), BigInteger.valueOf(64)));
        out.add(ev(ts++, maxLong, maxLong));      // 9 bytes unsigned; 10 bytes signed (last byte 0)
        out.add(ev(ts++, TWO_63, minLong));        // top bit set: 10 bytes each (last byte 1 and 0x7f)
        out.add(ev(ts++, max64, BigInteger.ONE.negate()));
        out.add(ev(ts++, TWO_63.add(BigInteger.valueOf(12345)), minLong.add(BigInteger.valueOf(12345))));
        out.add(ev(ts++, BigInteger.ONE.shiftLeft(62), BigInteger.ONE.shiftLeft(62).negate()));
        // padded: 5 in 12 bytes, -1 in 11 bytes, 2^64 - 1 in 11 bytes, 2^62 in 12 bytes
        out.add(ev(ts++, bytes(0x85, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00),
                bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f), BigInteger.valueOf(5),
                BigInteger.ONE.negate()));
        out.add(ev(ts++, bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x81, 0x00),
                bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0xc0, 0x80, 0x80, 0x00), max64,
                BigInteger.ONE.shiftLeft(62)));
        return out;
    }

    @Test
    void encoderAgreesWithTheSpecificationExamples() {
        // the two LEB128 examples every description of it gives, and the edges used below
        assertEquals(List.of((byte) 0xE5, (byte) 0x8E, (byte) 0x26), toList(uleb(BigInteger.valueOf(624485))));
        assertEquals(List.of((byte) 0xC0, (byte) 0xBB, (byte) 0x78), toList(sleb(BigInteger.valueOf(-123456))));
        assertEquals(10, uleb(TWO_64.subtract(BigInteger.ONE)).length);
        assertEquals(1, uleb(TWO_64.subtract(BigInteger.ONE))[9]);
        assertEquals(0x7f, sleb(TWO_63.negate())[9]);
        assertEquals(10, uleb(TWO_64).length);
        assertEquals(2, uleb(TWO_64)[9], "2^64 needs a 65th bit: 2 in the 10th group");
    }

    static List<Byte> toList(byte[] b) {
        List<Byte> out = new ArrayList<>();
        for (byte x : b) {
            out.add(x);
        }
        return out;
    }

    @Test
    void valuesThatFitAreExactInterpretedAndCompiled(@TempDir Path tmp) throws Exception {
        List<Ev> p0 = new ArrayList<>(fillers(1000, CompiledTrace.DEFAULT_CODEGEN_AFTER + 6));
        List<Ev> edges = fitting(5000);
        List<Ev> p1 = new ArrayList<>(edges);
        // the same values once more at the start of the stream, before anything is compiled
        List<Ev> early = fitting(100);
        Written w = write(tmp, List.of(early, p0, p1));
        Decoded d = decodeBothWays(tmp);
        assertTrue(d.problems().isEmpty(), d.problems().toString());
        List<String> expected = new ArrayList<>();
        for (Ev e : w.events()) {
            expected.add(e.ts() + " " + e.text());
        }
        assertEquals(expected, d.lines());
    }

    @Test
    void valuesWiderThan64BitsAreDamageWhereTheyAre(@TempDir Path tmp) throws Exception {
        List<List<Ev>> packets = new ArrayList<>();
        List<Ev> p0 = new ArrayList<>(fillers(1000, CompiledTrace.DEFAULT_CODEGEN_AFTER + 6));
        List<Ev> bad = List.of(
                ev(2000, uleb(TWO_64), sleb(BigInteger.ONE), TWO_64, BigInteger.ONE),
                ev(3000, uleb(BigInteger.ONE), sleb(TWO_63), BigInteger.ONE, TWO_63),
                ev(4000, uleb(TWO_64.shiftLeft(6).subtract(BigInteger.ONE)), sleb(BigInteger.ZERO), null, null),
                ev(5000, uleb(BigInteger.TWO), sleb(TWO_63.negate().subtract(BigInteger.ONE)), null, null),
                // padding that hides a set bit beyond 64: 11 bytes, the 11th group not zero
                ev(6000, bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01), sleb(BigInteger.ONE),
                        null, null));
        String[] field = {"u", "s", "u", "s", "u"};
        String[] kind = {"unsigned", "signed", "unsigned", "signed", "unsigned"};
        p0.add(bad.get(0));
        p0.add(ev(2001, BigInteger.ONE, BigInteger.ONE)); // lost with the rest of its packet
        packets.add(p0);
        for (int k = 1; k < bad.size(); k++) {
            List<Ev> p = new ArrayList<>(fillers(bad.get(k).ts() - 10, k));
            p.add(bad.get(k));
            p.add(ev(bad.get(k).ts() + 1, BigInteger.ONE, BigInteger.ONE));
            packets.add(p);
        }
        packets.add(fillers(9000, 3));
        Written w = write(tmp, packets);
        Decoded d = decodeBothWays(tmp);

        List<String> kept = new ArrayList<>();
        List<Integer> badIndex = new ArrayList<>();
        int i = 0;
        for (int p = 0; p < packets.size(); p++) {
            boolean lost = false;
            for (Ev e : packets.get(p)) {
                if (bad.contains(e)) {
                    badIndex.add(i);
                    lost = true;
                }
                if (!lost) {
                    kept.add(e.ts() + " " + e.text());
                }
                i++;
            }
        }
        assertEquals(kept, d.lines(), "every event before a bad one, and every other packet, is kept");
        assertEquals(bad.size(), d.problems().size(), d.problems().toString());
        for (int k = 0; k < bad.size(); k++) {
            CtfProblem p = d.problems().get(k);
            long event = w.eventOffsets().get(badIndex.get(k));
            Ev e = bad.get(k);
            long fieldAt = event + 4 + (field[k].equals("s") ? e.u().length : 0);
            int length = field[k].equals("s") ? e.s().length : e.u().length;
            assertEquals(tmp.resolve("stream"), p.file());
            assertEquals((long) w.packetOffsets().get(k), p.packetOffset());
            assertEquals(event, p.eventOffset());
            assertEquals(kind[k] + " variable-length integer '" + field[k] + "' of " + length + " bytes at byte "
                    + fieldAt + " does not fit in 64 bits", p.reason());
        }
    }

    /** babeltrace2 2.1 and later: it rejects the oversized values too, and reads the fitting shortest forms. */
    @Test
    void babeltraceRejectsTheSameValues(@TempDir Path tmp) throws Exception {
        int[] v = Babeltrace.version();
        Assumptions.assumeTrue(v != null, "babeltrace2 is not installed (Debian package babeltrace2)");
        Assumptions.assumeTrue(v[0] > 2 || v[0] == 2 && v[1] >= 1,
                "babeltrace2 " + v[0] + "." + v[1] + " cannot read CTF 2 (2.1 is the first that does)");
        // shortest forms only: babeltrace2 2.1 also refuses a padded 10th byte that carries no value
        List<Ev> good = fitting(100).subList(0, 8);
        write(tmp.resolve("good"), List.of(good));
        Babeltrace.Run ok = Babeltrace.run(tmp.resolve("good"), "h");
        assertEquals(0, ok.exit(), ok.errors());
        assertEquals(good.size(), ok.lines().size());
        for (int k = 0; k < good.size(); k++) {
            String text = good.get(k).text();
            String u = text.substring(text.indexOf("u = "), text.indexOf(','));
            String s = text.substring(text.indexOf("s = "), text.indexOf(" }"));
            assertTrue(ok.lines().get(k).text().contains(u) && ok.lines().get(k).text().contains(s),
                    ok.lines().get(k) + " vs " + text);
        }
        write(tmp.resolve("bad"), List.of(List.of(ev(1, uleb(TWO_64), sleb(BigInteger.ONE), TWO_64, BigInteger.ONE))));
        Babeltrace.Run fails = Babeltrace.run(tmp.resolve("bad"), "h");
        assertNotEquals(0, fails.exit(), "babeltrace2 rejects a value of 65 bits");
        assertTrue(fails.lines().isEmpty());
    }
}
