package org.hetscope.formats.ctf;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hetscope.formats.ctf.meta.EventClass;
import org.hetscope.formats.ctf.meta.FieldType;
import org.hetscope.formats.ctf.meta.TraceClass;

/**
 * Writes a little-endian CTF 1.8 trace for byte-aligned layouts like the ROCm profiler's: packet header (magic,
 * uuid, stream_id, stream_instance_id), packet context (packet_size, content_size, timestamp_begin/end,
 * packet_seq_num), event header (id, timestamp) and payloads of 64-bit integers, doubles and strings. Fields are
 * written in declaration order from values given by name (0 or "" when not given).
 */
final class CtfWriter {
    private final TraceClass meta;
    private final int eventsPerPacket;
    private final List<byte[]> events = new ArrayList<>();
    private final List<Long> times = new ArrayList<>();
    /** Packet number after which two sequence numbers are skipped (as if two packets were lost), or -1. */
    int losePacketsAfter = -1;

    CtfWriter(TraceClass meta, int eventsPerPacket) {
        this.meta = meta;
        this.eventsPerPacket = eventsPerPacket;
    }

    void event(String name, long ts, Map<String, Object> values) {
        EventClass ec = meta.streams.get(0L).events.values().stream().filter(e -> e.name().equals(name))
                .findFirst().orElseThrow(() -> new IllegalArgumentException(name));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        putLong(out, ec.id());
        putLong(out, ts);
        for (FieldType.Member m : ((FieldType.StructType) ec.payload()).members()) {
            String key = m.name().startsWith("_") ? m.name().substring(1) : m.name();
            Object v = values.get(key);
            switch (m.type()) {
                case FieldType.IntegerType i -> putLong(out, v == null ? 0 : ((Number) v).longValue());
                case FieldType.FloatType f -> putLong(out, Double.doubleToRawLongBits(v == null ? 0 : ((Number) v).doubleValue()));
                case FieldType.StringType s -> {
                    out.writeBytes((v == null ? "" : v.toString()).getBytes(StandardCharsets.UTF_8));
                    out.write(0);
                }
                default -> throw new IllegalArgumentException("unsupported " + m.type());
            }
        }
        events.add(out.toByteArray());
        times.add(ts);
    }

    private static void putLong(ByteArrayOutputStream out, long v) {
        out.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array());
    }

    void write(Path dir, String metadataText) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("metadata"), metadataText);
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        long seq = 0;
        for (int start = 0; start < events.size(); start += eventsPerPacket) {
            int end = Math.min(events.size(), start + eventsPerPacket);
            int headerBytes = 4 + 16 + 8 + 8 + 5 * 8;
            int content = headerBytes;
            for (int i = start; i < end; i++) {
                content += events.get(i).length;
            }
            int packet = (content + 255) / 256 * 256;
            ByteBuffer b = ByteBuffer.allocate(packet).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(0xC1FC1FC1);
            b.put(new byte[16]);
            b.putLong(0);
            b.putLong(0);
            b.putLong(packet * 8L);
            b.putLong(content * 8L);
            b.putLong(times.get(start));
            b.putLong(times.get(end - 1));
            b.putLong(seq++);
            if (seq - 1 == losePacketsAfter) {
                seq += 2;
            }
            for (int i = start; i < end; i++) {
                b.put(events.get(i));
            }
            file.writeBytes(b.array());
        }
        Files.write(dir.resolve("stream_0"), file.toByteArray());
    }
}
