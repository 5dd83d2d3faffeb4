package org.hetscope.formats.ctf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CTF 2 field classes (field alias, roles, variable-length signed integers, dynamic-length array, optional,
 * variant with selector ranges and a relative selector location, static- and dynamic-length strings, blob,
 * big-endian integer, double, clock offset from origin) against a stream laid out by hand; expected values are
 * worked out from the CTF 2 specification (babeltrace2 2.0 cannot read CTF 2 to compare).
 */
class Ctf2GrammarTest {
    static final String U8 = "{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,\"byte-order\":\"little-endian\","
            + "\"alignment\":8";

    static String metadata() {
        List<String> f = List.of(
                "{\"type\":\"preamble\",\"version\":2}",
                "{\"type\":\"field-alias\",\"name\":\"u8\",\"field-class\":" + U8 + "}}",
                "{\"type\":\"trace-class\",\"environment\":{\"k\":\"v\"},\"packet-header-field-class\":{\"type\":"
                        + "\"structure\",\"member-classes\":[{\"name\":\"magic\",\"field-class\":{\"type\":"
                        + "\"fixed-length-unsigned-integer\",\"length\":32,\"byte-order\":\"little-endian\","
                        + "\"alignment\":8,\"roles\":[\"packet-magic-number\"]}}]}}",
                "{\"type\":\"clock-class\",\"name\":\"clk\",\"frequency\":1000000000,"
                        + "\"offset-from-origin\":{\"seconds\":100,\"cycles\":5}}",
                "{\"type\":\"data-stream-class\",\"default-clock-class-name\":\"clk\",\"packet-context-field-class\":"
                        + "{\"type\":\"structure\",\"member-classes\":["
                        + "{\"name\":\"packet_size\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\","
                        + "\"length\":16,\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"packet-total-length\"]}},"
                        + "{\"name\":\"content_size\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\","
                        + "\"length\":16,\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"packet-content-length\"]}}]},"
                        + "\"event-record-header-field-class\":{\"type\":\"structure\",\"member-classes\":["
                        + "{\"name\":\"id\",\"field-class\":" + U8 + ",\"roles\":[\"event-record-class-id\"]}},"
                        + "{\"name\":\"ts\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":32,"
                        + "\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"default-clock-timestamp\"]}}]}}",
                "{\"type\":\"event-record-class\",\"id\":3,\"name\":\"ev\",\"payload-field-class\":{\"type\":\"structure\","
                        + "\"member-classes\":["
                        + "{\"name\":\"len\",\"field-class\":\"u8\"},"
                        + "{\"name\":\"items\",\"field-class\":{\"type\":\"dynamic-length-array\",\"length-field-location\":"
                        + "{\"origin\":\"event-record-payload\",\"path\":[\"len\"]},\"element-field-class\":"
                        + "{\"type\":\"variable-length-signed-integer\"}}},"
                        + "{\"name\":\"sel\",\"field-class\":\"u8\"},"
                        + "{\"name\":\"opt\",\"field-class\":{\"type\":\"optional\",\"selector-field-location\":"
                        + "{\"origin\":\"event-record-payload\",\"path\":[\"sel\"]},\"selector-field-ranges\":[[1,1]],"
                        + "\"field-class\":{\"type\":\"null-terminated-string\"}}},"
                        + "{\"name\":\"var\",\"field-class\":{\"type\":\"variant\",\"selector-field-location\":{\"path\":[\"sel\"]},"
                        + "\"options\":[{\"name\":\"small\",\"selector-field-ranges\":[[0,0]],\"field-class\":\"u8\"},"
                        + "{\"name\":\"big\",\"selector-field-ranges\":[[1,255]],\"field-class\":{\"type\":"
                        + "\"fixed-length-signed-integer\",\"length\":16,\"byte-order\":\"big-endian\",\"alignment\":8}}]}},"
                        + "{\"name\":\"fixed\",\"field-class\":{\"type\":\"static-length-string\",\"length\":4}},"
                        + "{\"name\":\"dlen\",\"field-class\":\"u8\"},"
                        + "{\"name\":\"dstr\",\"field-class\":{\"type\":\"dynamic-length-string\",\"length-field-location\":"
                        + "{\"origin\":\"event-record-payload\",\"path\":[\"dlen\"]}}},"
                        + "{\"name\":\"blob\",\"field-class\":{\"type\":\"static-length-blob\",\"length\":2}},"
                        + "{\"name\":\"d\",\"field-class\":{\"type\":\"fixed-length-floating-point-number\",\"length\":64,"
                        + "\"byte-order\":\"little-endian\",\"alignment\":8}}]}}");
        StringBuilder b = new StringBuilder();
        for (String s : f) {
            b.append('\u001e').append(s).append('\n');
        }
        return b.toString();
    }

    static byte[] stream() {
        ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, 0xC1FC1FC1).putShort(4, (short) 512).putShort(6, (short) 512);
        // event 1 at 8: id 3, ts 1000
        b.put(8, (byte) 3).putInt(9, 1000);
        b.put(13, (byte) 2);                                          // len = 2
        b.put(14, (byte) 0x7E);                                       // -2 as signed LEB128
        b.put(15, (byte) 0xAC).put(16, (byte) 0x02);                  // 300
        b.put(17, (byte) 1);                                          // sel = 1: optional present, variant "big"
        b.put(18, (byte) 'o').put(19, (byte) 'k').put(20, (byte) 0);  // opt = "ok"
        b.put(21, (byte) 0xFE).put(22, (byte) 0xD4);                  // big = -300, big endian
        b.put(23, (byte) 'a').put(24, (byte) 'b');                    // fixed = "ab\0\0"
        b.put(27, (byte) 3).put(28, (byte) 'x').put(29, (byte) 'y').put(30, (byte) 'z'); // dlen, dstr
        b.put(31, (byte) 0xCA).put(32, (byte) 0xFE);                  // blob
        b.putDouble(33, 2.5);
        // event 2 at 41: id 3, ts 2000; len 0, sel 0 (no optional, variant "small" = 9)
        b.put(41, (byte) 3).putInt(42, 2000);
        b.put(48, (byte) 9);
        b.put(49, (byte) 'w').put(50, (byte) 'x').put(51, (byte) 'y').put(52, (byte) 'z');
        b.put(55, (byte) 1);                                          // blob 00 01
        b.putDouble(56, -1.0);
        return b.array();
    }

    @Test
    void decodesTheHandLaidStream(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("metadata"), metadata());
        Files.write(tmp.resolve("stream"), stream());
        List<String> out = new ArrayList<>();
        EventText text = new EventText();
        try (CtfTrace t = CtfTrace.open(tmp); CtfTrace.Cursor c = t.cursor()) {
            while (c.next()) {
                out.add(c.event().timestampNs() + " " + text.format(c.event()));
            }
            assertTrue(t.problems().isEmpty(), t.problems().toString());
            assertEquals(2, t.metadata().get(0).ctfVersion);
            assertEquals("v", t.metadata().get(0).env.get("k"));
        }
        assertEquals(List.of(
                "100000001005 ev: { len = 2, items = [ [0] = -2, [1] = 300 ], sel = 1, opt = \"ok\", "
                        + "var = { big = -300 }, fixed = \"ab\", dlen = 3, dstr = \"xyz\", blob = cafe, d = 2.5 }",
                "100000002005 ev: { len = 0, items = [ ], sel = 0, opt = <none>, var = { small = 9 }, "
                        + "fixed = \"wxyz\", dlen = 0, dstr = \"\", blob = 0001, d = -1 }"), out);
    }
}
