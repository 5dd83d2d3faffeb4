package org.hetscope.formats.ctf.meta;

import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;

/** Everything the metadata of one CTF trace says: byte order, packet header, clocks, environment, streams. */
public final class TraceClass {
    /** 1 for CTF 1.8 (TSDL), 2 for CTF 2 (JSON). */
    public int ctfVersion = 1;
    public ByteOrder byteOrder = ByteOrder.LITTLE_ENDIAN;
    public String uuid;
    public FieldType packetHeader;
    public final Map<String, ClockClass> clocks = new LinkedHashMap<>();
    public final Map<String, String> env = new LinkedHashMap<>();
    public final Map<Long, StreamClass> streams = new LinkedHashMap<>();

    public StreamClass stream(long id) {
        return streams.computeIfAbsent(id, StreamClass::new);
    }

    /** The clock used for time when a timestamp names none: the only clock, or the first. */
    public ClockClass defaultClock() {
        return clocks.isEmpty() ? null : clocks.values().iterator().next();
    }
}
