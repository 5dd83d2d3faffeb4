package org.hetscope.formats.otf2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.hetscope.model.Category;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Progress;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pure-Java OTF2 reader against the reference otf2-print (Debian otf2-tools), and on hand-made archives. */
class Otf2FormatTest {
    static final Path FIXTURE = Path.of(System.getProperty("hetscope.root", "."))
            .resolve("../shared/fixtures/otf2/ping-pong-otf2");
    static final Path ANCHOR = FIXTURE.resolve("traces.otf2");

    private static List<String> otf2Print(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("otf2-print"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "otf2-print failed (install Debian package otf2-tools): " + out);
        return out.lines().toList();
    }

    @Test
    void enterLeaveSequencePerLocationMatchesOtf2Print() throws Exception {
        Pattern line = Pattern.compile("^(ENTER|LEAVE)\\s+(\\d+)\\s+(\\d+)\\s+Region: \"(.*)\" <(\\d+)>$");
        Map<Long, List<String>> expected = new TreeMap<>();
        int count = 0;
        for (String l : otf2Print(ANCHOR.toString())) {
            Matcher m = line.matcher(l.trim());
            if (m.matches()) {
                expected.computeIfAbsent(Long.parseLong(m.group(2)), k -> new ArrayList<>())
                        .add(m.group(1) + " " + m.group(3) + " " + m.group(4) + " <" + m.group(5) + ">");
                count++;
            }
        }
        assertEquals(84, count);
        Otf2Archive a = Otf2Archive.read(ANCHOR);
        Map<Long, List<String>> actual = new TreeMap<>();
        for (long loc : a.locations()) {
            for (Otf2Event e : a.events(loc)) {
                if (e.kind() == Otf2Event.Kind.ENTER || e.kind() == Otf2Event.Kind.LEAVE) {
                    actual.computeIfAbsent(loc, k -> new ArrayList<>()).add(e.kind() + " " + e.ticks() + " "
                            + a.regionName(e.ref()) + " <" + e.ref() + ">");
                }
            }
        }
        assertEquals(expected, actual);
    }

    @Test
    void messagesAndAnchorMatchOtf2Print() throws Exception {
        Pattern line = Pattern.compile("^(MPI_SEND|MPI_RECV)\\s+(\\d+)\\s+(\\d+)\\s+(Receiver|Sender): (\\d+) .*"
                + "Tag: (\\d+), Length: (\\d+)$");
        List<String> expected = new ArrayList<>();
        for (String l : otf2Print(ANCHOR.toString())) {
            Matcher m = line.matcher(l.trim());
            if (m.matches()) {
                expected.add(m.group(1) + " " + m.group(2) + " " + m.group(3) + " peer " + m.group(5) + " tag "
                        + m.group(6) + " bytes " + m.group(7));
            }
        }
        Otf2Archive a = Otf2Archive.read(ANCHOR);
        List<String> actual = new ArrayList<>();
        List<Otf2Event> all = new ArrayList<>();
        a.locations().forEach(l -> all.addAll(a.events(l)));
        all.sort(java.util.Comparator.comparingLong(Otf2Event::ticks));
        for (Otf2Event e : all) {
            if (e.kind() == Otf2Event.Kind.MPI_SEND || e.kind() == Otf2Event.Kind.MPI_RECV) {
                actual.add(e.kind() + " " + e.location() + " " + e.ticks() + " peer " + e.peer() + " tag " + e.tag()
                        + " bytes " + e.bytes());
            }
        }
        assertEquals(32, expected.size());
        assertEquals(expected, actual);
        Map<String, String> anchor = new LinkedHashMap<>();
        for (String l : otf2Print("-A", ANCHOR.toString())) {
            String[] kv = l.split("\\s{2,}", 2);
            if (kv.length == 2) {
                anchor.putIfAbsent(kv[0].trim(), kv[1].trim());
            }
        }
        assertEquals(anchor.get("Version"), a.version());
        assertEquals(anchor.get("Creator"), a.creator());
        assertEquals(Long.parseLong(anchor.get("Chunk size events")), a.eventChunkSize);
        assertEquals(Long.parseLong(anchor.get("Number of locations")), a.locations().size());
    }

    @Test
    void definitionCountsMatchOtf2Print() throws Exception {
        Map<String, Integer> counts = new TreeMap<>();
        for (String l : otf2Print("-G", ANCHOR.toString())) {
            String first = l.split("\\s+", 2)[0];
            counts.merge(first, 1, Integer::sum);
        }
        Otf2Archive a = Otf2Archive.read(ANCHOR);
        assertEquals(counts.get("STRING"), a.defs.strings.size());
        assertEquals(counts.get("REGION"), a.defs.regions.size());
        assertEquals(counts.get("LOCATION"), a.defs.locations.size());
        assertEquals(counts.get("LOCATION_GROUP"), a.defs.locationGroups.size());
        assertEquals(counts.get("GROUP"), a.defs.groups.size());
        assertEquals(counts.get("COMM"), a.defs.comms.size());
        assertEquals(2095197216L, a.timerResolution());
        assertEquals("MPI_COMM_WORLD", a.defs.comms.get(1L).name());
    }

    @Test
    void importGivesNestedSlicesAndMessageFlows() throws Exception {
        CollectingSink s = new CollectingSink();
        Otf2Format f = new Otf2Format();
        assertTrue(f.accepts(FIXTURE));
        f.read(FIXTURE, s, Progress.NONE);
        assertEquals(2, s.processes.size());
        assertEquals(42, s.slices.size());
        assertEquals(0, s.skippedTotal(), s.skipped.toString());
        Slice main = s.slices.stream().filter(x -> x.name().equals("int main(int, char**)")).findFirst().orElseThrow();
        assertEquals(0, main.depth());
        assertEquals(Category.CPU_OP, main.category());
        assertTrue(s.slices.stream().filter(x -> x.name().equals("MPI_Send")).allMatch(
                x -> x.depth() == 1 && x.category() == Category.API));
        // 16 sends, each matched to the receive with the same sender, receiver, communicator and tag
        assertEquals(16, s.flows.size());
        Map<Long, Slice> byId = new java.util.HashMap<>();
        s.slices.forEach(x -> byId.put(x.id(), x));
        s.flows.forEach(fl -> {
            assertEquals("MPI_Send", byId.get(fl.fromSliceId()).name());
            assertEquals("MPI_Recv", byId.get(fl.toSliceId()).name());
        });
        // times are ns since the global offset: location 0 enters main at 7397466977683839 ticks
        long ticks = 7397466977683839L - 7397466976977800L;
        long expectedNs = ticks / 2095197216L * 1_000_000_000L + ticks % 2095197216L * 1_000_000_000L / 2095197216L;
        assertTrue(s.slices.stream().anyMatch(x -> x.name().equals("int main(int, char**)") && x.ts() == expectedNs));
    }

    @Test
    void bothByteOrdersDecodeToTheSameEvents(@TempDir Path dir) throws Exception {
        Otf2TestWriter.writeArchive(dir.resolve("le"), false);
        Otf2TestWriter.writeArchive(dir.resolve("be"), true);
        assertFalse(Files.readAllBytes(dir.resolve("le/traces/0.evt")).length == 0);
        CollectingSink le = new CollectingSink();
        CollectingSink be = new CollectingSink();
        new Otf2Format().read(dir.resolve("le"), le, Progress.NONE);
        new Otf2Format().read(dir.resolve("be"), be, Progress.NONE);
        assertEquals(le.slices, be.slices);
        assertEquals(le.counters, be.counters);
        assertEquals(le.flows, be.flows);
        // rank 0: main [100 us, 900 us] with MPI_Send [200, 400] inside (local ids 5, 6 mapped to 0, 1)
        List<String> r0 = le.slices.stream().map(x -> x.name() + "@" + x.ts() + "+" + x.dur() + "/" + x.depth())
                .sorted().toList();
        assertEquals(List.of("MPI_Recv@250000+350000/1", "MPI_Send@200000+200000/1", "cudaLaunchKernel@160000+10000/1",
                "main@100000+800000/0", "main@150000+850000/0", "saxpy_kernel@180000+50000/0"), r0);
        // the accelerator-stream location is a stream of a GPU device made for its location group
        assertEquals(1, le.devices.size());
        assertEquals("CUDA context 1", le.devices.get(0).name());
        org.hetscope.model.Slice k = le.slices.stream().filter(x -> x.name().equals("saxpy_kernel")).findFirst()
                .orElseThrow();
        assertEquals(Category.KERNEL, k.category());
        org.hetscope.model.Track stream = le.tracks.stream().filter(t -> t.id() == k.trackId()).findFirst()
                .orElseThrow();
        assertEquals(org.hetscope.model.TrackKind.STREAM, stream.kind());
        assertEquals(le.devices.get(0).id(), stream.deviceId());
        assertEquals(Category.API, le.slices.stream().filter(x -> x.name().equals("cudaLaunchKernel")).findFirst()
                .orElseThrow().category());
        assertEquals(1, le.counters.size());
        assertEquals(123456.0, le.counters.get(0).value());
        assertEquals(300000, le.counters.get(0).ts());
        assertEquals(1, le.flows.size());
        assertEquals(0, le.skippedTotal(), le.skipped.toString());
    }

    @Test
    void locationOfAnUndefinedGroupGetsAProcessWithItsTrack(@TempDir Path dir) throws Exception {
        // found by the mutation test: a location naming a group the definitions lack used to end in a NullPointerException
        Otf2TestWriter.writeArchive(dir, false, 9);
        CollectingSink s = new CollectingSink();
        new Otf2Format().read(dir, s, Progress.NONE);
        org.hetscope.model.TraceProcess made = s.processes.stream().filter(p -> p.pid() == 9).findFirst().orElseThrow();
        assertEquals("location group 9", made.name());
        org.hetscope.model.Track processTrack = s.tracks.stream()
                .filter(t -> t.kind() == org.hetscope.model.TrackKind.PROCESS && t.processId() != null
                        && t.processId() == made.id()).findFirst().orElseThrow();
        org.hetscope.model.Track rank1 = s.tracks.stream().filter(t -> t.kind() == org.hetscope.model.TrackKind.THREAD
                && t.name().endsWith("[1]")).findFirst().orElseThrow();
        assertEquals(made.id(), rank1.processId());
        assertEquals(processTrack.id(), rank1.parentId());
        // rank 1's events are kept: main, cudaLaunchKernel and MPI_Recv
        assertEquals(List.of("MPI_Recv", "cudaLaunchKernel", "main"), s.slices.stream()
                .filter(x -> x.trackId() == rank1.id()).map(x -> x.name()).sorted().toList());
    }

    @Test
    void missingEventFileIsRefusedWithNothingImported(@TempDir Path dir) throws Exception {
        Path copy = dir.resolve("pp");
        Files.createDirectories(copy.resolve("traces"));
        try (Stream<Path> files = Files.walk(FIXTURE)) {
            for (Path p : files.filter(Files::isRegularFile).toList()) {
                Files.copy(p, copy.resolve(FIXTURE.relativize(p).toString()));
            }
        }
        Files.delete(copy.resolve("traces/1.evt"));
        CollectingSink s = new CollectingSink();
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> new Otf2Format().read(copy.resolve("traces.otf2"), s, Progress.NONE));
        assertTrue(e.getMessage().contains("1.evt") && e.getMessage().contains("missing"), e.getMessage());
        assertTrue(s.slices.isEmpty() && s.processes.isEmpty() && s.tracks.isEmpty());
    }

    @Test
    void truncatedEventFileNamesFileAndOffset(@TempDir Path dir) throws Exception {
        Otf2TestWriter.writeArchive(dir, false);
        Path evt = dir.resolve("traces/1.evt");
        byte[] b = Files.readAllBytes(evt);
        Files.write(evt, java.util.Arrays.copyOf(b, b.length - 12));
        CollectingSink s = new CollectingSink();
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> new Otf2Format().read(dir, s, Progress.NONE));
        assertTrue(e.getMessage().contains("1.evt at offset"), e.getMessage());
        assertTrue(s.slices.isEmpty());
    }

    @Test
    void compressedIntegersInBothByteOrders() throws IOException, TraceFormatException {
        Otf2Buffer le = new Otf2Buffer(Path.of("x"), new byte[] {0, (byte) 0xFF, 2, 0x34, 0x12, 4, 1, 0, 0, (byte) 0x80});
        assertEquals(0, le.u32());
        assertEquals(0xFFFFFFFFL, le.u32());
        assertEquals(0x1234, le.u32());
        assertEquals(0x80000001L, le.u64());
        Otf2Buffer be = new Otf2Buffer(Path.of("x"), new byte[] {2, 0x12, 0x34, 8, (byte) 0xFF, (byte) 0xFF,
            (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFE, 5});
        be.bigEndian = true;
        assertEquals(0x1234, be.u32());
        assertEquals(-2, be.i64());
        assertThrows(TraceFormatException.class, be::u32);
    }
}
