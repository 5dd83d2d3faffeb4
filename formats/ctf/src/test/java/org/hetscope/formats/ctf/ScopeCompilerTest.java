package org.hetscope.formats.ctf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.hetscope.formats.ctf.meta.EventClass;
import org.hetscope.formats.ctf.meta.FieldType;
import org.hetscope.formats.ctf.meta.TraceClass;
import org.hetscope.formats.ctf.meta.TsdlParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bytecode that {@link ScopeCompiler} generates decodes exactly as the {@link FieldNode} interpreter does: every
 * fixture (and damaged copies of some) is decoded twice in lockstep, once interpreted only and once with every
 * layout compiled after its first event, and after each event the tape, the scope boundaries, the position, the
 * clock, the registers and the roles must be equal, as must the damage reported.
 */
class ScopeCompilerTest {

    static List<Path> fixtureTraces() throws Exception {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(Fixtures.ctf(""))) {
            for (Path p : s.sorted().toList()) {
                if (Files.isDirectory(p) && CtfTrace.isCtf(p)) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    @Test
    void generatedCodeDecodesEveryFixtureAsTheInterpreter() throws Exception {
        long events = 0;
        int compiledClasses = 0;
        for (Path dir : fixtureTraces()) {
            Result r = lockstep(dir);
            events += r.events;
            compiledClasses += r.compiledClasses;
        }
        assertTrue(fixtureTraces().size() >= 13, "fixtures found: " + fixtureTraces());
        assertTrue(events > 100_000, "events compared: " + events);
        assertTrue(compiledClasses > 50, "event classes decoded by generated code: " + compiledClasses);
    }

    /** Random bytes of the stream files overwritten: both decoders must report the same damage and keep the same. */
    @Test
    void generatedCodeFailsAsTheInterpreterOnDamagedStreams(@TempDir Path tmp) throws Exception {
        Random random = new Random(20261122);
        int problems = 0;
        for (String name : List.of("bug446190", "funky_trace", "flipping-endianness", "CTF2-vl-ints",
                "ctf-sequence-empty", "context-switches")) {
            for (int copy = 0; copy < 4; copy++) {
                Path dst = tmp.resolve(name + "-" + copy);
                copyTree(Fixtures.ctf(name), dst);
                try (Stream<Path> s = Files.walk(dst)) {
                    for (Path f : s.filter(Files::isRegularFile).toList()) {
                        String n = f.getFileName().toString();
                        if (n.equals("metadata") || n.endsWith(".idx") || Files.size(f) < 64) {
                            continue;
                        }
                        byte[] b = Files.readAllBytes(f);
                        for (int k = 0; k < 1 + b.length / 2000; k++) {
                            // past the first packet's header, so that the stream still opens
                            b[64 + random.nextInt(b.length - 64)] = (byte) random.nextInt(256);
                        }
                        Files.write(f, b);
                    }
                }
                problems += lockstep(dst).problems;
            }
        }
        assertTrue(problems > 20, "damage reported in the damaged copies: " + problems);
    }

    record Result(long events, int compiledClasses, int problems) {}

    static Result lockstep(Path dir) throws Exception {
        return lockstep(dir, true);
    }

    /** Decodes {@code dir} both ways in lockstep; with {@code requireCompiled}, every class met must be compiled. */
    static Result lockstep(Path dir, boolean requireCompiled) throws Exception {
        long events = 0;
        int problems = 0;
        java.util.Set<CompiledTrace.Event> compiled = java.util.Collections.newSetFromMap(
                new java.util.IdentityHashMap<>());
        try (CtfTrace interpreted = CtfTrace.open(dir); CtfTrace generated = CtfTrace.open(dir)) {
            interpreted.codegenAfter(0);
            generated.codegenAfter(1);
            for (int i = 0; i < interpreted.streamFiles().size(); i++) {
                List<CtfProblem> pa = new ArrayList<>();
                List<CtfProblem> pb = new ArrayList<>();
                String where = interpreted.streamFiles().get(i).toString();
                try (StreamDecoder a = interpreted.stream(i, pa::add); StreamDecoder b = generated.stream(i, pb::add)) {
                    while (true) {
                        boolean na = a.next();
                        boolean nb = b.next();
                        assertEquals(na, nb, where + ": end of stream after " + events + " events");
                        if (!na) {
                            break;
                        }
                        events++;
                        String at = where + " event at " + a.eventOffset();
                        assertEquals(a.eventOffset(), b.eventOffset(), at);
                        assertEquals(a.event.meta.id(), b.event.meta.id(), at);
                        assertEquals(a.tapeLen, b.tapeLen, at);
                        assertArrayEquals(Arrays.copyOf(a.tape, a.tapeLen), Arrays.copyOf(b.tape, b.tapeLen), at);
                        assertEquals(a.eventContextStart, b.eventContextStart, at);
                        assertEquals(a.specificContextStart, b.specificContextStart, at);
                        assertEquals(a.payloadStart, b.payloadStart, at);
                        assertEquals(a.bitPos, b.bitPos, at);
                        assertEquals(a.clock, b.clock, at);
                        assertEquals(a.timestampNs(), b.timestampNs(), at);
                        assertArrayEquals(a.regs, b.regs, at);
                        assertArrayEquals(a.roleValue, b.roleValue, at);
                        if (b.event.body != null) {
                            compiled.add(b.event);
                        }
                    }
                    assertEquals(a.stats().toString(), b.stats().toString(), where);
                }
                assertEquals(pa.toString(), pb.toString(), where);
                problems += pa.size();
            }
            // every event class met more than once was compiled (none of the fixtures is too large for it)
            for (CompiledTrace t : requireCompiled ? generated.compiledTraces() : List.<CompiledTrace>of()) {
                for (CompiledTrace.Stream s : t.streams.values()) {
                    assertTrue(s.headDecodes == 0 || s.head != null, dir + ": stream head not compiled");
                    for (CompiledTrace.Event e : s.byId.values()) {
                        assertTrue(e.bodyDecodes == 0 || e.body != null, dir + ": " + e.meta.name() + " not compiled");
                    }
                }
            }
        }
        return new Result(events, compiled.size(), problems);
    }

    /** The rocprofv3 CTF schema (../shared/fixtures/rocm): three events of each class, values varying per event. */
    @Test
    void generatedCodeDecodesTheRocmSchemaAsTheInterpreter(@TempDir Path tmp) throws Exception {
        String text = Files.readString(Fixtures.root().resolve("rocm/rocprofv3-ctf-metadata.tsdl"));
        TraceClass meta = TsdlParser.parse(text);
        CtfWriter w = new CtfWriter(meta, 7);
        int classes = 0;
        long ts = 1_000;
        for (EventClass ec : meta.streams.get(0L).events.values()) {
            List<FieldType.Member> members = ((FieldType.StructType) ec.payload()).members();
            if (!members.stream().allMatch(m -> m.type() instanceof FieldType.IntegerType
                    || m.type() instanceof FieldType.FloatType || m.type() instanceof FieldType.StringType)) {
                continue; // the test writer lays out integers, doubles and strings only
            }
            classes++;
            for (int k = 0; k < 3; k++) {
                java.util.Map<String, Object> values = new java.util.HashMap<>();
                for (FieldType.Member m : members) {
                    String key = m.name().startsWith("_") ? m.name().substring(1) : m.name();
                    values.put(key, m.type() instanceof FieldType.StringType ? key + "-" + k + "-" + ec.id()
                            : m.type() instanceof FieldType.FloatType ? k * 1.5 - ec.id() : (Object) (k * 1000L - ec.id()));
                }
                w.event(ec.name(), ts += 10, values);
            }
        }
        w.write(tmp, text);
        assertTrue(classes >= 15, "event classes written: " + classes);
        Result r = lockstep(tmp);
        assertEquals(3L * classes, r.events());
        assertEquals(classes, r.compiledClasses());
    }

    /** A layout whose generated method would be too large for the JIT is left to the interpreter, decoded right. */
    @Test
    void tooLargeLayoutStaysInterpreted(@TempDir Path tmp) throws Exception {
        String rocm = Files.readString(Fixtures.root().resolve("rocm/rocprofv3-ctf-metadata.tsdl"));
        StringBuilder text = new StringBuilder(rocm.substring(0, rocm.indexOf("event {")));
        text.append("event {\n\tname = \"wide\";\n\tstream_id = 0;\n\tid = 0;\n\tfields := struct {\n");
        int fields = 800;
        for (int i = 0; i < fields; i++) {
            text.append("\t\tinteger { size = 64; align = 8; signed = true; } _f").append(i).append(";\n");
        }
        text.append("\t};\n};\n");
        TraceClass meta = TsdlParser.parse(text.toString());
        CtfWriter w = new CtfWriter(meta, 2);
        for (int k = 0; k < 5; k++) {
            java.util.Map<String, Object> values = new java.util.HashMap<>();
            for (int i = 0; i < fields; i++) {
                values.put("f" + i, (long) i * 7 - k);
            }
            w.event("wide", 100 + k, values);
        }
        w.write(tmp, text.toString());
        assertEquals(5, lockstep(tmp, false).events());
        try (CtfTrace t = CtfTrace.open(tmp); CtfTrace.Cursor c = t.cursor()) {
            t.codegenAfter(1);
            int k = 0;
            while (c.next()) {
                assertEquals(799L * 7 - k, c.event().getLong("f799"));
                k++;
            }
            assertEquals(5, k);
            CompiledTrace.Event wide = t.compiledTraces().get(0).streams.get(0L).byId.get(0L);
            assertTrue(wide.bodyTried, "compilation was tried");
            assertEquals(null, wide.body, "and given up: the method would be too large");
        }
    }

    static void copyTree(Path src, Path dst) throws Exception {
        try (Stream<Path> s = Files.walk(src)) {
            for (Path p : s.toList()) {
                Path t = dst.resolve(src.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                    t.toFile().setWritable(true);
                }
            }
        }
    }
}
