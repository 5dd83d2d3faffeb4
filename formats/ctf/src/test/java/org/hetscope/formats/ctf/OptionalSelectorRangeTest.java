package org.hetscope.formats.ctf;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CTF 2 optional is present when its selector's value lies in one of its selector ranges. With an unsigned
 * selector the values and the bounds are unsigned 64-bit numbers: a range running past 2^63 - 1 (its upper bound
 * negative as a Java {@code long}) must still hold the values on both sides of 2^63, while a signed selector keeps
 * its signed order. Checked for a fixed-length unsigned selector, a fixed-length signed one and a variable-length
 * unsigned one, in the interpreter and in generated code (more events than {@link CompiledTrace#DEFAULT_CODEGEN_AFTER}
 * of the one class). The stream is laid out byte by byte below and presence is worked out with {@link BigInteger}
 * from the values written; babeltrace2 2.0 cannot read CTF 2, so the written bytes are the reference.
 */
class OptionalSelectorRangeTest {
    static final BigInteger TWO_63 = BigInteger.ONE.shiftLeft(63);
    static final BigInteger MAX_U64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    static String fixed(String sign, int bits) {
        return "{\"type\":\"fixed-length-" + sign + "-integer\",\"length\":" + bits
                + ",\"byte-order\":\"little-endian\",\"alignment\":8}";
    }

    static String optional(String selector, String ranges, String inner) {
        return "{\"type\":\"optional\",\"selector-field-location\":{\"origin\":\"event-record-payload\",\"path\":[\""
                + selector + "\"]},\"selector-field-ranges\":" + ranges + ",\"field-class\":" + inner + "}";
    }

    static String member(String name, String fieldClass) {
        return "{\"name\":\"" + name + "\",\"field-class\":" + fieldClass + "}";
    }

    static String metadata() {
        String u32 = WideVarIntTest.U32; // without its closing brace: the roles follow
        List<String> f = List.of(
                "{\"type\":\"preamble\",\"version\":2}",
                "{\"type\":\"trace-class\",\"environment\":{\"hostname\":\"h\"},"
                        + "\"packet-header-field-class\":{\"type\":\"structure\",\"member-classes\":["
                        + "{\"name\":\"magic\",\"field-class\":" + u32
                        + ",\"roles\":[\"packet-magic-number\"]}}]}}",
                "{\"type\":\"clock-class\",\"name\":\"clk\",\"frequency\":1000000000}",
                "{\"type\":\"data-stream-class\",\"default-clock-class-name\":\"clk\",\"packet-context-field-class\":"
                        + "{\"type\":\"structure\",\"member-classes\":["
                        + "{\"name\":\"packet_size\",\"field-class\":" + u32
                        + ",\"roles\":[\"packet-total-length\"]}},"
                        + "{\"name\":\"content_size\",\"field-class\":" + u32
                        + ",\"roles\":[\"packet-content-length\"]}}]},"
                        + "\"event-record-header-field-class\":{\"type\":\"structure\",\"member-classes\":["
                        + "{\"name\":\"ts\",\"field-class\":" + u32
                        + ",\"roles\":[\"default-clock-timestamp\"]}}]}}",
                "{\"type\":\"event-record-class\",\"id\":0,\"name\":\"ev\","
                        + "\"payload-field-class\":{\"type\":\"structure\","
                        + "\"member-classes\":["
                        + member("u", fixed("unsigned", 64)) + ","
                        // 10 .. 2^64 - 1: the upper bound is -1 as a long
                        + member("ou", optional("u", "[[10,18446744073709551615]]", fixed("unsigned", 32))) + ","
                        + member("s", fixed("signed", 64)) + ","
                        + member("os", optional("s", "[[-100,-1]]", fixed("unsigned", 8))) + ","
                        + member("v", "{\"type\":\"variable-length-unsigned-integer\"}") + ","
                        // 0, and 2^63 .. 2^64 - 1: both bounds of the second range are negative as longs
                        + member("ov", optional("v", "[[0,0],[9223372036854775808,18446744073709551615]]",
                                fixed("unsigned", 16))) + ","
                        + member("after", fixed("unsigned", 8))
                        + "]}}");
        StringBuilder b = new StringBuilder();
        for (String s : f) {
            b.append('\u001e').append(s).append('\n');
        }
        return b.toString();
    }

    static boolean in(BigInteger v, long lo, long hi) {
        return v.compareTo(BigInteger.valueOf(lo)) >= 0 && v.compareTo(BigInteger.valueOf(hi)) <= 0;
    }

    static boolean in(BigInteger v, BigInteger lo, BigInteger hi) {
        return v.compareTo(lo) >= 0 && v.compareTo(hi) <= 0;
    }

    /** The selectors' values, cycled through: each side of every bound, and of 2^63 for the unsigned ones. */
    static final BigInteger[] U = {BigInteger.valueOf(5), BigInteger.valueOf(9), BigInteger.TEN,
            TWO_63.subtract(BigInteger.ONE), TWO_63, TWO_63.add(BigInteger.valueOf(77)), MAX_U64};
    static final BigInteger[] S = {BigInteger.valueOf(-101), BigInteger.valueOf(-100), BigInteger.valueOf(-1),
            BigInteger.ZERO, TWO_63.negate(), TWO_63.subtract(BigInteger.ONE)};
    static final BigInteger[] V = {BigInteger.ZERO, BigInteger.ONE, TWO_63.subtract(BigInteger.ONE), TWO_63,
            MAX_U64};

    record Written(List<String> lines, int present) {}

    /** One packet of {@code n} events; returns each event's expected text, worked out from the values written. */
    static Written write(Path dir, int n) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("metadata"), metadata());
        ByteArrayOutputStream events = new ByteArrayOutputStream();
        List<String> lines = new ArrayList<>();
        int present = 0;
        for (int i = 0; i < n; i++) {
            BigInteger u = U[i % U.length];
            BigInteger s = S[i % S.length];
            BigInteger v = V[i % V.length];
            long ts = 1_000 + 10L * i;
            boolean hasOu = in(u, BigInteger.TEN, MAX_U64);
            boolean hasOs = in(s, -100, -1);
            boolean hasOv = v.signum() == 0 || in(v, TWO_63, MAX_U64);
            byte[] vBytes = WideVarIntTest.uleb(v);
            ByteBuffer b = ByteBuffer.allocate(4 + 8 + 4 + 8 + 1 + vBytes.length + 2 + 1)
                    .order(ByteOrder.LITTLE_ENDIAN);
            b.putInt((int) ts).putLong(u.longValue());
            if (hasOu) {
                b.putInt(100_000 + i);
            }
            b.putLong(s.longValue());
            if (hasOs) {
                b.put((byte) (i % 256));
            }
            b.put(vBytes);
            if (hasOv) {
                b.putShort((short) (30_000 + i));
            }
            b.put((byte) (i % 7));
            events.write(b.array(), 0, b.position());
            present += (hasOu ? 1 : 0) + (hasOs ? 1 : 0) + (hasOv ? 1 : 0);
            lines.add(ts + " ev: { u = " + u + ", ou = " + (hasOu ? Integer.toString(100_000 + i) : "<none>")
                    + ", s = " + s + ", os = " + (hasOs ? Integer.toString(i % 256) : "<none>")
                    + ", v = " + v + ", ov = " + (hasOv ? Integer.toString(30_000 + i) : "<none>")
                    + ", after = " + i % 7 + " }");
        }
        // packet: magic, packet_size and content_size in bits, the events, padding to 8 bytes
        int content = 12 + events.size();
        int size = (content + 7) / 8 * 8;
        ByteBuffer p = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        p.putInt(0xC1FC1FC1).putInt(size * 8).putInt(content * 8).put(events.toByteArray());
        Files.write(dir.resolve("stream"), p.array());
        return new Written(lines, present);
    }

    @Test
    void unsignedSelectorRangesPast2To63SelectInterpretedAndCompiled(@TempDir Path tmp) throws Exception {
        int n = CompiledTrace.DEFAULT_CODEGEN_AFTER + 3 * U.length * S.length * V.length / 10;
        Written w = write(tmp, n);
        assertTrue(w.present() > n, "the values written make many optionals present: " + w.present());
        for (int codegen : new int[] {0, CompiledTrace.DEFAULT_CODEGEN_AFTER}) {
            WideVarIntTest.Decoded d = assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> WideVarIntTest.decode(tmp, codegen));
            assertTrue(d.problems().isEmpty(), "codegen after " + codegen + ": " + d.problems());
            assertEquals(w.lines(), d.lines(), "codegen after " + codegen);
        }
        // and generated code from the first event on, slot by slot against the interpreter
        assertEquals(n, ScopeCompilerTest.lockstep(tmp).events());
    }
}
