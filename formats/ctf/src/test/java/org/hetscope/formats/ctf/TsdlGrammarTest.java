package org.hetscope.formats.ctf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hetscope.formats.ctf.meta.TraceClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TSDL constructs the fixtures do not all cover (typedef, named enum/struct/variant, quoted enumerators, ranges,
 * a variant tagged by a sibling enum, sequences of structures, two-dimensional arrays, bit fields in big-endian
 * bit order, a little-endian integer in a big-endian trace, a 32-bit float, a 16-bit clock that wraps, clock
 * offsets in seconds and cycles at 1 kHz, env and callsite blocks, packetized metadata), checked against a
 * stream laid out by hand below; each expected value is worked out from the CTF 1.8 specification.
 */
class TsdlGrammarTest {
    static final String METADATA = """
            /* CTF 1.8 */
            typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
            typealias integer { size = 32; align = 32; signed = false; } := uint32_t;
            typealias integer { size = 32; align = 8; signed = true; } := unsigned long;
            typedef uint32_t count_t;
            trace {
                major = 1; minor = 8; byte_order = be;
                packet.header := struct { uint32_t magic; uint32_t stream_id; };
            };
            env { hostname = "h"; answer = 42; negative = -3; };
            clock { name = c; freq = 1000; offset_s = 10; offset = 500; };
            typealias integer { size = 16; align = 8; signed = false; map = clock.c.value; } := ts16_t;
            enum kind : uint8_t { A, B, C = 5 ... 7, "quoted label" = 9 };
            struct pair { uint8_t x; integer { size = 16; align = 8; signed = true; byte_order = le; } y; };
            variant var { uint8_t A; struct pair B; string C; };
            stream {
                packet.context := struct { uint32_t content_size; uint32_t packet_size; };
                event.header := struct { uint8_t id; ts16_t timestamp; };
            };
            callsite { name = "e0"; func = "f"; ip = 0x1234; file = "a.c"; line = 3; };
            event {
                name = "e0"; id = 0;
                fields := struct {
                    enum kind k;
                    variant var <k> v;
                    count_t n;
                    struct pair pairs[n];
                    uint8_t grid[2][3];
                    integer { size = 3; align = 1; signed = true; } small;
                    integer { size = 5; align = 1; signed = false; base = 2; } bits;
                    floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f;
                };
            };
            """;

    /** The stream, byte by byte (offsets in the comments). */
    static byte[] stream() {
        ByteBuffer b = ByteBuffer.allocate(72).order(ByteOrder.BIG_ENDIAN);
        b.putInt(0, 0xC1FC1FC1).putInt(4, 0);              // header: magic, stream_id
        b.putInt(8, 72 * 8).putInt(12, 72 * 8);            // context: content_size, packet_size (bits)
        // event 1 at 16: id 0, timestamp 256; payload aligned to 32 bits (its float) -> 20
        b.put(16, (byte) 0).putShort(17, (short) 256);
        b.put(20, (byte) 1);                               // k = B
        b.put(21, (byte) 7).put(22, (byte) 0xFE).put(23, (byte) 0xFF); // v = B { x = 7, y = -2 (little endian) }
        b.putInt(24, 2);                                   // n = 2
        b.put(28, (byte) 1).put(29, (byte) 0x02).put(30, (byte) 0x01); // pairs[0] = { 1, 0x0102 }
        b.put(31, (byte) 3).put(32, (byte) 0xFF).put(33, (byte) 0xFF); // pairs[1] = { 3, -1 }
        for (int i = 0; i < 6; i++) {
            b.put(34 + i, (byte) (i + 1));                 // grid = 1..6
        }
        b.put(40, (byte) 0b101_10011);                     // small = -3 (3 MSBs), bits = 0b10011
        b.putFloat(44, 1.5f);                              // f, aligned to 32 bits
        // event 2 at 48: timestamp 80 < 256, so the 16-bit clock wrapped: 65536 + 80
        b.put(48, (byte) 0).putShort(49, (short) 80);
        b.put(52, (byte) 5);                               // k = C (5 in 5...7)
        b.put(53, (byte) 'h').put(54, (byte) 'i').put(55, (byte) 0); // v = C "hi"
        b.putInt(56, 0);                                   // n = 0: empty sequence
        b.put(66, (byte) 0b011_00000);                     // small = 3, bits = 0; grid at 60..65 stays 0
        b.putFloat(68, -0.25f);
        return b.array();
    }

    static List<String> decode(Path dir) throws Exception {
        return decode(dir, CompiledTrace.DEFAULT_CODEGEN_AFTER);
    }

    static List<String> decode(Path dir, int codegenAfter) throws Exception {
        List<String> out = new ArrayList<>();
        EventText text = new EventText();
        try (CtfTrace t = CtfTrace.open(dir); CtfTrace.Cursor c = t.cursor()) {
            t.codegenAfter(codegenAfter);
            while (c.next()) {
                out.add(c.event().timestampNs() + " " + text.format(c.event()));
            }
            assertTrue(t.problems().isEmpty(), t.problems().toString());
        }
        return out;
    }

    static final List<String> EXPECTED = List.of(
            // 10 s + 500 cycles at 1 kHz = 10.5 s; + 256 cycles = 0.256 s
            "10756000000 e0: { k = ( \"B\" : container = 1 ), v = { B = { x = 7, y = -2 } }, n = 2, "
                    + "pairs = [ [0] = { x = 1, y = 258 }, [1] = { x = 3, y = -1 } ], "
                    + "grid = [ [0] = [ [0] = 1, [1] = 2, [2] = 3 ], [1] = [ [0] = 4, [1] = 5, [2] = 6 ] ], "
                    + "small = -3, bits = 0b10011, f = 1.5 }",
            // 10.5 s + 65616 cycles = 65.616 s
            "76116000000 e0: { k = ( \"C\" : container = 5 ), v = { C = \"hi\" }, n = 0, pairs = [ ], "
                    + "grid = [ [0] = [ [0] = 0, [1] = 0, [2] = 0 ], [1] = [ [0] = 0, [1] = 0, [2] = 0 ] ], "
                    + "small = 3, bits = 0b00000, f = -0.25 }");

    @Test
    void plainTextMetadata(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("metadata"), METADATA);
        Files.write(tmp.resolve("stream"), stream());
        assertEquals(EXPECTED, decode(tmp));
        TraceClass tc = MetadataReader.read(tmp.resolve("metadata"));
        assertEquals("42", tc.env.get("answer"));
        assertEquals("-3", tc.env.get("negative"));
        assertEquals(List.of("A", "B", "C", "quoted label"), ((org.hetscope.formats.ctf.meta.FieldType.EnumType)
                ((org.hetscope.formats.ctf.meta.FieldType.StructType) tc.streams.get(0L).events.get(0L).payload())
                        .member("k").type()).mappings().stream().map(m -> m.label()).toList());
        try (CtfTrace t = CtfTrace.open(tmp); CtfTrace.Cursor c = t.cursor()) {
            c.next();
            assertEquals(1.5, c.event().getDouble("f"));
            assertEquals(2, c.event().getLong("n"));
            assertEquals(-3, c.event().getLong("small"));
            assertEquals(10_756_000_000L, c.event().timestampNs());
            assertEquals(256, c.event().cycles());
        }
    }

    /**
     * The same events through bytecode compiled after the first event (ScopeCompiler): a variant whose options
     * end at different offsets, bit fields after it, a float aligned past them, both byte orders.
     */
    @Test
    void generatedDecoderReadsTheSameEvents(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("metadata"), METADATA);
        Files.write(tmp.resolve("stream"), stream());
        assertEquals(EXPECTED, decode(tmp, 1));
        assertTrue(ScopeCompilerTest.lockstep(tmp).compiledClasses() == 1, "the event class was compiled");
    }

    @Test
    void packetizedBigEndianMetadata(@TempDir Path tmp) throws Exception {
        byte[] text = METADATA.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int half = text.length / 2; // split inside a token on purpose: packets are a byte stream
        for (int[] part : new int[][] {{0, half}, {half, text.length}}) {
            int len = part[1] - part[0];
            int content = 37 + len;
            int packet = content + 11; // padding after the content
            ByteBuffer h = ByteBuffer.allocate(packet).order(ByteOrder.BIG_ENDIAN);
            h.putInt(0x75D11D57).put(new byte[16]).putInt(0).putInt(content * 8).putInt(packet * 8);
            h.put((byte) 0).put((byte) 0).put((byte) 0).put((byte) 1).put((byte) 8);
            h.put(text, part[0], len);
            out.writeBytes(h.array());
        }
        Files.write(tmp.resolve("metadata"), out.toByteArray());
        Files.write(tmp.resolve("stream"), stream());
        assertEquals(EXPECTED, decode(tmp));
    }
}
