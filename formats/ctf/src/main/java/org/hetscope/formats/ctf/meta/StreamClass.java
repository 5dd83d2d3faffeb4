package org.hetscope.formats.ctf.meta;

import java.util.LinkedHashMap;
import java.util.Map;

/** A stream class: the layouts shared by all packets and events of its data streams, and its event classes. */
public final class StreamClass {
    public final long id;
    public FieldType packetContext;
    public FieldType eventHeader;
    public FieldType eventContext;
    /** The clock that timestamps without an explicit mapping use (CTF 2 default clock), or null. */
    public String defaultClock;
    public final Map<Long, EventClass> events = new LinkedHashMap<>();

    public StreamClass(long id) {
        this.id = id;
    }
}
