package org.hetscope.formats.ctf;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.formats.ctf.meta.EventClass;
import org.hetscope.formats.ctf.meta.FieldType;

/**
 * The current event of a stream: a view valid until the cursor moves on (copy what you keep). Fields are found
 * by name in the payload first, then the event context, the stream event context and the packet context; names
 * may be given with or without the leading underscore of CTF 1.8.
 */
public final class CtfEvent {
    private final StreamDecoder d;
    private final String streamName;

    CtfEvent(StreamDecoder d) {
        this.d = d;
        this.streamName = d.file.getFileName().toString();
    }

    public String name() {
        return d.event.meta.name();
    }

    public EventClass eventClass() {
        return d.event.meta;
    }

    /** Nanoseconds from the clock origin (the Unix epoch for LTTng), offsets applied. */
    public long timestampNs() {
        return d.timestampNs();
    }

    /** The clock that timestamps this event's stream, or null when the trace has none. */
    public org.hetscope.formats.ctf.meta.ClockClass clock() {
        return d.stream.clock;
    }

    /** The raw clock value in cycles. */
    public long cycles() {
        return d.clock;
    }

    public long streamClassId() {
        return d.stream.meta.id;
    }

    /** The data stream file (e.g. {@code channel0_1}). */
    public Path streamFile() {
        return d.file;
    }

    public String streamName() {
        return streamName;
    }

    /** The trace folder (the one holding {@code metadata}). */
    public Path traceDir() {
        return d.trace.dir;
    }

    /** The trace's environment (hostname, domain, tracer, ...). */
    public Map<String, String> env() {
        return d.trace.meta.env;
    }

    // ---------------------------------------------------------------- typed access

    /**
     * A field a mapping needs is not in the event: its metadata declares the event class with other fields (another
     * tracer version, or damaged metadata). The event can still be kept generically.
     */
    public static final class MissingFieldException extends IllegalArgumentException {
        private final String event;
        private final String field;

        MissingFieldException(String event, String field) {
            super("event " + event + " has no field '" + field + "'");
            this.event = event;
            this.field = field;
        }

        public String event() {
            return event;
        }

        public String field() {
            return field;
        }
    }

    public boolean has(String field) {
        return locate(field) >= 0;
    }

    /** An integer or enumeration field; for unsigned 64-bit values the raw bit pattern. */
    public long getLong(String field) {
        long at = locate(field);
        if (at < 0) {
            throw new MissingFieldException(name(), field);
        }
        return d.tape[(int) at];
    }

    public long getLong(String field, long absent) {
        long at = locate(field);
        return at < 0 ? absent : d.tape[(int) at];
    }

    public double getDouble(String field) {
        long at = locate(field);
        if (at < 0) {
            throw new MissingFieldException(name(), field);
        }
        FieldNode n = foundNode;
        long v = d.tape[(int) at];
        return n instanceof FieldNode.Float ? Double.longBitsToDouble(v) : (double) v;
    }

    /**
     * An integer of the contexts only (event context, stream event context, packet context), skipping the
     * payload: for who-is-running fields such as {@code vtid}/{@code vpid}, which a payload may also name for
     * another task (a kernel {@code sched_wakeup}'s {@code tid}).
     */
    public long contextLong(String field, long absent) {
        long at = locate(field, true);
        return at < 0 ? absent : d.tape[(int) at];
    }

    /** A string of the contexts only; null when absent. */
    public String contextString(String field) {
        long at = locate(field, true);
        if (at < 0) {
            return null;
        }
        FieldNode n = foundNode;
        return n instanceof FieldNode.Str || n instanceof FieldNode.Bytes ? text(n, (int) at)
                : Long.toString(d.tape[(int) at]);
    }

    /**
     * Whether a text field of the contexts holds exactly {@code utf8} (up to its first NUL for text arrays), read in
     * place without building a string: for mappers that remember the last process or thread name.
     */
    public boolean contextTextIs(String field, byte[] utf8) {
        long at = locate(field, true);
        if (at < 0 || !(foundNode instanceof FieldNode.Str || foundNode instanceof FieldNode.Bytes)) {
            return false;
        }
        int off = (int) d.tape[(int) at];
        int len = (int) d.tape[(int) at + 1];
        ByteBuffer b = d.le;
        if (len < utf8.length) {
            return false;
        }
        for (int i = 0; i < utf8.length; i++) {
            if (b.get(off + i) != utf8[i]) {
                return false;
            }
        }
        // a text array may be padded with NULs after the name; a string field's length is exact
        return len == utf8.length || foundNode instanceof FieldNode.Bytes && b.get(off + utf8.length) == 0;
    }

    /** A string field (or text array); null when absent. */
    public String getString(String field) {
        long at = locate(field);
        if (at < 0) {
            return null;
        }
        FieldNode n = foundNode;
        if (n instanceof FieldNode.Str || n instanceof FieldNode.Bytes) {
            return text(n, (int) at);
        }
        return Long.toString(d.tape[(int) at]);
    }

    private FieldNode foundNode;

    private static final long ABSENT = -1;
    private static final long VARIABLE = 1L << 40;

    /**
     * Tape slot of the named top-level field, searching the scopes from the payload outwards; -1 if absent.
     * Where a name is (scope, member, slot offset when all members before it have a fixed size) is found once
     * per event class and cached, so a lookup costs one hash probe.
     */
    private long locate(String field) {
        return locate(field, false);
    }

    private long locate(String field, boolean contextsOnly) {
        CompiledTrace.Event ev = d.event;
        var cache = contextsOnly ? ev.contextLookups : ev.lookups;
        Long where = cache.get(field);
        if (where == null) {
            where = find(field, contextsOnly ? 1 : 0);
            cache.put(field, where);
        }
        long w = where;
        if (w == ABSENT) {
            return -1;
        }
        int scope = (int) (w >>> 48);
        int member = (int) (w >>> 24) & 0xFFFF;
        FieldNode.Struct root = (FieldNode.Struct) scopeRoot(scope);
        foundNode = root.members[member];
        int start = scopeStart(scope);
        if ((w & VARIABLE) == 0) {
            return start + (int) (w & 0xFFFFFF);
        }
        int pos = start;
        for (int i = 0; i < member; i++) {
            pos = skip(root.members[i], pos);
        }
        return pos;
    }

    private FieldNode scopeRoot(int scope) {
        return switch (scope) {
            case 0 -> d.event.payload;
            case 1 -> d.event.context;
            case 2 -> d.stream.eventContext;
            default -> d.stream.packetContext;
        };
    }

    private int scopeStart(int scope) {
        return switch (scope) {
            case 0 -> d.payloadStart;
            case 1 -> d.specificContextStart;
            case 2 -> d.eventContextStart;
            default -> d.packetContextStart;
        };
    }

    private long find(String field, int firstScope) {
        for (int scope = firstScope; scope < 4; scope++) {
            if (!(scopeRoot(scope) instanceof FieldNode.Struct s)) {
                continue;
            }
            int off = 0;
            boolean fixed = true;
            for (int i = 0; i < s.members.length; i++) {
                FieldNode m = s.members[i];
                if (m.name.equals(field) || m.name.length() == field.length() + 1 && m.name.startsWith("_")
                        && m.name.endsWith(field)) {
                    return (long) scope << 48 | (long) i << 24 | (fixed ? off : VARIABLE);
                }
                int k = m.fixedSlots();
                if (k < 0) {
                    fixed = false;
                } else {
                    off += k;
                }
            }
        }
        return ABSENT;
    }

    private int skip(FieldNode n, int pos) {
        if (n instanceof FieldNode.Str || n instanceof FieldNode.Bytes) {
            return pos + 2;
        }
        if (n instanceof FieldNode.Struct s) {
            for (FieldNode m : s.members) {
                pos = skip(m, pos);
            }
            return pos;
        }
        if (n instanceof FieldNode.Array a) {
            long len = d.tape[pos++];
            for (long i = 0; i < len; i++) {
                pos = skip(a.element, pos);
            }
            return pos;
        }
        if (n instanceof FieldNode.Variant v) {
            return skip(v.options[(int) d.tape[pos]], pos + 1);
        }
        if (n instanceof FieldNode.Optional o) {
            return d.tape[pos] != 0 ? skip(o.inner, pos + 1) : pos + 1;
        }
        return pos + 1; // integers, enumerations, floats: one slot
    }

    private String text(FieldNode n, int at) {
        int off = (int) d.tape[at];
        int len = (int) d.tape[at + 1];
        ByteBuffer b = d.le;
        if (n instanceof FieldNode.Bytes) {
            for (int i = 0; i < len; i++) {
                if (b.get(off + i) == 0) {
                    len = i;
                    break;
                }
            }
        }
        byte[] bytes = new byte[len];
        b.get(off, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------- generic traversal

    /** Visits every shown field: the packet context (without packet sizes and times), the stream event
     *  context, the event context and the payload, each as a scope. Fields babeltrace2 hides are skipped. */
    public void visit(FieldVisitor v) {
        visitScope(v, "packet.context", d.stream.packetContext, d.packetContextStart);
        visitScope(v, "stream.event.context", d.stream.eventContext, d.eventContextStart);
        visitScope(v, "event.context", d.event.context, d.specificContextStart);
        visitScope(v, "event.fields", d.event.payload, d.payloadStart);
    }

    /** Visits only the payload's fields. */
    public void visitPayload(FieldVisitor v) {
        if (d.event.payload instanceof FieldNode.Struct s) {
            int pos = d.payloadStart;
            for (FieldNode m : s.members) {
                pos = walk(v, m, pos);
            }
        }
    }

    /** Which scopes this event shows (those that exist and hold a visible field, or the payload). */
    public List<String> scopes() {
        List<String> out = new ArrayList<>();
        if (d.stream.packetContext != null && d.stream.packetContext.visible) {
            out.add("packet.context");
        }
        if (d.stream.eventContext != null && d.stream.eventContext.visible) {
            out.add("stream.event.context");
        }
        if (d.event.context != null && d.event.context.visible) {
            out.add("event.context");
        }
        if (d.event.payload != null && d.event.payload.visible) {
            out.add("event.fields");
        }
        return out;
    }

    private void visitScope(FieldVisitor v, String scope, FieldNode root, int start) {
        if (root == null || !root.visible) {
            return;
        }
        v.beginScope(scope);
        if (root instanceof FieldNode.Struct s) {
            int pos = start;
            for (FieldNode m : s.members) {
                pos = walk(v, m, pos);
            }
        } else {
            walk(v, root, start);
        }
        v.endScope(scope);
    }

    private String display(FieldNode n) {
        String name = n.name;
        return d.trace.meta.ctfVersion == 1 && name.startsWith("_") ? name.substring(1) : name;
    }

    private int walk(FieldVisitor v, FieldNode n, int pos) {
        if (!n.visible) {
            return skip(n, pos);
        }
        String name = display(n);
        switch (n) {
            case FieldNode.Int i -> {
                v.integer(name, d.tape[pos], i.signed, i.size, i.base);
                return pos + 1;
            }
            case FieldNode.VarInt i -> {
                FieldType.VarIntType t = (FieldType.VarIntType) i.type;
                v.integer(name, d.tape[pos], i.signed, 64, t.base());
                return pos + 1;
            }
            case FieldNode.Enum e -> {
                long val = d.tape[pos];
                boolean signed = e.container instanceof FieldNode.Int ci ? ci.signed
                        : e.container instanceof FieldNode.VarInt vi && vi.signed;
                v.enumeration(name, val, signed, labels((FieldType.EnumType) e.type, val, signed));
                return pos + 1;
            }
            case FieldNode.Float f -> {
                v.real(name, Double.longBitsToDouble(d.tape[pos]));
                return pos + 1;
            }
            case FieldNode.Str s -> {
                v.string(name, text(s, pos));
                return pos + 2;
            }
            case FieldNode.Bytes b -> {
                if (b.text) {
                    v.string(name, text(b, pos));
                } else {
                    byte[] bytes = new byte[(int) d.tape[pos + 1]];
                    d.le.get((int) d.tape[pos], bytes);
                    v.blob(name, bytes);
                }
                return pos + 2;
            }
            case FieldNode.Struct s -> {
                v.beginStruct(name);
                for (FieldNode m : s.members) {
                    pos = walk(v, m, pos);
                }
                v.endStruct(name);
                return pos;
            }
            case FieldNode.Array a -> {
                int len = (int) d.tape[pos++];
                v.beginArray(name, len);
                for (int i = 0; i < len; i++) {
                    pos = walk(v, a.element, pos);
                }
                v.endArray(name);
                return pos;
            }
            case FieldNode.Variant va -> {
                FieldNode opt = va.options[(int) d.tape[pos]];
                v.beginVariant(name, display(opt));
                pos = walk(v, opt, pos + 1);
                v.endVariant(name);
                return pos;
            }
            case FieldNode.Optional o -> {
                if (d.tape[pos] == 0) {
                    v.absent(name);
                    return pos + 1;
                }
                return walk(v, o.inner, pos + 1);
            }
        }
    }

    private static String[] labels(FieldType.EnumType t, long v, boolean signed) {
        List<String> out = new ArrayList<>(1);
        for (FieldType.EnumMapping m : t.mappings()) {
            boolean in = signed ? v >= m.lo() && v <= m.hi()
                    : Long.compareUnsigned(v, m.lo()) >= 0 && Long.compareUnsigned(v, m.hi()) <= 0;
            if (in && !out.contains(m.label())) {
                out.add(m.label());
            }
        }
        return out.toArray(String[]::new);
    }
}
