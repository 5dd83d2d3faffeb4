package org.hetscope.formats.ctf;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hetscope.formats.ctf.meta.ClockClass;
import org.hetscope.formats.ctf.meta.EventClass;
import org.hetscope.formats.ctf.meta.MetadataException;
import org.hetscope.formats.ctf.meta.StreamClass;
import org.hetscope.formats.ctf.meta.TraceClass;

/** One trace folder's metadata compiled for decoding. */
final class CompiledTrace {
    final Path dir;
    final TraceClass meta;
    final FieldNode packetHeader;
    final Map<Long, Stream> streams = new LinkedHashMap<>();
    final int registers;

    /** A compiled stream class. */
    static final class Stream {
        final StreamClass meta;
        FieldNode packetContext;
        FieldNode eventHeader;
        FieldNode eventContext;
        ClockClass clock;
        Event[] dense;
        final Map<Long, Event> byId = new HashMap<>();

        Stream(StreamClass meta) {
            this.meta = meta;
        }

        Event event(long id) {
            if (dense != null) {
                return id >= 0 && id < dense.length ? dense[(int) id] : null;
            }
            return byId.get(id);
        }
    }

    /** A compiled event class. */
    static final class Event {
        final EventClass meta;
        final Stream stream;
        FieldNode context;
        FieldNode payload;
        /** Index among all event classes of all traces opened together, for counting. */
        int index;
        /** Where each field name asked for is, see {@link CtfEvent}; filled on first use. */
        final java.util.concurrent.ConcurrentHashMap<String, Long> lookups = new java.util.concurrent.ConcurrentHashMap<>();
        final java.util.concurrent.ConcurrentHashMap<String, Long> contextLookups =
                new java.util.concurrent.ConcurrentHashMap<>();

        Event(EventClass meta, Stream stream) {
            this.meta = meta;
            this.stream = stream;
        }
    }

    CompiledTrace(Path dir, TraceClass meta) throws MetadataException {
        this.dir = dir;
        this.meta = meta;
        LayoutCompiler base = new LayoutCompiler(meta.byteOrder, meta.ctfVersion == 2);
        packetHeader = base.compileScope("trace.packet.header", meta.packetHeader);
        for (StreamClass sc : meta.streams.values()) {
            Stream s = new Stream(sc);
            LayoutCompiler c = base.fork();
            s.packetContext = c.compileScope("stream.packet.context", sc.packetContext);
            s.eventHeader = c.compileScope("stream.event.header", sc.eventHeader);
            s.eventContext = c.compileScope("stream.event.context", sc.eventContext);
            String clockName = c.timestampClock != null ? c.timestampClock : sc.defaultClock;
            s.clock = clockName != null && meta.clocks.containsKey(clockName) ? meta.clocks.get(clockName)
                    : meta.defaultClock();
            long maxId = -1;
            for (EventClass ec : sc.events.values()) {
                Event e = new Event(ec, s);
                LayoutCompiler ce = c.fork();
                e.context = ce.compileScope("event.context", ec.context());
                e.payload = ce.compileScope("event.fields", ec.payload());
                s.byId.put(ec.id(), e);
                maxId = Math.max(maxId, ec.id());
            }
            if (maxId < 1 << 16 && s.byId.keySet().stream().allMatch(k -> k >= 0)) {
                s.dense = new Event[(int) maxId + 1];
                s.byId.forEach((k, v) -> s.dense[k.intValue()] = v);
            }
            streams.put(sc.id, s);
        }
        registers = base.registers();
        LayoutCompiler.markVisibility(packetHeader);
        for (Stream s : streams.values()) {
            LayoutCompiler.markVisibility(s.packetContext);
            LayoutCompiler.markVisibility(s.eventHeader);
            LayoutCompiler.markVisibility(s.eventContext);
            for (Event e : s.byId.values()) {
                LayoutCompiler.markVisibility(e.context);
                LayoutCompiler.markVisibility(e.payload);
            }
        }
    }
}
