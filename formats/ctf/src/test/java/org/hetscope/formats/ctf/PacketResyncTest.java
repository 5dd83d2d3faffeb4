package org.hetscope.formats.ctf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.hetscope.formats.ctf.mapping.CtfTraceFormat;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceSink;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One damaged spot in a stream file (a packet header overwritten with zeros, bytes inserted or deleted at a packet
 * boundary) costs only the damaged packet: the decoder resynchronises at the next packet whose header checks out and
 * reports what it stepped over. Damage is made here in copies of the real fixtures, at packets located by their magic
 * number (independently of the decoder). Expected events come from the undamaged copy, packet by packet, and for
 * the LTTng kernel trace also from babeltrace2 reading a copy with the damaged packet cut out cleanly.
 */
class PacketResyncTest {

    /** Copies trace folder {@code name} (with its index folder when {@code withIndex}) into {@code tmp}. */
    static Path copy(String name, Path tmp, boolean withIndex) throws IOException {
        Path src = Fixtures.ctf(name);
        Path dst = tmp.resolve("trace");
        try (Stream<Path> s = Files.walk(src)) {
            for (Path p : s.toList()) {
                Path rel = src.relativize(p);
                if (!withIndex && rel.startsWith("index")) {
                    continue;
                }
                Path to = dst.resolve(rel.toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                    to.toFile().setWritable(true);
                }
            }
        }
        return dst;
    }

    /** Packet starts by the magic number at 4-byte steps, either byte order (independent of the decoder). */
    static List<Long> packets(Path stream) throws IOException {
        byte[] b = Files.readAllBytes(stream);
        List<Long> out = new ArrayList<>();
        for (int i = 0; i + 4 <= b.length; i += 4) {
            int v = (b[i] & 0xff) << 24 | (b[i + 1] & 0xff) << 16 | (b[i + 2] & 0xff) << 8 | (b[i + 3] & 0xff);
            if (v == 0xC1FC1FC1 || Integer.reverseBytes(v) == 0xC1FC1FC1) {
                out.add((long) i);
            }
        }
        return out;
    }

    /** The events of one stream file of an intact trace, grouped by the offset of their packet. */
    static Map<Long, List<String>> eventsByPacket(Path dir, Path stream) throws Exception {
        Map<Long, List<String>> out = new LinkedHashMap<>();
        CompiledTrace ct = new CompiledTrace(dir, MetadataReader.read(dir.resolve("metadata")));
        EventText text = new EventText();
        try (StreamDecoder d = new StreamDecoder(ct, stream, p -> {
            throw new AssertionError("the intact copy decodes without problems: " + p);
        })) {
            CtfEvent view = new CtfEvent(d);
            while (d.next()) {
                out.computeIfAbsent(d.packetOffset, k -> new ArrayList<>())
                        .add(d.timestampNs() + " " + text.format(view));
            }
        }
        return out;
    }

    /** What the whole trace yields through the merged cursor: events per stream file name, and the problems. */
    record Read(Map<String, List<String>> events, List<CtfProblem> problems) {
        long total() {
            return events.values().stream().mapToLong(List::size).sum();
        }
    }

    static Read read(Path dir) throws Exception {
        return assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            Map<String, List<String>> events = new LinkedHashMap<>();
            EventText text = new EventText();
            try (CtfTrace t = CtfTrace.open(dir); CtfTrace.Cursor c = t.cursor()) {
                while (c.next()) {
                    CtfEvent e = c.event();
                    events.computeIfAbsent(e.streamName(), k -> new ArrayList<>())
                            .add(e.timestampNs() + " " + text.format(e));
                }
                return new Read(events, t.problems());
            }
        });
    }

    static void write(Path file, byte[] bytes) throws IOException {
        Files.write(file, bytes);
    }

    static byte[] insert(byte[] b, int at, byte[] extra) {
        byte[] out = new byte[b.length + extra.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(extra, 0, out, at, extra.length);
        System.arraycopy(b, at, out, at + extra.length, b.length - at);
        return out;
    }

    static byte[] delete(byte[] b, int at, int n) {
        byte[] out = new byte[b.length - n];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(b, at + n, out, at, b.length - at - n);
        return out;
    }

    /** Junk without the packet magic number in it, from a fixed seed. */
    static byte[] junk(int n, long seed) {
        byte[] j = new byte[n];
        new Random(seed).nextBytes(j);
        for (int i = 0; i < n; i++) {
            if ((j[i] & 0xff) == 0xC1) {
                j[i] = 0x42;
            }
        }
        return j;
    }

    static List<String> flatten(Map<Long, List<String>> byPacket, long without) {
        List<String> out = new ArrayList<>();
        byPacket.forEach((off, ev) -> {
            if (off != without) {
                out.addAll(ev);
            }
        });
        return out;
    }

    static List<CtfProblem> skips(List<CtfProblem> problems) {
        return problems.stream().filter(CtfProblem::isSkip).toList();
    }

    /**
     * 64 zero bytes over the header of one packet: every event of every other packet of that stream, and of every
     * other stream, is still read; the damaged packet's bytes are counted as skipped, the packet as lost.
     */
    @ParameterizedTest(name = "{0} {1} packet {2} index {3}")
    @CsvSource({
        "CTF2-7.0-trace-with-index, ust_channel_0, 2, true",
        "CTF2-7.0-trace-with-index, ust_channel_0, 2, false",
        "CTF2-7.0-trace-with-index, ust_channel_3, 1, false",
        "bug446190, channel0_1, 1, true",
        "bug446190, channel0_1, 1, false",
        "bug446190, channel0_1, 0, true",
        "bug446190, channel0_1, 0, false",
    })
    void zeroedPacketHeaderLosesOnlyThatPacket(String trace, String streamName, int k, boolean withIndex,
                                               @TempDir Path tmp) throws Exception {
        Path dir = copy(trace, tmp, withIndex);
        Path stream = dir.resolve(streamName);
        List<Long> starts = packets(stream);
        assertTrue(starts.size() > k + 1, "the stream has a packet after packet " + k);
        Map<Long, List<String>> intact = eventsByPacket(dir, stream);
        Read before = read(dir);
        long damaged = starts.get(k);
        long size = starts.get(k + 1) - damaged;
        assertFalse(intact.getOrDefault(damaged, List.of()).isEmpty(), "the damaged packet holds events");
        assertFalse(flatten(intact, damaged).isEmpty(), "other packets hold events");

        byte[] b = Files.readAllBytes(stream);
        Arrays.fill(b, (int) damaged, (int) damaged + 64, (byte) 0);
        write(stream, b);
        Read after = read(dir);

        assertEquals(flatten(intact, damaged), after.events().get(streamName),
                "every event outside the damaged packet, in order");
        for (String other : before.events().keySet()) {
            if (!other.equals(streamName)) {
                assertEquals(before.events().get(other), after.events().get(other), "stream " + other + " untouched");
            }
        }
        List<CtfProblem> skips = skips(after.problems());
        assertEquals(1, skips.size(), after.problems().toString());
        CtfProblem p = skips.get(0);
        assertEquals(stream, p.file());
        assertEquals(damaged, p.packetOffset());
        assertEquals(size, p.skippedBytes(), p.toString());
        assertEquals(1, p.skippedPackets(), p.toString());
        assertTrue(p.reason().contains("to the next valid packet at byte " + starts.get(k + 1)), p.toString());
        assertEquals(1, after.problems().size(), "nothing else reported: " + after.problems());
    }

    /**
     * Every packet of every stream file of every fixture with more than one packet, in turn: its header zeroed, the
     * events of all other packets of all streams are still read, and one skip is reported with the packet's bytes.
     */
    @ParameterizedTest(name = "{0} {1} packet {2}")
    @org.junit.jupiter.params.provider.MethodSource("everyPacket")
    void everyPacketOfEveryFixtureCanBeLostAlone(String trace, String streamName, int k, @TempDir Path tmp)
            throws Exception {
        Path dir = copy(trace, tmp, true);
        Path stream = dir.resolve(streamName);
        List<Long> starts = packets(stream);
        Map<Long, List<String>> intact = eventsByPacket(dir, stream);
        Read before = read(dir);
        long damaged = starts.get(k);
        byte[] b = Files.readAllBytes(stream);
        Arrays.fill(b, (int) damaged, (int) Math.min(b.length, damaged + 64), (byte) 0);
        write(stream, b);
        Read after = read(dir);
        assertEquals(flatten(intact, damaged), after.events().getOrDefault(streamName, List.of()),
                "every event outside the damaged packet, in order");
        for (String other : before.events().keySet()) {
            if (!other.equals(streamName)) {
                assertEquals(before.events().get(other), after.events().get(other), "stream " + other + " untouched");
            }
        }
        List<CtfProblem> skips = skips(after.problems());
        assertEquals(1, skips.size(), after.problems().toString());
        long end = k + 1 < starts.size() ? starts.get(k + 1) : b.length;
        assertEquals(end - damaged, skips.get(0).skippedBytes(), skips.toString());
        assertEquals(1, after.problems().size(), after.problems().toString());
    }

    /** Junk inserted in front of every packet of every fixture with more than one packet, in turn: nothing lost. */
    @ParameterizedTest(name = "{0} {1} packet {2}")
    @org.junit.jupiter.params.provider.MethodSource("everyPacket")
    void junkBeforeAnyPacketOfAnyFixtureLosesNothing(String trace, String streamName, int k, @TempDir Path tmp)
            throws Exception {
        Path dir = copy(trace, tmp, true);
        Path stream = dir.resolve(streamName);
        long at = packets(stream).get(k);
        Read before = read(dir);
        write(stream, insert(Files.readAllBytes(stream), (int) at, junk(4096 + 3 * k, 100 + k)));
        Read after = read(dir);
        assertEquals(before.events(), after.events(), "every event of every stream");
        List<CtfProblem> skips = skips(after.problems());
        assertEquals(1, skips.size(), after.problems().toString());
        assertEquals(4096 + 3 * k, skips.get(0).skippedBytes(), skips.toString());
        assertEquals(1, after.problems().size(), after.problems().toString());
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> everyPacket() throws IOException {
        List<org.junit.jupiter.params.provider.Arguments> out = new ArrayList<>();
        for (String trace : Fixtures.expected().keySet()) {
            Path dir = Fixtures.ctf(trace);
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                    if (f.getFileName().toString().equals("metadata")) {
                        continue;
                    }
                    List<Long> starts = packets(f);
                    for (int k = 0; starts.size() > 1 && k < starts.size(); k++) {
                        out.add(org.junit.jupiter.params.provider.Arguments.of(trace,
                                f.getFileName().toString(), k));
                    }
                }
            }
        }
        return out.stream();
    }

    /** 4,096 bytes of junk inserted in front of a packet: nothing is lost, the junk is counted as skipped bytes. */
    @ParameterizedTest(name = "{0} {1} packet {2} index {3}")
    @CsvSource({
        "CTF2-7.0-trace-with-index, ust_channel_1, 2, true",
        "CTF2-7.0-trace-with-index, ust_channel_1, 2, false",
        "bug446190, channel0_1, 1, true",
        "bug446190, channel0_1, 2, false",
        "cyg-profile/glxgears-cyg-profile-fast, channel0_2, 1, false",
    })
    void insertedBytesAtAPacketBoundaryLoseNothing(String trace, String streamName, int k, boolean withIndex,
                                                   @TempDir Path tmp) throws Exception {
        Path dir = copy(trace, tmp, withIndex);
        Path stream = dir.resolve(streamName);
        List<Long> starts = packets(stream);
        Read before = read(dir);
        long at = starts.get(k);
        write(stream, insert(Files.readAllBytes(stream), (int) at, junk(4096, 17 + k)));
        Read after = read(dir);

        assertEquals(before.events(), after.events(), "every event of every stream");
        List<CtfProblem> skips = skips(after.problems());
        assertEquals(1, skips.size(), after.problems().toString());
        assertEquals(at, skips.get(0).packetOffset());
        assertEquals(4096, skips.get(0).skippedBytes(), skips.get(0).toString());
        assertTrue(skips.get(0).reason().contains("next valid packet at byte " + (at + 4096)), skips.toString());
        if (trace.startsWith("CTF2")) {
            // packet_seq_num says that no packet is missing
            assertEquals(0, skips.get(0).skippedPackets(), skips.toString());
        }
    }

    /**
     * Bytes deleted at the end of a packet's padding move the next packet forward: it is found there (before where
     * the previous packet's size puts it), nothing is lost, and the inconsistency is reported.
     */
    @ParameterizedTest(name = "{0} {1} packet {2} index {3}")
    @CsvSource({
        "CTF2-7.0-trace-with-index, ust_channel_2, 3, true",
        "CTF2-7.0-trace-with-index, ust_channel_2, 3, false",
        "bug446190, channel0_1, 1, true",
        "bug446190, channel0_1, 2, false",
    })
    void deletedPaddingAtAPacketBoundaryLosesNothing(String trace, String streamName, int k, boolean withIndex,
                                                     @TempDir Path tmp) throws Exception {
        Path dir = copy(trace, tmp, withIndex);
        Path stream = dir.resolve(streamName);
        List<Long> starts = packets(stream);
        Read before = read(dir);
        int at = starts.get(k).intValue();
        byte[] b = Files.readAllBytes(stream);
        int n = 8;
        for (int i = at - n; i < at; i++) {
            assertEquals(0, b[i], "the bytes before packet " + k + " are the previous packet's padding");
        }
        write(stream, delete(b, at - n, n));
        Read after = read(dir);

        assertEquals(before.events(), after.events(), "every event of every stream");
        List<CtfProblem> skips = skips(after.problems());
        assertEquals(1, skips.size(), after.problems().toString());
        assertEquals(at, skips.get(0).packetOffset());
        assertEquals(0, skips.get(0).skippedBytes());
        assertTrue(skips.get(0).reason().contains("found at byte " + (at - n) + ", " + n + " bytes before"),
                skips.toString());
    }

    /** Junk inserted inside a packet: that packet's events after the junk may be lost, never those of the others. */
    @Test
    void insertedBytesInsideAPacketCostOnlyThatPacket(@TempDir Path tmp) throws Exception {
        Path dir = copy("CTF2-7.0-trace-with-index", tmp, false);
        Path stream = dir.resolve("ust_channel_0");
        List<Long> starts = packets(stream);
        Map<Long, List<String>> intact = eventsByPacket(dir, stream);
        long k = starts.get(1);
        write(stream, insert(Files.readAllBytes(stream), (int) k + 1024, junk(4096, 5)));
        Read after = read(dir);
        List<String> got = after.events().get("ust_channel_0");
        for (Map.Entry<Long, List<String>> e : intact.entrySet()) {
            if (e.getKey() != k) {
                assertTrue(got.containsAll(e.getValue()), "the events of packet at byte " + e.getKey());
            }
        }
        assertEquals(flatten(intact, k), got.stream().filter(flatten(intact, k)::contains).toList(), "in order");
        assertFalse(after.problems().isEmpty());
        assertTrue(skips(after.problems()).stream().anyMatch(p -> p.packetOffset() == k + 4096
                && p.reason().contains("next valid packet at byte " + (starts.get(2) + 4096))), after.problems()
                .toString());
    }

    /** Zeros over every packet header but the first: each packet after it is lost, the stream still ends cleanly. */
    @Test
    void noValidHeaderAfterTheDamageEndsTheStreamWithTheRestCounted(@TempDir Path tmp) throws Exception {
        Path dir = copy("bug446190", tmp, false);
        Path stream = dir.resolve("channel0_1");
        List<Long> starts = packets(stream);
        byte[] b = Files.readAllBytes(stream);
        for (int i = 1; i < starts.size(); i++) {
            Arrays.fill(b, starts.get(i).intValue(), starts.get(i).intValue() + 4, (byte) 0);
        }
        write(stream, b);
        Read after = read(dir);
        List<CtfProblem> skips = skips(after.problems());
        assertEquals(1, skips.size(), after.problems().toString());
        assertEquals(b.length - starts.get(1), skips.get(0).skippedBytes());
        assertTrue(skips.get(0).reason().contains("no valid packet header after it"), skips.toString());
    }

    /**
     * The same damage against babeltrace2: it reads a copy where the damaged packet is cut out cleanly (and the index
     * removed), and prints exactly the events the damaged copy yields here.
     */
    @Test
    void babeltraceReadsTheSameEventsWithThePacketCutOut(@TempDir Path tmp) throws Exception {
        Assumptions.assumeTrue(Babeltrace.available(), "babeltrace2 is not installed (Debian package babeltrace2)");
        Path damagedDir = copy("bug446190", tmp.resolve("d"), true);
        Path cutDir = copy("bug446190", tmp.resolve("c"), false);
        String name = "channel0_1";
        List<Long> starts = packets(damagedDir.resolve(name));
        int from = starts.get(1).intValue();
        int to = starts.get(2).intValue();
        byte[] b = Files.readAllBytes(damagedDir.resolve(name));
        write(cutDir.resolve(name), delete(b, from, to - from));
        Arrays.fill(b, from, from + 64, (byte) 0);
        write(damagedDir.resolve(name), b);

        List<Babeltrace.Line> reference = Babeltrace.read(cutDir);
        assertTrue(reference != null && !reference.isEmpty(), "babeltrace2 reads the cut copy");
        List<Babeltrace.Line> intact = Babeltrace.read(Fixtures.ctf("bug446190"));
        assertTrue(reference.size() < intact.size(), "the cut packet held events");
        Read ours = read(damagedDir);
        assertEquals(reference.size(), ours.total(), "events kept");
        List<Long> theirTimes = reference.stream().map(Babeltrace.Line::ns).sorted().toList();
        List<Long> ourTimes = new ArrayList<>();
        try (CtfTrace t = CtfTrace.open(damagedDir); CtfTrace.Cursor c = t.cursor()) {
            while (c.next()) {
                ourTimes.add(c.event().timestampNs());
            }
        }
        // babeltrace2 prints times relative to the clock's origin with its offset; compare the spacing of the events
        long shift = theirTimes.get(0) - ourTimes.stream().sorted().findFirst().orElseThrow();
        assertEquals(theirTimes, ourTimes.stream().map(x -> x + shift).sorted().toList(), "the same events");
    }

    /** Through the trace format: the skip is damage (the import ends with exit code 3), with bytes and packets. */
    @Test
    void theFormatReportsTheSkipAsDamage(@TempDir Path tmp) throws Exception {
        Path dir = copy("CTF2-7.0-trace-with-index", tmp, false);
        CollectingSink intact = new CollectingSink();
        new CtfTraceFormat().read(dir, intact, Progress.NONE);
        Path stream = dir.resolve("ust_channel_0");
        List<Long> starts = packets(stream);
        Map<Long, List<String>> byPacket = eventsByPacket(dir, stream);
        byte[] b = Files.readAllBytes(stream);
        Arrays.fill(b, starts.get(2).intValue(), starts.get(2).intValue() + 64, (byte) 0);
        write(stream, b);
        CollectingSink sink = new CollectingSink();
        new CtfTraceFormat().read(dir, sink, Progress.NONE);

        int lostEvents = byPacket.get(starts.get(2)).size();
        assertEquals(intact.instants.size() - lostEvents, sink.instants.size(), "instants of the kept events");
        assertEquals(intact.slices.size(), sink.slices.size());
        org.hetscope.model.SkipTally.Entry damage = sink.skips.entries().stream()
                .filter(e -> e.reason().damage()).findFirst().orElseThrow();
        assertEquals(org.hetscope.model.SkipReason.DAMAGED_PACKET, damage.reason());
        assertTrue(damage.detail().startsWith("unreadable packet header") && damage.detail().contains(
                "skipped 4096 bytes"), damage.detail());
        assertTrue(damage.where().startsWith("ust_channel_0 at byte " + starts.get(2) + " ("), damage.where());
        assertEquals(1L, damage.count());
        assertEquals("4096", sink.info.get("ctf.stream.trace/ust_channel_0.skipped_bytes"));
        assertEquals("1", sink.info.get("ctf.stream.trace/ust_channel_0.skipped_packets"));
        assertEquals(Long.toString(byPacket.values().stream().mapToLong(List::size).sum() - lostEvents),
                sink.info.get("ctf.stream.trace/ust_channel_0.events"));
    }

    /** The parallel count (ctf command) reports the same skip and counts the same events. */
    @Test
    void theParallelCountSkipsTheSameWay(@TempDir Path tmp) throws Exception {
        Path dir = copy("bug446190", tmp, false);
        Path stream = dir.resolve("channel0_1");
        List<Long> starts = packets(stream);
        byte[] b = Files.readAllBytes(stream);
        Arrays.fill(b, starts.get(1).intValue(), starts.get(1).intValue() + 64, (byte) 0);
        write(stream, b);
        Read merged = read(dir);
        try (CtfTrace t = CtfTrace.open(dir)) {
            long counted = t.count(3).stream().mapToLong(CtfTrace.ClassCount::events).sum();
            assertEquals(merged.total(), counted);
            assertEquals(1, skips(t.problems()).size(), t.problems().toString());
            assertEquals(starts.get(2) - starts.get(1), skips(t.problems()).get(0).skippedBytes());
        }
    }
}
