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
    /**
     * Events of a stream class (for its header and context) or of an event class (for its context and payload)
     * decoded by the {@link FieldNode} interpreter before their scopes are compiled to bytecode; 0: never compile.
     * Generating a class costs about a millisecond while the JVM is cold, which rare event classes never earn back.
     */
    static final int DEFAULT_CODEGEN_AFTER = Boolean.parseBoolean(System.getProperty("hetscope.ctf.codegen", "true"))
            ? 64 : 0;

    final Path dir;
    final TraceClass meta;
    final FieldNode packetHeader;
    final Map<Long, Stream> streams = new LinkedHashMap<>();
    final int registers;
    /** See {@link #DEFAULT_CODEGEN_AFTER}. */
    int codegenAfter = DEFAULT_CODEGEN_AFTER;

    /** A compiled stream class. */
    static final class Stream {
        final StreamClass meta;
        FieldNode packetContext;
        FieldNode eventHeader;
        FieldNode eventContext;
        ClockClass clock;
        /** {@code clock.baseNs()}, which every timestamp conversion needs (two unsigned divisions). */
        long clockBaseNs;
        Event[] dense;
        final Map<Long, Event> byId = new HashMap<>();
        /** Event header and stream event context as bytecode, once compiled (racy publication is safe: see ScopeCode). */
        ScopeCode head;
        int headDecodes;
        boolean headTried;

        Stream(StreamClass meta) {
            this.meta = meta;
        }

        synchronized void compileHead() {
            if (!headTried) {
                head = generate(eventHeader, "eventContextStart", eventContext);
                headTried = true;
            }
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
        /** Event context and payload as bytecode, once compiled. */
        ScopeCode body;
        int bodyDecodes;
        boolean bodyTried;

        Event(EventClass meta, Stream stream) {
            this.meta = meta;
            this.stream = stream;
        }

        synchronized void compileBody() {
            if (!bodyTried) {
                body = generate(context, "payloadStart", payload);
                bodyTried = true;
            }
        }
    }

    /** The scopes' bytecode, or null where it cannot be had (the interpreter then stays, with the same result). */
    private static ScopeCode generate(FieldNode first, String marker, FieldNode second) {
        try {
            return ScopeCompiler.compile(first, marker, second);
        } catch (RuntimeException | LinkageError e) {
            if (Boolean.getBoolean("hetscope.debug")) {
                System.err.println("hetscope: CTF layout kept interpreted: " + e);
            }
            return null;
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
            s.clockBaseNs = s.clock == null ? 0 : s.clock.baseNs();
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
