package org.hetscope.formats.ctf;

import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.formats.ctf.meta.FieldType;
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
import org.hetscope.formats.ctf.meta.MetadataException;

/**
 * Turns declared field types into {@link FieldNode}s for one dynamic scope, resolving length, tag and selector
 * paths along the TSDL scope rules: first the enclosing structures from the innermost outwards, then absolute
 * paths ({@code stream.event.context.x}), then earlier scopes.
 */
final class LayoutCompiler {
    static final String[] SCOPES = {"trace.packet.header", "stream.packet.context", "stream.event.header",
        "stream.event.context", "event.context", "event.fields"};

    private final ByteOrder traceOrder;
    private final Map<String, FieldNode> scopes;
    private final int[] nextReg;
    private final boolean ctf2;
    private final Deque<List<FieldNode>> frames = new ArrayDeque<>();
    private String scope;
    /** The clock named by a clock-mapped timestamp of this scope, if any. */
    String timestampClock;

    LayoutCompiler(ByteOrder traceOrder, boolean ctf2) {
        this(traceOrder, ctf2, new LinkedHashMap<>(), new int[1]);
    }

    private LayoutCompiler(ByteOrder traceOrder, boolean ctf2, Map<String, FieldNode> scopes, int[] nextReg) {
        this.traceOrder = traceOrder;
        this.ctf2 = ctf2;
        this.scopes = scopes;
        this.nextReg = nextReg;
    }

    /** A compiler that sees the scopes compiled so far (for per-event scopes on top of stream scopes). */
    LayoutCompiler fork() {
        return new LayoutCompiler(traceOrder, ctf2, new LinkedHashMap<>(scopes), nextReg);
    }

    int registers() {
        return nextReg[0];
    }

    FieldNode compileScope(String scopeName, FieldType type) throws MetadataException {
        if (type == null) {
            return null;
        }
        scope = scopeName;
        frames.clear();
        FieldNode root = compile("", type, 0);
        scopes.put(scopeName, root);
        return root;
    }

    // Type tests below are if/else chains, not pattern switches: a switch over types bootstraps a chain of method
    // handles at its first use, and metadata is compiled once per run, so every start of `hetscope ctf` would pay
    // for that bootstrap and never gain from it.
    private FieldNode compile(String name, FieldType t, int depth) throws MetadataException {
        if (t instanceof IntegerType i) {
            FieldNode.Int n = new FieldNode.Int(name, i, i.align(), i.size(), i.signed(), bigEndian(i.order()),
                    i.base(), i.clock() != null);
            n.role = role(name, i.role(), i.clock() != null, depth);
            if (i.clock() != null && n.role == Role.TIMESTAMP && timestampClock == null) {
                timestampClock = i.clock();
            }
            if (i.size() < 1 || i.size() > 64) {
                throw new MetadataException(scope + "." + name, "integer size " + i.size() + " not supported");
            }
            return n;
        }
        if (t instanceof EnumType e) {
            FieldNode c = compile(name, e.container(), depth);
            FieldNode.Enum n = new FieldNode.Enum(name, e, c);
            n.role = c.role;
            c.role = 0;
            return n;
        }
        if (t instanceof VarIntType v) {
            FieldNode.VarInt n = new FieldNode.VarInt(name, v, v.signed());
            n.role = role(name, v.role(), false, depth);
            return n;
        }
        if (t instanceof FloatType f) {
            if (f.size() != 32 && f.size() != 64) {
                throw new MetadataException(scope + "." + name, "floating point of " + f.size() + " bits");
            }
            return new FieldNode.Float(name, f, f.align(), f.size(), bigEndian(f.order()));
        }
        if (t instanceof StringType s) {
            return new FieldNode.Str(name, s);
        }
        if (t instanceof FixedStringType s) {
            return new FieldNode.Bytes(name, s, 8, s.length(), s.lengthRef() == null ? -1 : reg(s.lengthRef()), true);
        }
        if (t instanceof BlobType b) {
            return new FieldNode.Bytes(name, b, 8, b.length(), b.lengthRef() == null ? -1 : reg(b.lengthRef()), false);
        }
        if (t instanceof StructType s) {
            List<FieldNode> members = new ArrayList<>();
            frames.push(members);
            for (Member m : s.members()) {
                members.add(compile(m.name(), m.type(), depth + 1));
            }
            frames.pop();
            // A structure is aligned on its most aligned member (CTF 1.8, 4.2.1).
            int align = s.align();
            for (FieldNode m : members) {
                align = Math.max(align, m.align);
            }
            return new FieldNode.Struct(name, s, align, members.toArray(FieldNode[]::new));
        }
        if (t instanceof ArrayType a) {
            if (isTextByte(a.element())) {
                return new FieldNode.Bytes(name, a, a.align(), a.length(), -1, true);
            }
            return new FieldNode.Array(name, a, a.align(), compile(name, a.element(), depth + 1), a.length(), -1);
        }
        if (t instanceof SequenceType q) {
            int r = reg(q.lengthRef());
            if (isTextByte(q.element())) {
                return new FieldNode.Bytes(name, q, q.align(), 0, r, true);
            }
            return new FieldNode.Array(name, q, q.align(), compile(name, q.element(), depth + 1), 0, r);
        }
        if (t instanceof VariantType v) {
            return variant(name, v, depth);
        }
        if (t instanceof OptionalType o) {
            FieldNode selector = resolve(o.selectorRef());
            if (selector == null) {
                throw new MetadataException(scope + "." + name, "cannot find optional selector '" + o.selectorRef()
                        + "'");
            }
            int r = regOf(selector, o.selectorRef());
            long[] ranges = o.ranges() != null ? flatten(o.ranges()) : null;
            return new FieldNode.Optional(name, o, compile(name, o.inner(), depth + 1), ranges, r, selector);
        }
        throw new MetadataException(scope + "." + name, "field type " + t.getClass().getSimpleName()
                + " not supported");
    }

    private static boolean isTextByte(FieldType t) {
        return t instanceof IntegerType i && i.text() && i.size() == 8;
    }

    private FieldNode variant(String name, VariantType v, int depth) throws MetadataException {
        if (v.tagRef() == null) {
            throw new MetadataException(scope + "." + name, "variant without a tag");
        }
        FieldNode tag = resolve(v.tagRef());
        if (tag == null) {
            throw new MetadataException(scope + "." + name, "cannot find variant tag '" + v.tagRef() + "'");
        }
        int r = regOf(tag, v.tagRef());
        List<Option> opts = v.options();
        FieldNode[] options = new FieldNode[opts.size()];
        long[][] ranges = new long[opts.size()][];
        for (int i = 0; i < opts.size(); i++) {
            Option o = opts.get(i);
            options[i] = compile(o.name(), o.type(), depth + 1);
            if (o.ranges() != null) {
                ranges[i] = flatten(o.ranges());
            } else if (tag.type instanceof EnumType e) {
                List<long[]> rs = new ArrayList<>();
                for (EnumMapping m : e.mappings()) {
                    if (sameLabel(m.label(), o.name())) {
                        rs.add(new long[] {m.lo(), m.hi()});
                    }
                }
                ranges[i] = flatten(rs);
            } else {
                ranges[i] = new long[] {i, i};
            }
        }
        return new FieldNode.Variant(name, v, options, ranges, r, tag);
    }

    private static boolean sameLabel(String label, String option) {
        return label.equals(option) || strip(label).equals(strip(option));
    }

    private static String strip(String s) {
        return s.startsWith("_") ? s.substring(1) : s;
    }

    private static long[] flatten(List<long[]> ranges) {
        long[] out = new long[ranges.size() * 2];
        for (int i = 0; i < ranges.size(); i++) {
            out[2 * i] = ranges.get(i)[0];
            out[2 * i + 1] = ranges.get(i)[1];
        }
        return out;
    }

    private boolean bigEndian(Order o) {
        return switch (o) {
            case BE -> true;
            case LE -> false;
            case NATIVE -> traceOrder == ByteOrder.BIG_ENDIAN;
        };
    }

    private int role(String name, String ctf2Role, boolean clockMapped, int depth) {
        if (ctf2) {
            int r = Role.ofCtf2(ctf2Role);
            if (r == Role.TIMESTAMP && scope.equals("stream.packet.context")) {
                return Role.TS_BEGIN;
            }
            return r;
        }
        return switch (scope) {
            case "trace.packet.header" -> depth > 1 ? 0 : switch (name) {
                case "magic" -> Role.MAGIC;
                case "stream_id" -> Role.STREAM_CLASS_ID;
                case "stream_instance_id" -> Role.STREAM_INSTANCE_ID;
                default -> 0;
            };
            case "stream.packet.context" -> depth > 1 ? 0 : switch (name) {
                case "timestamp_begin" -> Role.TS_BEGIN;
                case "timestamp_end" -> Role.TS_END;
                case "content_size" -> Role.CONTENT_SIZE;
                case "packet_size" -> Role.PACKET_SIZE;
                case "events_discarded" -> Role.DISCARDED;
                case "packet_seq_num" -> Role.SEQ_NUM;
                default -> 0;
            };
            case "stream.event.header" -> switch (name) {
                case "id" -> Role.EVENT_ID;
                case "timestamp" -> Role.TIMESTAMP;
                default -> clockMapped ? Role.TIMESTAMP : 0;
            };
            default -> 0;
        };
    }

    private int reg(String path) throws MetadataException {
        FieldNode n = resolve(path);
        if (n == null) {
            throw new MetadataException(scope, "cannot find length or selector field '" + path + "'");
        }
        return regOf(n, path);
    }

    private int regOf(FieldNode n, String path) throws MetadataException {
        if (!(n instanceof FieldNode.Int || n instanceof FieldNode.Enum || n instanceof FieldNode.VarInt)) {
            throw new MetadataException(scope, "field '" + path + "' is not an integer");
        }
        if (n.reg < 0) {
            n.reg = nextReg[0]++;
        }
        return n.reg;
    }

    private FieldNode resolve(String path) {
        String[] parts = path.split("\\.");
        for (String s : SCOPES) {
            if (path.startsWith(s + ".")) {
                String[] rest = path.substring(s.length() + 1).split("\\.");
                if (s.equals(scope)) {
                    return walk(frames.peekLast(), rest);
                }
                FieldNode root = scopes.get(s);
                return root instanceof FieldNode.Struct st ? walk(List.of(st.members), rest) : null;
            }
        }
        for (List<FieldNode> frame : frames) {
            FieldNode n = walk(frame, parts);
            if (n != null) {
                return n;
            }
        }
        List<String> names = new ArrayList<>(scopes.keySet());
        for (int i = names.size() - 1; i >= 0; i--) {
            if (scopes.get(names.get(i)) instanceof FieldNode.Struct st) {
                FieldNode n = walk(List.of(st.members), parts);
                if (n != null) {
                    return n;
                }
            }
        }
        return null;
    }

    private static FieldNode walk(List<FieldNode> members, String[] parts) {
        if (members == null) {
            return null;
        }
        FieldNode cur = null;
        for (int i = members.size() - 1; i >= 0; i--) {
            if (members.get(i).name.equals(parts[0])) {
                cur = members.get(i);
                break;
            }
        }
        for (int k = 1; k < parts.length && cur != null; k++) {
            cur = cur instanceof FieldNode.Struct s ? s.member(parts[k]) : null;
        }
        return cur;
    }

    /** Marks what babeltrace2 would hide: integers with a special meaning or a clock, unless something refers
     *  to them, and compounds that hold nothing visible. */
    static boolean markVisibility(FieldNode n) {
        if (n == null) {
            return false;
        }
        boolean v;
        if (n instanceof FieldNode.Int i) {
            v = (i.role == 0 && !i.clockMapped) || i.reg >= 0;
        } else if (n instanceof FieldNode.Enum e) {
            boolean clock = e.container instanceof FieldNode.Int i && i.clockMapped;
            v = (e.role == 0 && !clock) || e.reg >= 0;
        } else if (n instanceof FieldNode.VarInt i) {
            v = i.role == 0 || i.reg >= 0;
        } else if (n instanceof FieldNode.Struct s) {
            boolean any = false;
            for (FieldNode m : s.members) {
                any |= markVisibility(m);
            }
            v = any || s.members.length == 0;
        } else if (n instanceof FieldNode.Array a) {
            v = markVisibility(a.element);
        } else if (n instanceof FieldNode.Variant va) {
            boolean any = false;
            for (FieldNode m : va.options) {
                any |= markVisibility(m);
            }
            v = any;
        } else if (n instanceof FieldNode.Optional o) {
            v = markVisibility(o.inner);
        } else {
            v = true;
        }
        n.visible = v;
        return v;
    }
}
