package org.hetscope.formats.ctf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.hetscope.formats.ctf.mapping.CtfTraceFormat;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Metadata nesting field classes thousands of levels deep (damaged or hostile) is refused with the file and the line
 * (or CTF 2 fragment), never a StackOverflowError; and a trace folder whose metadata is missing says so.
 */
class HostileMetadataTest {
    private static final String HEAD = "/* CTF 1.8 */\n"
            + "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
            + "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
            + "trace {\n  major = 1;\n  minor = 8;\n  byte_order = le;\n"
            + "  packet.header := struct { uint32_t magic; };\n};\n";

    private static TraceFormatException refused(Path dir, String metadata) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("metadata"), metadata);
        return assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> assertThrows(TraceFormatException.class, () -> CtfTrace.open(dir)));
    }

    /** Nested structs in an event's payload, {@code depth} levels deep. */
    private static String nestedStructs(int depth) {
        StringBuilder b = new StringBuilder(HEAD).append("event {\n  name = \"deep\";\n  fields := ");
        for (int i = 0; i < depth; i++) {
            b.append("struct {\n");
        }
        b.append("uint8_t x;\n");
        for (int i = 0; i < depth; i++) {
            b.append("} f").append(i).append(";\n");
        }
        b.setLength(b.length() - (" f" + (depth - 1) + ";\n").length());
        b.append(";\n};\n");
        return b.toString();
    }

    @Test
    void fiveThousandNestedStructsAreRefusedWithTheLine(@TempDir Path tmp) throws Exception {
        TraceFormatException e = refused(tmp.resolve("t"), nestedStructs(5000));
        String m = e.getMessage();
        assertTrue(m.contains("metadata") && m.contains("nested more than 100 levels"), m);
        // the 101st struct opens on the 101st line of the payload (the first is on the "fields :=" line)
        int line = HEAD.split("\n").length + 3 + 100;
        assertTrue(m.contains("line " + line), m);
        assertFalse(m.contains("StackOverflow"), m);
    }

    @Test
    void nestingWithinTheBoundIsRead(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("t");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("metadata"), nestedStructs(90));
        try (CtfTrace t = CtfTrace.open(dir)) {
            assertEquals(1, t.metadata().get(0).streams.values().iterator().next().events.size());
        }
    }

    @Test
    void namedStructsUsedInsideOneAnotherAreBoundedToo(@TempDir Path tmp) throws Exception {
        StringBuilder b = new StringBuilder(HEAD).append("struct s0 { uint8_t x; };\n");
        for (int i = 1; i < 5000; i++) {
            b.append("struct s").append(i).append(" { struct s").append(i - 1).append(" inner; };\n");
        }
        b.append("event {\n  name = \"deep\";\n  fields := struct { struct s4999 v; };\n};\n");
        String m = refused(tmp.resolve("t"), b.toString()).getMessage();
        assertTrue(m.contains("nested more than 100 levels"), m);
        // s99 is the first of height 101 (100 structures around the integer of s0)
        assertTrue(m.contains("line " + (HEAD.split("\n").length + 100)), m);
    }

    @Test
    void thousandsOfArrayDimensionsAreBounded(@TempDir Path tmp) throws Exception {
        String dims = "[1]".repeat(5000);
        String m = refused(tmp.resolve("t"), HEAD + "event {\n  name = \"deep\";\n  fields := struct { uint8_t a"
                + dims + "; };\n};\n").getMessage();
        assertTrue(m.contains("nested more than 100 levels"), m);
    }

    @Test
    void deepCtf2FieldClassesAndAliasCyclesAreRefused(@TempDir Path tmp) throws Exception {
        String pre = "\u001e{\"type\":\"preamble\",\"version\":2}\n"
                + "\u001e{\"type\":\"trace-class\"}\n\u001e{\"type\":\"data-stream-class\"}\n";
        // 200 structures inside one another: within the JSON parser's own limit of nesting, beyond ours
        StringBuilder deep = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            deep.append("{\"type\":\"structure\",\"member-classes\":[{\"name\":\"m\",\"field-class\":");
        }
        deep.append("{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,\"alignment\":8}");
        deep.append("}]}".repeat(200));
        String m = refused(tmp.resolve("a"), pre + "\u001e{\"type\":\"event-record-class\",\"payload-field-class\":"
                + deep + "}\n").getMessage();
        assertTrue(m.contains("fragment 4") && m.contains("nested more than 100 levels"), m);

        // 2000 levels: the JSON parser refuses first; its settings' names stay out of the message
        String deeper = "{\"type\":\"structure\",\"member-classes\":[{\"name\":\"m\",\"field-class\":".repeat(2000);
        m = refused(tmp.resolve("b"), pre + "\u001e{\"type\":\"event-record-class\",\"payload-field-class\":"
                + deeper).getMessage();
        assertTrue(m.contains("fragment 4") && m.contains("beyond the parser's limits"), m);
        assertFalse(m.contains("StreamReadConstraints"), m);

        String cycle = "\u001e{\"type\":\"field-alias\",\"name\":\"a\",\"field-class\":\"b\"}\n"
                + "\u001e{\"type\":\"field-alias\",\"name\":\"b\",\"field-class\":\"a\"}\n";
        m = refused(tmp.resolve("c"), pre + cycle + "\u001e{\"type\":\"event-record-class\",\"payload-field-class\":"
                + "\"a\"}\n").getMessage();
        assertTrue(m.contains("fragment 6") && m.contains("aliases naming each other"), m);
    }

    @Test
    void aTraceFolderWithoutItsMetadataSaysSo(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("session");
        Files.createDirectories(dir);
        try (Stream<Path> s = Files.list(Fixtures.ctf("bug446190"))) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                if (!p.getFileName().toString().equals("metadata")) {
                    Files.copy(p, dir.resolve(p.getFileName()));
                }
            }
        }
        CtfTraceFormat format = new CtfTraceFormat();
        assertTrue(format.accepts(dir), "recognised by its stream files, so that the reader can name what is missing");
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> format.read(dir, new CollectingSink(), Progress.NONE));
        assertTrue(e.getMessage().contains("metadata missing") && e.getMessage().contains(dir.toString()),
                e.getMessage());
        assertTrue(format.accepts(dir.resolve("channel0_0")), "a single stream file too");
        e = assertThrows(TraceFormatException.class,
                () -> format.read(dir.resolve("channel0_0"), new CollectingSink(), Progress.NONE));
        assertTrue(e.getMessage().contains("metadata missing") && e.getMessage().contains(dir.toString()),
                e.getMessage());

        Path other = tmp.resolve("other");
        Files.createDirectories(other);
        Files.writeString(other.resolve("notes.txt"), "not a trace");
        assertFalse(format.accepts(other), "a folder without CTF stream files is not taken");
    }
}
