package org.hetscope.formats.ctf.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.formats.ctf.meta.FieldType.ArrayType;
import org.hetscope.formats.ctf.meta.FieldType.BlobType;
import org.hetscope.formats.ctf.meta.FieldType.EnumMapping;
import org.hetscope.formats.ctf.meta.FieldType.EnumType;
import org.hetscope.formats.ctf.meta.FieldType.FixedStringType;
import org.hetscope.formats.ctf.meta.FieldType.FloatType;
import org.hetscope.formats.ctf.meta.FieldType.IntegerType;
import org.hetscope.formats.ctf.meta.FieldType.Member;
import org.hetscope.formats.ctf.meta.FieldType.OptionalType;
import org.hetscope.formats.ctf.meta.FieldType.Option;
import org.hetscope.formats.ctf.meta.FieldType.Order;
import org.hetscope.formats.ctf.meta.FieldType.SequenceType;
import org.hetscope.formats.ctf.meta.FieldType.StringType;
import org.hetscope.formats.ctf.meta.FieldType.StructType;
import org.hetscope.formats.ctf.meta.FieldType.VarIntType;
import org.hetscope.formats.ctf.meta.FieldType.VariantType;

/**
 * Parses CTF 2 metadata: a sequence of JSON fragments, each introduced by the record separator U+001E
 * (preamble, trace-class, clock-class, data-stream-class, event-record-class, field-alias).
 */
public final class Ctf2Parser {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final TraceClass trace = new TraceClass();
    private final Map<String, JsonNode> aliases = new HashMap<>();
    /** Field classes being read inside one another (aliases count: a cycle of aliases is refused the same way). */
    private int depth;

    private Ctf2Parser() {
        trace.ctfVersion = 2;
    }

    public static TraceClass parse(String text) throws MetadataException {
        Ctf2Parser parser = new Ctf2Parser();
        String[] fragments = text.split("\u001e");
        int index = 0;
        for (String f : fragments) {
            if (f.isBlank()) {
                continue;
            }
            index++;
            try {
                parser.fragment(JSON.readTree(f));
            } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
                // the JSON parser's own limits (nesting, token sizes), in words rather than its settings' names
                throw new MetadataException("fragment " + index + at(e), "bad CTF 2 fragment: JSON nested or sized "
                        + "beyond the parser's limits (damaged or hostile metadata)");
            } catch (IOException | RuntimeException e) {
                throw new MetadataException("fragment " + index, "bad CTF 2 fragment: " + e.getMessage());
            } catch (MetadataException e) {
                throw new MetadataException("fragment " + index + ", " + e.position(), e.getMessage());
            }
        }
        return parser.trace;
    }

    private void fragment(JsonNode n) throws MetadataException {
        String type = n.path("type").asText();
        switch (type) {
            case "preamble" -> {
                if (n.path("version").asInt() != 2) {
                    throw new MetadataException("preamble", "unsupported CTF version " + n.path("version"));
                }
                trace.uuid = uuid(n.get("uuid"));
            }
            case "field-alias" -> aliases.put(n.path("name").asText(), n.get("field-class"));
            case "trace-class" -> {
                if (n.has("packet-header-field-class")) {
                    trace.packetHeader = field(n.get("packet-header-field-class"));
                }
                JsonNode env = n.get("environment");
                if (env != null) {
                    for (Iterator<Map.Entry<String, JsonNode>> it = env.fields(); it.hasNext(); ) {
                        Map.Entry<String, JsonNode> e = it.next();
                        trace.env.put(e.getKey(), e.getValue().asText());
                    }
                }
            }
            case "clock-class" -> {
                String name = n.has("name") ? n.get("name").asText() : n.path("id").asText("clock");
                JsonNode off = n.path("offset-from-origin");
                boolean absolute = n.has("origin") || n.path("origin-is-unix-epoch").asBoolean(false);
                trace.clocks.put(name, new ClockClass(name, n.path("frequency").asLong(1_000_000_000L),
                        off.path("seconds").asLong(0), off.path("cycles").asLong(0), absolute,
                        uuid(n.get("uuid")), n.path("description").asText(null)));
                if (n.has("id")) {
                    trace.clocks.putIfAbsent(n.get("id").asText(), trace.clocks.get(name));
                }
            }
            case "data-stream-class" -> {
                StreamClass s = trace.stream(n.path("id").asLong(0));
                if (n.has("default-clock-class-name")) {
                    s.defaultClock = n.get("default-clock-class-name").asText();
                } else if (n.has("default-clock-class-id")) {
                    s.defaultClock = n.get("default-clock-class-id").asText();
                }
                if (n.has("packet-context-field-class")) {
                    s.packetContext = field(n.get("packet-context-field-class"));
                }
                if (n.has("event-record-header-field-class")) {
                    s.eventHeader = field(n.get("event-record-header-field-class"));
                }
                if (n.has("event-record-common-context-field-class")) {
                    s.eventContext = field(n.get("event-record-common-context-field-class"));
                }
            }
            case "event-record-class" -> {
                long sid = n.path("data-stream-class-id").asLong(0);
                long id = n.path("id").asLong(0);
                FieldType ctx = n.has("specific-context-field-class") ? field(n.get("specific-context-field-class")) : null;
                FieldType payload = n.has("payload-field-class") ? field(n.get("payload-field-class")) : null;
                Map<String, String> attrs = new LinkedHashMap<>();
                JsonNode ua = n.path("user-attributes").path("babeltrace.org,2020").path("log-level");
                if (!ua.isMissingNode()) {
                    attrs.put("loglevel", ua.asText());
                }
                String name = n.path("name").asText("event" + id);
                trace.stream(sid).events.put(id, new EventClass(id, name, sid, ctx, payload, attrs));
            }
            default -> { }
        }
    }

    private static String uuid(JsonNode u) {
        if (u == null || !u.isArray() || u.size() != 16) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 16; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) {
                b.append('-');
            }
            b.append(String.format("%02x", u.get(i).asInt() & 0xff));
        }
        return b.toString();
    }

    private static String at(com.fasterxml.jackson.core.JacksonException e) {
        var loc = e.getLocation();
        return loc == null || loc.getLineNr() < 0 ? "" : ", line " + loc.getLineNr() + " column " + loc.getColumnNr();
    }

    private FieldType field(JsonNode n) throws MetadataException {
        if (++depth > Nesting.MAX_DEPTH) {
            throw new MetadataException("field class", Nesting.tooDeep() + " (or field aliases naming each other)");
        }
        try {
            return fieldAt(n);
        } finally {
            depth--;
        }
    }

    private FieldType fieldAt(JsonNode n) throws MetadataException {
        if (n == null) {
            throw new MetadataException("field class", "missing field class");
        }
        if (n.isTextual()) {
            JsonNode a = aliases.get(n.asText());
            if (a == null) {
                throw new MetadataException("field class", "unknown field alias '" + n.asText() + "'");
            }
            return field(a);
        }
        String type = n.path("type").asText();
        int align = n.path("alignment").asInt(1);
        Order order = "big-endian".equals(n.path("byte-order").asText()) ? Order.BE : Order.LE;
        int base = n.path("preferred-display-base").asInt(10);
        String role = n.has("roles") && n.get("roles").size() > 0 ? n.get("roles").get(0).asText() : null;
        return switch (type) {
            case "fixed-length-bit-array", "fixed-length-bit-map", "fixed-length-boolean",
                 "fixed-length-unsigned-integer" ->
                    new IntegerType(n.path("length").asInt(), align, false, order,
                            type.contains("bit-") && !n.has("preferred-display-base") ? 16 : base, false, null, role);
            case "fixed-length-signed-integer" ->
                    new IntegerType(n.path("length").asInt(), align, true, order, base, false, null, role);
            case "fixed-length-unsigned-enumeration", "fixed-length-signed-enumeration" ->
                    new EnumType(new IntegerType(n.path("length").asInt(), align, type.contains("-signed-"), order,
                            base, false, null, role), mappings(n.get("mappings")));
            case "variable-length-unsigned-integer", "variable-length-signed-integer" ->
                    new VarIntType(type.contains("-signed-"), base, role);
            case "variable-length-unsigned-enumeration", "variable-length-signed-enumeration" ->
                    new EnumType(new VarIntType(type.contains("-signed-"), base, role), mappings(n.get("mappings")));
            case "fixed-length-floating-point-number" -> {
                int len = n.path("length").asInt(64);
                yield len == 32 ? new FloatType(8, 24, align, order) : new FloatType(11, 53, align, order);
            }
            case "null-terminated-string" -> new StringType();
            case "static-length-string" -> new FixedStringType(n.path("length").asInt(), null);
            case "dynamic-length-string" -> new FixedStringType(0, location(n.get("length-field-location")));
            case "static-length-blob" -> new BlobType(n.path("length").asInt(), null);
            case "dynamic-length-blob" -> new BlobType(0, location(n.get("length-field-location")));
            case "structure" -> {
                List<Member> members = new ArrayList<>();
                for (JsonNode m : n.path("member-classes")) {
                    members.add(new Member(m.path("name").asText(), field(m.get("field-class"))));
                }
                yield new StructType(List.copyOf(members), n.path("minimum-alignment").asInt(1));
            }
            case "static-length-array" -> new ArrayType(field(n.get("element-field-class")),
                    n.path("length").asInt(), n.path("minimum-alignment").asInt(1));
            case "dynamic-length-array" -> new SequenceType(field(n.get("element-field-class")),
                    location(n.get("length-field-location")), n.path("minimum-alignment").asInt(1));
            case "optional" -> new OptionalType(field(n.get("field-class")), location(n.get("selector-field-location")),
                    n.has("selector-field-ranges") ? ranges(n.get("selector-field-ranges")) : null);
            case "variant" -> {
                List<Option> options = new ArrayList<>();
                int k = 0;
                for (JsonNode o : n.path("options")) {
                    options.add(new Option(o.has("name") ? o.get("name").asText() : "option" + k,
                            field(o.get("field-class")), ranges(o.get("selector-field-ranges"))));
                    k++;
                }
                yield new VariantType(location(n.get("selector-field-location")), List.copyOf(options));
            }
            default -> throw new MetadataException("field class", "unknown CTF 2 field class type '" + type + "'");
        };
    }

    private static List<EnumMapping> mappings(JsonNode m) {
        List<EnumMapping> out = new ArrayList<>();
        if (m != null) {
            for (Iterator<Map.Entry<String, JsonNode>> it = m.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                for (long[] r : ranges(e.getValue())) {
                    out.add(new EnumMapping(e.getKey(), r[0], r[1]));
                }
            }
        }
        return List.copyOf(out);
    }

    private static List<long[]> ranges(JsonNode r) {
        List<long[]> out = new ArrayList<>();
        if (r != null) {
            for (JsonNode pair : r) {
                out.add(new long[] {pair.get(0).bigIntegerValue().longValue(), pair.get(1).bigIntegerValue().longValue()});
            }
        }
        return out;
    }

    /** Converts a CTF 2 field location into the dotted path form that TSDL uses. */
    private static String location(JsonNode loc) throws MetadataException {
        if (loc == null) {
            throw new MetadataException("field class", "missing field location");
        }
        List<String> parts = new ArrayList<>();
        String origin = null;
        JsonNode path = loc;
        if (loc.isObject()) {
            origin = loc.has("origin") ? loc.get("origin").asText() : null;
            path = loc.get("path");
        } else if (loc.isArray() && loc.size() > 0) {
            String first = loc.get(0).asText();
            if (scopePrefix(first) != null) {
                origin = first;
                List<JsonNode> rest = new ArrayList<>();
                for (int i = 1; i < loc.size(); i++) {
                    rest.add(loc.get(i));
                }
                for (JsonNode j : rest) {
                    parts.add(j.asText());
                }
                return scopePrefix(origin) + "." + String.join(".", parts);
            }
        }
        for (JsonNode j : path) {
            if (!j.isNull()) {
                parts.add(j.asText());
            }
        }
        String joined = String.join(".", parts);
        return origin == null ? joined : scopePrefix(origin) + "." + joined;
    }

    private static String scopePrefix(String origin) {
        return switch (origin) {
            case "packet-header" -> "trace.packet.header";
            case "packet-context" -> "stream.packet.context";
            case "event-record-header" -> "stream.event.header";
            case "event-record-common-context" -> "stream.event.context";
            case "event-record-specific-context" -> "event.context";
            case "event-record-payload" -> "event.fields";
            default -> null;
        };
    }
}
