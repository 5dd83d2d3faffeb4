package org.hetscope.formats.ctf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.hetscope.model.TraceFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged traces: the reader names file, packet and reason, keeps what is intact, and never hangs. */
class CorruptInputTest {
    private static final String TRACE = "bug446190";

    static Path copy(Path tmp) throws IOException {
        Path src = Fixtures.ctf(TRACE);
        Path dst = tmp.resolve("trace");
        Files.createDirectories(dst);
        try (Stream<Path> s = Files.list(src)) {
            for (Path p : s.toList()) {
                if (Files.isRegularFile(p)) {
                    Files.copy(p, dst.resolve(p.getFileName()));
                    dst.resolve(p.getFileName()).toFile().setWritable(true);
                }
            }
        }
        return dst;
    }

    /** Packet starts found by their magic number (independent of the decoder). */
    static List<Long> packets(Path stream) throws IOException {
        byte[] b = Files.readAllBytes(stream);
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        List<Long> out = new ArrayList<>();
        for (int i = 0; i + 4 <= b.length; i += 8) {
            if (bb.getInt(i) == 0xC1FC1FC1) {
                out.add((long) i);
            }
        }
        return out;
    }

    static List<String> lines(Path dir) throws Exception {
        List<String> out = new ArrayList<>();
        EventText text = new EventText();
        try (CtfTrace t = CtfTrace.open(dir); CtfTrace.Cursor c = t.cursor()) {
            while (c.next()) {
                out.add(c.event().streamName() + " " + c.event().timestampNs() + " " + text.format(c.event()));
            }
        }
        return out;
    }

    static List<String> of(List<String> lines, String stream) {
        return lines.stream().filter(l -> l.startsWith(stream + " ")).toList();
    }

    /** Event offsets of one stream file from an intact decode. */
    static List<Long> eventOffsets(Path dir, Path stream) throws Exception {
        List<Long> offsets = new ArrayList<>();
        CompiledTrace ct = new CompiledTrace(dir, MetadataReader.read(dir.resolve("metadata")));
        try (StreamDecoder d = new StreamDecoder(ct, stream, x -> { })) {
            while (d.next()) {
                offsets.add(d.eventOffset());
            }
        }
        return offsets;
    }

    /** A stream whose second packet holds events. */
    static Path twoPacketStream(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.filter(x -> x.getFileName().toString().startsWith("channel")).sorted().toList()) {
                List<Long> p = packets(f);
                if (p.size() >= 2 && eventOffsets(dir, f).stream().anyMatch(o -> o > p.get(1) + 200)) {
                    return f;
                }
            }
        }
        throw new AssertionError("no stream with two packets of events");
    }

    static List<CtfProblem> problems(Path dir) throws Exception {
        try (CtfTrace t = CtfTrace.open(dir); CtfTrace.Cursor c = t.cursor()) {
            while (c.next()) {
                // decode everything
            }
            return t.problems();
        }
    }

    @Test
    void truncatedStreamKeepsThePrefix(@TempDir Path tmp) throws Exception {
        Path dir = copy(tmp);
        Path stream = twoPacketStream(dir);
        String name = stream.getFileName().toString();
        List<String> intact = lines(dir);
        List<Long> p = packets(stream);
        long cut = p.get(1) + 200;
        try (FileChannel ch = FileChannel.open(stream, StandardOpenOption.WRITE)) {
            ch.truncate(cut);
        }
        List<String> damaged = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> lines(dir));
        List<String> before = of(intact, name);
        List<String> after = of(damaged, name);
        assertTrue(after.size() > 0 && after.size() < before.size(), after.size() + " of " + before.size());
        assertEquals(before.subList(0, after.size()), after, "events before the damage are kept, unchanged");
        assertEquals(intact.size() - before.size(), damaged.size() - after.size(), "other streams untouched");
        List<CtfProblem> probs = problems(dir);
        assertFalse(probs.isEmpty());
        assertEquals(stream, probs.get(0).file());
        assertEquals(p.get(1), probs.get(0).packetOffset());
        assertTrue(probs.get(0).toString().contains(name + " packet at byte " + p.get(1)), probs.toString());
        assertTrue(probs.stream().anyMatch(x -> x.reason().contains("past the end of the file")), probs.toString());
    }

    @Test
    void packetSizePastEndOfFileIsReported(@TempDir Path tmp) throws Exception {
        Path dir = copy(tmp);
        Path stream = dir.resolve("channel0_0");
        List<String> intact = lines(dir);
        List<Long> p = packets(stream);
        long last = p.get(p.size() - 1);
        long size = Files.size(stream);
        long packetBits = (size - last) * 8;
        byte[] b = Files.readAllBytes(stream);
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int at = -1;
        for (int i = (int) last; i < last + 128; i += 8) {
            if (bb.getLong(i) == packetBits) {
                at = i;
            }
        }
        assertTrue(at > 0, "packet_size field of the last packet");
        bb.putLong(at, packetBits * 4);
        Files.write(stream, b);
        List<String> damaged = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> lines(dir));
        assertEquals(intact, damaged, "content size is intact, so every event is still there");
        List<CtfProblem> probs = problems(dir);
        assertEquals(1, probs.size(), probs.toString());
        assertEquals(last, probs.get(0).packetOffset());
        assertTrue(probs.get(0).reason().contains("past the end of the file"), probs.toString());
    }

    @Test
    void unknownEventIdSkipsToTheNextPacket(@TempDir Path tmp) throws Exception {
        Path dir = copy(tmp);
        Path stream = twoPacketStream(dir);
        List<Long> p = packets(stream);
        int total = lines(dir).size();
        List<Long> offsets = eventOffsets(dir, stream);
        long p1 = p.get(0);
        long p2 = p.get(1);
        int victim = -1;
        for (int i = 0; i < offsets.size(); i++) {
            if (offsets.get(i) >= p1 && victim < 0) {
                victim = i;
            }
        }
        int lost = 0;
        for (long o : offsets) {
            if (o >= p1 && o < p2) {
                lost++;
            }
        }
        byte[] b = Files.readAllBytes(stream);
        // the large LTTng event header starts with a 16-bit id; 65534 is a compact id no event class has
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putShort(offsets.get(victim).intValue(), (short) 65534);
        Files.write(stream, b);
        List<CtfProblem> probs = problems(dir);
        assertEquals(1, probs.size(), probs.toString());
        assertEquals(p1, probs.get(0).packetOffset());
        assertEquals(offsets.get(victim), probs.get(0).eventOffset());
        assertTrue(probs.get(0).reason().contains("unknown event id 65534"), probs.toString());
        assertTrue(lost > 0 && lost < offsets.size());
        assertEquals(total - lost, lines(dir).size(), "only the damaged packet's events are lost");
    }

    @Test
    void garbageMetadataNamesTheFile(@TempDir Path tmp) throws Exception {
        Path dir = copy(tmp);
        byte[] junk = new byte[4096];
        new Random(7).nextBytes(junk);
        Files.write(dir.resolve("metadata"), junk);
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> CtfTrace.open(dir));
        assertTrue(e.getMessage().contains("metadata"), e.getMessage());
    }

    @Test
    void metadataSyntaxErrorNamesTheLine(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("t");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("metadata"), "/* CTF 1.8 */\ntrace {\n  major = 1;\n  byte_order = le;\n};\n"
                + "event {\n  name = \"x\";\n  fields := struct { no_such_type y; };\n};\n");
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> CtfTrace.open(dir));
        assertTrue(e.getMessage().contains("line 8") && e.getMessage().contains("no_such_type"), e.getMessage());
    }

    @Test
    void randomStreamBytesDoNotHang(@TempDir Path tmp) throws Exception {
        Path dir = copy(tmp);
        byte[] junk = new byte[1 << 20];
        new Random(11).nextBytes(junk);
        Files.write(dir.resolve("channel0_0"), junk);
        List<CtfProblem> probs = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> problems(dir));
        assertFalse(probs.isEmpty());
        assertTrue(probs.get(0).reason().contains("magic"), probs.toString());
    }

    @Test
    void discardedEventsAreReportedPerStream(@TempDir Path tmp) throws Exception {
        Path dir = copy(tmp);
        Path stream = dir.resolve("channel0_1");
        List<Long> p = packets(stream);
        assertEquals(3, p.size(), "bug446190/channel0_1 has three packets");
        // packet context of this trace (32-bit ARM lttng-modules): header 24 bytes (magic, uuid, stream_id), then
        // timestamp_begin, timestamp_end, content_size, packet_size (8 bytes each), events_discarded (4), cpu_id
        byte[] b = Files.readAllBytes(stream);
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        for (long off : p) {
            assertEquals(0, bb.getInt((int) off + 56), "events_discarded of the intact trace");
        }
        // the tracer's counter is a running total: 4 lost before packet 2, 3 more before packet 3
        bb.putInt(p.get(1).intValue() + 56, 4);
        bb.putInt(p.get(2).intValue() + 56, 7);
        Files.write(stream, b);
        try (CtfTrace t = CtfTrace.open(dir)) {
            t.count(2);
            StreamStats s = t.streamStats().stream().filter(x -> x.file().equals(stream)).findFirst().orElseThrow();
            assertEquals(7, s.discardedEvents());
            assertEquals(3, s.packets());
            assertTrue(t.problems().isEmpty());
        }
        org.hetscope.model.CollectingSink sink = new org.hetscope.model.CollectingSink();
        new org.hetscope.formats.ctf.mapping.CtfTraceFormat().read(dir, sink, org.hetscope.model.Progress.NONE);
        assertEquals(7L, sink.skipped.get("events_discarded"));
        assertEquals("7", sink.info.get("ctf.stream.trace/channel0_1.discarded_events"));
    }
}
