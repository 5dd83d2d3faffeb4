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
            for (CompiledTrace t : generated.compiledTraces()) {
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
