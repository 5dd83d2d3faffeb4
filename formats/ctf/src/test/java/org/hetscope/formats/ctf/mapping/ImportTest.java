package org.hetscope.formats.ctf.mapping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceFormat;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The "ctf" format is found by ServiceLoader, detects trace folders, and imports into a store. */
class ImportTest {
    static Path fixture(String name) {
        return Path.of(System.getProperty("hetscope.root", ".")).resolve("../shared/fixtures/ctf").resolve(name);
    }

    static TraceFormat ctf() {
        for (TraceFormat f : ServiceLoader.load(TraceFormat.class)) {
            if (f.name().equals("ctf")) {
                return f;
            }
        }
        throw new AssertionError("no ctf format registered");
    }

    static List<String> babeltrace(Path trace) throws Exception {
        Process p = new ProcessBuilder("babeltrace2", trace.toString()).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        List<String> lines = new String(p.getInputStream().readAllBytes()).lines().toList();
        p.waitFor();
        return lines;
    }

    @Test
    void detectsTraceFoldersAndSessions() throws Exception {
        TraceFormat f = ctf();
        assertTrue(f.accepts(fixture("debuginfo-test-app2")));
        assertTrue(f.accepts(fixture("cyg-profile")), "a folder holding several traces");
        assertTrue(f.accepts(fixture("CTF2-vl-ints")));
        assertTrue(!f.accepts(fixture("EXPECTED.tsv")));
        assertTrue(!f.accepts(fixture("../rocm")), "a metadata-less folder");
    }

    @Test
    void importsStatedumpIntoTheStore(@TempDir Path tmp) throws Exception {
        Assumptions.assumeTrue(BabeltraceOnPath.yes(), "babeltrace2 not installed");
        Path trace = fixture("debuginfo-test-app2");
        List<String> ref = babeltrace(trace);
        long binaryEvents = ref.stream().filter(l -> l.matches(
                ".* lttng_ust_(statedump:(soinfo|bin_info|build_id|debug_link)|dl:(dlopen|build_id|debug_link|dlclose)):.*"))
                .count();
        Path db = tmp.resolve("t.duckdb");
        StoreWriter w = StoreWriter.create(db);
        ctf().read(trace, w, Progress.NONE);
        w.commit();
        try (Store s = Store.open(db)) {
            assertEquals(((Number) s.query("select count(*) from instant").rows().get(0)[0]).longValue(), ref.size());
            assertEquals(binaryEvents, ((Number) s.query("select count(*) from ctf_binaries").rows().get(0)[0]).longValue());
            Object id = s.query("select build_id from ctf_binaries where event = 'lttng_ust_statedump:build_id' "
                    + "order by ts limit 1").rows().get(0)[0];
            assertTrue(id.toString().startsWith("b8f6ac6050a841b4"), id.toString());
            assertEquals(1L, ((Number) s.query("select count(*) from process where pid = 5997").rows().get(0)[0]).longValue());
        }
    }

    @Test
    void cygProfileCallStacksUseTheSymbolMap() throws Exception {
        Assumptions.assumeTrue(BabeltraceOnPath.yes(), "babeltrace2 not installed");
        Path trace = fixture("cyg-profile/glxgears-cyg-profile");
        List<String> ref = babeltrace(trace);
        long entries = ref.stream().filter(l -> l.contains(":func_entry:")).count();
        long exits = ref.stream().filter(l -> l.contains(":func_exit:")).count();
        CollectingSink sink = new CollectingSink();
        ctf().read(trace, sink, Progress.NONE);
        assertEquals(entries, sink.slices.size(), "one slice per call");
        long unfinished = sink.slices.stream().filter(s -> s.argsJson().contains("unfinished")).count();
        assertEquals(entries - unfinished, exits - sink.skipped.entrySet().stream()
                .filter(e -> e.getKey().startsWith("unmatched_end: func_exit")).mapToLong(e -> e.getValue()).sum());
        // addresses from the mapping file (nm output) resolve to names
        List<String> mapping = Files.readAllLines(fixture("cyg-profile/cyg-profile-mapping.txt"));
        String mainAddr = mapping.stream().filter(l -> l.endsWith(" main")).findFirst().orElseThrow().split(" ")[0];
        assertTrue(sink.slices.stream().anyMatch(s -> s.name().equals("main")
                && s.argsJson().contains(Long.toHexString(Long.parseUnsignedLong(mainAddr, 16)))),
                "a slice named main at " + mainAddr);
        assertTrue(sink.info.containsKey("ctf.symbols"));
    }

    @Test
    void eventLackingTheFieldItsMappingReadsIsKeptGenerically(@TempDir Path tmp) throws Exception {
        // found by the mutation test: metadata declaring func_entry without 'addr' used to end the read with an
        // IllegalArgumentException; a same-length rename in the metadata packet reproduces it
        Assumptions.assumeTrue(BabeltraceOnPath.yes(), "babeltrace2 not installed");
        Path trace = fixture("cyg-profile/glxgears-cyg-profile");
        long entries = babeltrace(trace).stream().filter(l -> l.contains(":func_entry:")).count();
        Path copy = Files.createDirectories(tmp.resolve("t"));
        try (var files = Files.list(trace)) {
            for (Path f : files.toList()) {
                Files.copy(f, copy.resolve(f.getFileName().toString()));
            }
        }
        byte[] meta = Files.readAllBytes(copy.resolve("metadata"));
        String text = new String(meta, java.nio.charset.StandardCharsets.ISO_8859_1);
        int at = text.indexOf("} _addr;");
        assertTrue(at > 0 && text.indexOf("func_entry") < at, "func_entry declares _addr first");
        meta[at + "} _addr".length() - 1] = 'x';
        Files.write(copy.resolve("metadata"), meta);
        CollectingSink sink = new CollectingSink();
        ctf().read(copy, sink, Progress.NONE);
        assertEquals(entries, sink.skipped.get(
                "kept_generic: CTF event without a field its mapping needs (lttng_ust_cyg_profile:func_entry.addr)"),
                sink.skipped.toString());
        assertEquals(entries, sink.instants.stream().filter(i -> i.name().endsWith("func_entry")).count());
        assertEquals(0, sink.slices.size(), "no call opened, so none closed");
    }

    /** Whether babeltrace2 is installed. */
    static final class BabeltraceOnPath {
        static boolean yes() {
            return LttngRecordingTest.onPath("babeltrace2");
        }
    }
}
