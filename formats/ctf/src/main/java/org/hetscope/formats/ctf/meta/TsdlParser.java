package org.hetscope.formats.ctf.meta;

import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hetscope.formats.ctf.meta.FieldType.ArrayType;
import org.hetscope.formats.ctf.meta.FieldType.EnumMapping;
import org.hetscope.formats.ctf.meta.FieldType.EnumType;
import org.hetscope.formats.ctf.meta.FieldType.FloatType;
import org.hetscope.formats.ctf.meta.FieldType.IntegerType;
import org.hetscope.formats.ctf.meta.FieldType.Member;
import org.hetscope.formats.ctf.meta.FieldType.Option;
import org.hetscope.formats.ctf.meta.FieldType.Order;
import org.hetscope.formats.ctf.meta.FieldType.SequenceType;
import org.hetscope.formats.ctf.meta.FieldType.StringType;
import org.hetscope.formats.ctf.meta.FieldType.StructType;
import org.hetscope.formats.ctf.meta.FieldType.VariantType;
import org.hetscope.formats.ctf.meta.TsdlLexer.Kind;
import org.hetscope.formats.ctf.meta.TsdlLexer.Token;

/**
 * Parses CTF 1.8 TSDL metadata text into a {@link TraceClass}: trace/env/clock/stream/event/callsite blocks,
 * typealias and typedef (also inside blocks and structures), integers, floats, strings, enumerations,
 * structures with alignment, arrays and sequences, variants with tags, named struct/enum/variant definitions.
 */
public final class TsdlParser {
    private final List<Token> toks;
    private int p;
    private final Deque<Map<String, FieldType>> scopes = new ArrayDeque<>();
    private final TraceClass trace = new TraceClass();
    private final Nesting nesting = new Nesting();
    /** Type specifiers being parsed inside one another (nested braces). */
    private int depth;

    private TsdlParser(List<Token> toks) {
        this.toks = toks;
        scopes.push(new HashMap<>());
    }

    public static TraceClass parse(String text) throws MetadataException {
        TsdlParser parser = new TsdlParser(TsdlLexer.tokens(text));
        try {
            parser.top();
        } catch (RuntimeException e) {
            throw new MetadataException("line " + parser.peek().line(), "cannot parse metadata: " + e);
        }
        return parser.trace;
    }

    // ---------------------------------------------------------------- tokens

    private Token peek() {
        return toks.get(p);
    }

    private Token peek(int k) {
        return toks.get(Math.min(p + k, toks.size() - 1));
    }

    private Token next() {
        Token t = toks.get(p);
        if (t.kind() != Kind.EOF) {
            p++;
        }
        return t;
    }

    private boolean accept(String s) {
        if (peek().is(s)) {
            p++;
            return true;
        }
        return false;
    }

    private Token expect(String s) throws MetadataException {
        Token t = next();
        if (!t.is(s)) {
            throw error(t, "expected '" + s + "' but found '" + t.text() + "'");
        }
        return t;
    }

    private String ident() throws MetadataException {
        Token t = next();
        if (t.kind() != Kind.IDENT) {
            throw error(t, "expected a name but found '" + t.text() + "'");
        }
        return t.text();
    }

    private static MetadataException error(Token t, String reason) {
        return new MetadataException("line " + t.line(), reason);
    }

    // ---------------------------------------------------------------- scopes

    private void define(String key, FieldType type) {
        scopes.peek().put(key, type);
    }

    private FieldType lookup(String key) {
        for (Map<String, FieldType> s : scopes) {
            FieldType t = s.get(key);
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- top level

    private void top() throws MetadataException {
        while (peek().kind() != Kind.EOF) {
            Token t = peek();
            if (accept(";")) {
                continue;
            }
            if (t.is("typealias")) {
                typealias();
            } else if (t.is("typedef")) {
                typedef();
            } else if (t.kind() == Kind.IDENT && peek(1).is("{")
                    && switch (t.text()) {
                        case "trace", "env", "clock", "stream", "event", "callsite" -> true;
                        default -> false;
                    }) {
                next();
                block(t.text());
            } else {
                typeSpecifier();
                expect(";");
            }
        }
    }

    private void typealias() throws MetadataException {
        expect("typealias");
        FieldType t = typeSpecifier();
        t = abstractDeclarator(t);
        expect(":=");
        StringBuilder name = new StringBuilder();
        while (!peek().is(";")) {
            Token n = next();
            if (n.kind() == Kind.EOF) {
                throw error(n, "unterminated typealias");
            }
            if (n.is("*")) {
                continue;
            }
            if (!name.isEmpty()) {
                name.append(' ');
            }
            name.append(n.text());
        }
        expect(";");
        define(name.toString(), t);
    }

    /** Handles "[N]" after a typealias source type (rare). */
    private FieldType abstractDeclarator(FieldType t) throws MetadataException {
        List<String> dims = new ArrayList<>();
        while (accept("[")) {
            dims.add(pathUntil("]"));
        }
        return applyDims(t, dims);
    }

    private void typedef() throws MetadataException {
        expect("typedef");
        FieldType t = typeSpecifier();
        do {
            Declarator d = declarator(t);
            define(d.name, d.type);
        } while (accept(","));
        expect(";");
    }

    private void block(String kind) throws MetadataException {
        expect("{");
        scopes.push(new HashMap<>());
        Map<String, Object> values = new LinkedHashMap<>();
        while (!accept("}")) {
            if (accept(";")) {
                continue;
            }
            if (peek().is("typealias")) {
                typealias();
                continue;
            }
            if (peek().is("typedef")) {
                typedef();
                continue;
            }
            Token at = peek();
            StringBuilder key = new StringBuilder(ident());
            while (accept(".")) {
                key.append('.').append(ident());
            }
            if (accept(":=")) {
                values.put(key.toString(), typeSpecifier());
            } else if (accept("=")) {
                values.put(key.toString(), value());
            } else {
                throw error(at, "expected '=' or ':=' after '" + key + "' in " + kind + " block");
            }
            expect(";");
        }
        scopes.pop();
        accept(";");
        apply(kind, values);
    }

    private Object value() throws MetadataException {
        Token t = peek();
        if (t.kind() == Kind.STRING) {
            next();
            return t.text();
        }
        if (t.is("-") || t.is("+") || t.kind() == Kind.NUMBER) {
            return number();
        }
        if (t.kind() == Kind.IDENT) {
            StringBuilder b = new StringBuilder(ident());
            while (accept(".")) {
                b.append('.').append(next().text());
            }
            return b.toString();
        }
        throw error(t, "unexpected '" + t.text() + "'");
    }

    private long number() throws MetadataException {
        boolean neg = false;
        if (accept("-")) {
            neg = true;
        } else {
            accept("+");
        }
        Token t = next();
        if (t.kind() != Kind.NUMBER) {
            throw error(t, "expected a number but found '" + t.text() + "'");
        }
        long v = parseNumber(t);
        return neg ? -v : v;
    }

    private static long parseNumber(Token t) throws MetadataException {
        String s = t.text().toLowerCase(Locale.ROOT);
        while (s.endsWith("u") || s.endsWith("l")) {
            s = s.substring(0, s.length() - 1);
        }
        try {
            if (s.startsWith("0x")) {
                return Long.parseUnsignedLong(s.substring(2), 16);
            }
            if (s.startsWith("0b")) {
                return Long.parseUnsignedLong(s.substring(2), 2);
            }
            if (s.length() > 1 && s.startsWith("0")) {
                return Long.parseUnsignedLong(s.substring(1), 8);
            }
            return Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            throw error(t, "bad number '" + t.text() + "'");
        }
    }

    // ---------------------------------------------------------------- blocks into the trace class

    private void apply(String kind, Map<String, Object> v) throws MetadataException {
        switch (kind) {
            case "trace" -> {
                if (v.get("byte_order") instanceof String bo) {
                    trace.byteOrder = switch (bo) {
                        case "be", "network", "big_endian" -> ByteOrder.BIG_ENDIAN;
                        default -> ByteOrder.LITTLE_ENDIAN;
                    };
                }
                if (v.get("uuid") instanceof String u) {
                    trace.uuid = u;
                }
                if (v.get("packet.header") instanceof FieldType t) {
                    trace.packetHeader = t;
                }
            }
            case "env" -> v.forEach((k, val) -> trace.env.put(k, String.valueOf(val)));
            case "clock" -> {
                String name = String.valueOf(v.getOrDefault("name", "clock" + trace.clocks.size()));
                long freq = asLong(v.get("freq"), 1_000_000_000L);
                ClockClass c = new ClockClass(name, freq == 0 ? 1_000_000_000L : freq, asLong(v.get("offset_s"), 0),
                        asLong(v.get("offset"), 0), "true".equalsIgnoreCase(String.valueOf(v.get("absolute")))
                        || "1".equals(String.valueOf(v.get("absolute"))),
                        (String) (v.get("uuid") instanceof String s ? s : null),
                        (String) (v.get("description") instanceof String s ? s : null));
                trace.clocks.put(name, c);
            }
            case "stream" -> {
                StreamClass s = trace.stream(asLong(v.get("id"), 0));
                if (v.get("packet.context") instanceof FieldType t) {
                    s.packetContext = t;
                }
                if (v.get("event.header") instanceof FieldType t) {
                    s.eventHeader = t;
                }
                if (v.get("event.context") instanceof FieldType t) {
                    s.eventContext = t;
                }
            }
            case "event" -> {
                long sid = asLong(v.get("stream_id"), 0);
                long id = asLong(v.get("id"), 0);
                Map<String, String> attrs = new LinkedHashMap<>();
                v.forEach((k, val) -> {
                    if (!(val instanceof FieldType) && !k.equals("name") && !k.equals("id") && !k.equals("stream_id")) {
                        attrs.put(k, String.valueOf(val));
                    }
                });
                FieldType ctx = v.get("context") instanceof FieldType t ? t : null;
                FieldType fields = v.get("fields") instanceof FieldType t ? t : null;
                String name = String.valueOf(v.getOrDefault("name", "event" + id));
                trace.stream(sid).events.put(id, new EventClass(id, name, sid, ctx, fields, attrs));
            }
            default -> { }
        }
    }

    private static long asLong(Object o, long dflt) {
        if (o instanceof Long l) {
            return l;
        }
        if (o instanceof String s) {
            if (s.equalsIgnoreCase("true")) {
                return 1;
            }
            if (s.equalsIgnoreCase("false")) {
                return 0;
            }
        }
        return dflt;
    }

    // ---------------------------------------------------------------- types

    private FieldType typeSpecifier() throws MetadataException {
        Token t = peek();
        if (++depth > Nesting.MAX_DEPTH) {
            throw error(t, Nesting.tooDeep());
        }
        try {
            return checked(typeSpecifierAt(t), t);
        } finally {
            depth--;
        }
    }

    /** {@code type}, unless it nests too deeply (built from named types used inside one another). */
    private FieldType checked(FieldType type, Token at) throws MetadataException {
        if (nesting.tooDeep(type)) {
            throw error(at, Nesting.tooDeep());
        }
        return type;
    }

    private FieldType typeSpecifierAt(Token t) throws MetadataException {
        if (t.kind() != Kind.IDENT) {
            throw error(t, "expected a type but found '" + t.text() + "'");
        }
        switch (t.text()) {
            case "integer" -> {
                next();
                return integer(attributes());
            }
            case "floating_point" -> {
                next();
                Map<String, Object> a = attributes();
                int exp = (int) asLong(a.get("exp_dig"), 8);
                int mant = (int) asLong(a.get("mant_dig"), 24);
                int align = (int) asLong(a.get("align"), 8);
                return new FloatType(exp, mant, align, order(a.get("byte_order")));
            }
            case "string" -> {
                next();
                if (peek().is("{")) {
                    attributes();
                }
                return new StringType();
            }
            case "enum" -> {
                next();
                return enumeration();
            }
            case "struct" -> {
                next();
                return structure();
            }
            case "variant" -> {
                next();
                return variant();
            }
            case "const", "volatile" -> {
                while (peek().is("const") || peek().is("volatile")) {
                    next();
                }
                return typeSpecifierAt(peek());
            }
            default -> {
                StringBuilder name = new StringBuilder(ident());
                while (peek().kind() == Kind.IDENT && lookup(name + " " + peek().text()) != null) {
                    name.append(' ').append(ident());
                }
                FieldType ft = lookup(name.toString());
                if (ft == null) {
                    throw error(t, "unknown type '" + name + "'");
                }
                return ft;
            }
        }
    }

    private Map<String, Object> attributes() throws MetadataException {
        expect("{");
        Map<String, Object> a = new HashMap<>();
        while (!accept("}")) {
            if (accept(";")) {
                continue;
            }
            String key = ident();
            expect("=");
            a.put(key, value());
            expect(";");
        }
        return a;
    }

    private static Order order(Object o) {
        if (o == null) {
            return Order.NATIVE;
        }
        return switch (String.valueOf(o)) {
            case "be", "network", "big_endian" -> Order.BE;
            case "le", "little_endian" -> Order.LE;
            default -> Order.NATIVE;
        };
    }

    private static IntegerType integer(Map<String, Object> a) {
        int size = (int) asLong(a.get("size"), 32);
        int align = (int) asLong(a.get("align"), size % 8 == 0 ? 8 : 1);
        boolean signed = asLong(a.get("signed"), 0) != 0;
        int base = 10;
        Object b = a.get("base");
        if (b instanceof Long l) {
            base = l.intValue();
        } else if (b instanceof String s) {
            base = switch (s) {
                case "x", "X", "p", "hex", "hexadecimal" -> 16;
                case "o", "oct", "octal" -> 8;
                case "b", "bin", "binary" -> 2;
                default -> 10;
            };
        }
        Object enc = a.get("encoding");
        boolean text = enc != null && !String.valueOf(enc).equalsIgnoreCase("none");
        String clock = null;
        if (a.get("map") instanceof String m && m.startsWith("clock.")) {
            String rest = m.substring("clock.".length());
            clock = rest.endsWith(".value") ? rest.substring(0, rest.length() - ".value".length()) : rest;
        }
        return new IntegerType(size, align, signed, order(a.get("byte_order")), base, text, clock, null);
    }

    private FieldType enumeration() throws MetadataException {
        String name = peek().kind() == Kind.IDENT ? ident() : null;
        FieldType container = null;
        if (accept(":")) {
            container = typeSpecifier();
        }
        if (!peek().is("{")) {
            FieldType t = lookup("enum " + name);
            if (t == null) {
                throw error(peek(), "unknown enum '" + name + "'");
            }
            return t;
        }
        if (container == null) {
            container = lookup("int");
            if (container == null) {
                container = new IntegerType(32, 8, true, Order.NATIVE, 10, false, null, null);
            }
        }
        expect("{");
        List<EnumMapping> maps = new ArrayList<>();
        long nextValue = 0;
        while (!accept("}")) {
            if (accept(",")) {
                continue;
            }
            Token lt = next();
            if (lt.kind() != Kind.IDENT && lt.kind() != Kind.STRING) {
                throw error(lt, "expected an enumerator but found '" + lt.text() + "'");
            }
            long lo = nextValue;
            long hi = nextValue;
            if (accept("=")) {
                lo = number();
                hi = lo;
                if (accept("...")) {
                    hi = number();
                }
            }
            maps.add(new EnumMapping(lt.text(), lo, hi));
            nextValue = hi + 1;
        }
        EnumType e = new EnumType(container, List.copyOf(maps));
        if (name != null) {
            define("enum " + name, e);
        }
        return e;
    }

    private FieldType structure() throws MetadataException {
        String name = peek().kind() == Kind.IDENT ? ident() : null;
        if (!peek().is("{")) {
            FieldType t = lookup("struct " + name);
            if (t == null) {
                throw error(peek(), "unknown struct '" + name + "'");
            }
            return alignSuffix(t);
        }
        expect("{");
        scopes.push(new HashMap<>());
        List<Member> members = new ArrayList<>();
        while (!accept("}")) {
            fieldDeclarations(members);
        }
        scopes.pop();
        StructType s = new StructType(List.copyOf(members), 1);
        s = (StructType) alignSuffix(s);
        if (name != null) {
            define("struct " + name, s);
        }
        return s;
    }

    private FieldType alignSuffix(FieldType t) throws MetadataException {
        if (peek().is("align") && peek(1).is("(")) {
            next();
            expect("(");
            int a = (int) number();
            expect(")");
            if (t instanceof StructType s) {
                return new StructType(s.members(), Math.max(a, s.align()));
            }
        }
        return t;
    }

    private FieldType variant() throws MetadataException {
        String name = peek().kind() == Kind.IDENT ? ident() : null;
        String tag = null;
        if (accept("<")) {
            tag = pathUntil(">");
        }
        if (!peek().is("{")) {
            FieldType t = lookup("variant " + name);
            if (!(t instanceof VariantType v)) {
                throw error(peek(), "unknown variant '" + name + "'");
            }
            return tag == null ? v : new VariantType(tag, v.options());
        }
        expect("{");
        scopes.push(new HashMap<>());
        List<Member> members = new ArrayList<>();
        while (!accept("}")) {
            fieldDeclarations(members);
        }
        scopes.pop();
        List<Option> options = new ArrayList<>();
        for (Member m : members) {
            options.add(new Option(m.name(), m.type(), null));
        }
        VariantType v = new VariantType(tag, List.copyOf(options));
        if (name != null) {
            define("variant " + name, v);
        }
        return v;
    }

    private String pathUntil(String close) throws MetadataException {
        StringBuilder b = new StringBuilder();
        while (!accept(close)) {
            Token t = next();
            if (t.kind() == Kind.EOF) {
                throw error(t, "expected '" + close + "'");
            }
            b.append(t.text());
        }
        return b.toString();
    }

    private void fieldDeclarations(List<Member> into) throws MetadataException {
        if (accept(";")) {
            return;
        }
        if (peek().is("typealias")) {
            typealias();
            return;
        }
        if (peek().is("typedef")) {
            typedef();
            return;
        }
        Token t = peek();
        FieldType type;
        if (t.kind() == Kind.IDENT && switch (t.text()) {
            case "integer", "floating_point", "string", "enum", "struct", "variant", "const" -> false;
            default -> true;
        }) {
            // NAME... FIELD: all identifiers but the last form the type name.
            List<String> words = new ArrayList<>();
            while (peek().kind() == Kind.IDENT) {
                words.add(ident());
            }
            if (words.size() < 2) {
                throw error(t, "expected a type and a field name near '" + t.text() + "'");
            }
            String field = words.remove(words.size() - 1);
            String typeName = String.join(" ", words);
            type = lookup(typeName);
            if (type == null) {
                throw error(t, "unknown type '" + typeName + "'");
            }
            p--; // give the field name back to the declarator
            if (!peek().text().equals(field)) {
                throw error(t, "internal: declarator mismatch");
            }
        } else {
            type = typeSpecifier();
            if (accept(";")) {
                return; // a named type definition inside a struct
            }
        }
        do {
            Declarator d = declarator(type);
            into.add(new Member(d.name, d.type));
        } while (accept(","));
        expect(";");
    }

    private record Declarator(String name, FieldType type) {}

    private Declarator declarator(FieldType type) throws MetadataException {
        while (accept("*")) {
            // pointers are plain integers in CTF; ignore
        }
        String name = ident();
        List<String> dims = new ArrayList<>();
        while (accept("[")) {
            dims.add(pathUntil("]"));
        }
        type = applyDims(type, dims);
        if (accept(":")) {
            number(); // bit-field width: unused by CTF producers
        }
        return new Declarator(name, type);
    }

    private FieldType applyDims(FieldType type, List<String> dims) throws MetadataException {
        if (dims.size() > Nesting.MAX_DEPTH) {
            throw error(peek(), Nesting.tooDeep());
        }
        Token at = peek();
        FieldType out = applyDimsUnchecked(type, dims);
        return dims.isEmpty() ? out : checked(out, at);
    }

    private FieldType applyDimsUnchecked(FieldType type, List<String> dims) throws MetadataException {
        for (int i = dims.size() - 1; i >= 0; i--) {
            String d = dims.get(i);
            if (!d.isEmpty() && Character.isDigit(d.charAt(0))) {
                long n = parseNumber(new Token(Kind.NUMBER, d, peek().line()));
                type = new ArrayType(type, (int) n, 1);
            } else {
                type = new SequenceType(type, d, 1);
            }
        }
        return type;
    }
}
