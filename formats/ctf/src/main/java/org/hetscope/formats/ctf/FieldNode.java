package org.hetscope.formats.ctf;

import org.hetscope.formats.ctf.meta.FieldType;

/**
 * A field layout compiled for decoding: alignment, size and resolved references (length and tag fields read
 * through registers). Decoding appends the field's value(s) to the decoder's tape in pre-order; see
 * {@link StreamDecoder} for the tape layout.
 */
abstract sealed class FieldNode {
    final String name;
    final FieldType type;
    final int align;
    /** Register that receives this integer's value (when something refers to it), or -1. */
    int reg = -1;
    /** A {@link Role} ordinal, or 0. */
    int role;
    /** Whether babeltrace2 would show this field (special-meaning and clock-mapped integers are hidden). */
    boolean visible = true;

    FieldNode(String name, FieldType type, int align) {
        this.name = name;
        this.type = type;
        this.align = Math.max(1, align);
    }

    abstract void decode(StreamDecoder d);

    /** Number of tape slots this field takes when it has a fixed layout, or -1. */
    int fixedSlots() {
        return -1;
    }

    static final class Int extends FieldNode {
        final int size;
        final boolean signed;
        final boolean bigEndian;
        final int base;
        final boolean clockMapped;

        Int(String name, FieldType type, int align, int size, boolean signed, boolean bigEndian, int base,
            boolean clockMapped) {
            super(name, type, align);
            this.size = size;
            this.signed = signed;
            this.bigEndian = bigEndian;
            this.base = base;
            this.clockMapped = clockMapped;
        }

        @Override
        void decode(StreamDecoder d) {
            d.alignTo(align);
            long v = d.readInt(size, bigEndian, signed);
            d.push(v);
            if (reg >= 0) {
                d.regs[reg] = v;
            }
            if (role != 0) {
                d.role(role, v, size);
            }
        }

        @Override
        int fixedSlots() {
            return 1;
        }
    }

    static final class Enum extends FieldNode {
        final FieldNode container;

        Enum(String name, FieldType type, FieldNode container) {
            super(name, type, container.align);
            this.container = container;
        }

        @Override
        void decode(StreamDecoder d) {
            container.decode(d);
            long v = d.tape[d.tapeLen - 1];
            if (reg >= 0) {
                d.regs[reg] = v;
            }
            if (role != 0) {
                d.role(role, v, container instanceof Int i ? i.size : 64);
            }
        }

        @Override
        int fixedSlots() {
            return 1;
        }
    }

    static final class VarInt extends FieldNode {
        final boolean signed;

        VarInt(String name, FieldType type, boolean signed) {
            super(name, type, 8);
            this.signed = signed;
        }

        @Override
        void decode(StreamDecoder d) {
            d.alignTo(8);
            long v = d.readLeb128(signed, name);
            d.push(v);
            if (reg >= 0) {
                d.regs[reg] = v;
            }
            if (role != 0) {
                d.role(role, v, 64);
            }
        }

        @Override
        int fixedSlots() {
            return 1;
        }
    }

    static final class Float extends FieldNode {
        final int size;
        final boolean bigEndian;

        Float(String name, FieldType type, int align, int size, boolean bigEndian) {
            super(name, type, align);
            this.size = size;
            this.bigEndian = bigEndian;
        }

        @Override
        void decode(StreamDecoder d) {
            d.alignTo(align);
            long bits = d.readInt(size, bigEndian, false);
            d.push(size == 32 ? Double.doubleToRawLongBits(java.lang.Float.intBitsToFloat((int) bits)) : bits);
        }

        @Override
        int fixedSlots() {
            return 1;
        }
    }

    /** A null-terminated string: two slots, byte offset in the buffer and length. */
    static final class Str extends FieldNode {
        Str(String name, FieldType type) {
            super(name, type, 8);
        }

        @Override
        void decode(StreamDecoder d) {
            d.alignTo(8);
            d.readCString();
        }

        @Override
        int fixedSlots() {
            return 2;
        }
    }

    /** Bytes of known length shown as text (arrays of 8-bit text integers, CTF 2 sized strings) or a blob. */
    static final class Bytes extends FieldNode {
        final int length;
        final int lengthReg;
        final boolean text;

        Bytes(String name, FieldType type, int align, int length, int lengthReg, boolean text) {
            super(name, type, align);
            this.length = length;
            this.lengthReg = lengthReg;
            this.text = text;
        }

        @Override
        void decode(StreamDecoder d) {
            d.alignTo(align);
            long n = lengthReg >= 0 ? d.regs[lengthReg] : length;
            d.readBytes(n);
        }

        @Override
        int fixedSlots() {
            return 2;
        }
    }

    static final class Struct extends FieldNode {
        final FieldNode[] members;

        Struct(String name, FieldType type, int align, FieldNode[] members) {
            super(name, type, align);
            this.members = members;
        }

        /** 0: not yet known, 1: flat (see {@link #flatten}), 2: general. */
        private byte shape;
        private byte[] kinds;
        private int[] sizes;
        private int[] aligns;
        private boolean[] signeds;
        private boolean[] bigEndians;

        @Override
        void decode(StreamDecoder d) {
            if (shape != 1) {
                if (shape == 0) {
                    flatten();
                }
                if (shape == 2) {
                    d.alignTo(align);
                    for (FieldNode m : members) {
                        m.decode(d);
                    }
                    return;
                }
            }
            d.alignTo(align);
            d.decodeFlat(kinds, sizes, aligns, signeds, bigEndians);
        }

        /**
         * A structure of plain integers, static text arrays and strings, none referred to by another field or
         * carrying a special meaning, is decoded by one loop without a virtual call per member (the common case
         * of LTTng payloads and contexts). Decided on first use, once all references are resolved.
         */
        private synchronized void flatten() {
            if (shape != 0) {
                return;
            }
            int n = members.length;
            byte[] k = new byte[n];
            int[] sz = new int[n];
            int[] al = new int[n];
            boolean[] sg = new boolean[n];
            boolean[] be = new boolean[n];
            for (int i = 0; i < n; i++) {
                FieldNode m = members[i];
                FieldNode leaf = m instanceof Enum e && e.reg < 0 && e.role == 0 ? e.container : m;
                if (leaf.reg >= 0 || leaf.role != 0) {
                    shape = 2;
                    return;
                }
                // if/else rather than a switch over types, whose first use costs a start (see LayoutCompiler)
                if (leaf instanceof Int in) {
                    k[i] = StreamDecoder.FLAT_INT;
                    sz[i] = in.size;
                    sg[i] = in.signed;
                    be[i] = in.bigEndian;
                } else if (leaf instanceof Bytes b && b.lengthReg < 0) {
                    k[i] = StreamDecoder.FLAT_BYTES;
                    sz[i] = b.length;
                } else if (leaf instanceof Str) {
                    k[i] = StreamDecoder.FLAT_STRING;
                } else {
                    shape = 2;
                    return;
                }
                al[i] = leaf.align;
            }
            kinds = k;
            sizes = sz;
            aligns = al;
            signeds = sg;
            bigEndians = be;
            shape = 1;
        }

        FieldNode member(String n) {
            for (FieldNode m : members) {
                if (m.name.equals(n)) {
                    return m;
                }
            }
            return null;
        }

        @Override
        int fixedSlots() {
            int n = 0;
            for (FieldNode m : members) {
                int k = m.fixedSlots();
                if (k < 0) {
                    return -1;
                }
                n += k;
            }
            return n;
        }
    }

    /** A static array ({@code lengthReg} < 0) or a sequence: one slot with the length, then the elements. */
    static final class Array extends FieldNode {
        final FieldNode element;
        final int length;
        final int lengthReg;

        Array(String name, FieldType type, int align, FieldNode element, int length, int lengthReg) {
            super(name, type, align);
            this.element = element;
            this.length = length;
            this.lengthReg = lengthReg;
        }

        @Override
        void decode(StreamDecoder d) {
            d.alignTo(align);
            long n = lengthReg >= 0 ? d.regs[lengthReg] : length;
            if (n < 0 || n > d.remainingBits()) {
                throw new DecodeException("array '" + name + "' length " + n + " exceeds the packet");
            }
            d.push(n);
            for (long i = 0; i < n; i++) {
                element.decode(d);
            }
        }
    }

    /** One slot with the chosen option's index, then the option. */
    static final class Variant extends FieldNode {
        final FieldNode[] options;
        final long[][] ranges;
        final int tagReg;
        /** The tag (CTF 1.8, an enumeration) or selector (CTF 2) field, named in the error when no option fits. */
        final FieldNode tag;
        /**
         * Whether the tag is unsigned: its values and the ranges' bounds then compare as unsigned 64-bit numbers, so
         * that a range reaching past 2^63 - 1 (its upper bound negative as a {@code long}) still holds its values.
         */
        final boolean unsignedTag;

        Variant(String name, FieldType type, FieldNode[] options, long[][] ranges, int tagReg, FieldNode tag) {
            super(name, type, 1);
            this.options = options;
            this.ranges = ranges;
            this.tagReg = tagReg;
            this.tag = tag;
            this.unsignedTag = !(tag instanceof Enum e ? isSigned(e.container) : isSigned(tag));
        }

        int select(long tag) {
            // unsigned order is signed order once the sign bit is flipped on both sides
            long bias = unsignedTag ? Long.MIN_VALUE : 0;
            long t = tag ^ bias;
            for (int i = 0; i < ranges.length; i++) {
                long[] r = ranges[i];
                for (int k = 0; k < r.length; k += 2) {
                    if (t >= (r[k] ^ bias) && t <= (r[k + 1] ^ bias)) {
                        return i;
                    }
                }
            }
            return -1;
        }

        @Override
        void decode(StreamDecoder d) {
            long tag = d.regs[tagReg];
            int i = select(tag);
            if (i < 0) {
                throw new DecodeException(unknownTag(d, tag));
            }
            d.push(i);
            options[i].decode(d);
        }

        /**
         * Why no option fits, for the damage report: without an option the rest of the event, and so of the packet,
         * has no known layout. The generated code ({@link ScopeCompiler}) comes here too, so both say the same.
         */
        private String unknownTag(StreamDecoder d, long value) {
            boolean signed = !unsignedTag;
            String shown = signed ? Long.toString(value) : Long.toUnsignedString(value);
            StringBuilder m = new StringBuilder("unknown tag value ").append(shown).append(" for variant '")
                    .append(name).append("' at byte ").append(d.fileOffset()).append(": ");
            if (tag.type instanceof FieldType.EnumType et) {
                java.util.List<String> labels = new java.util.ArrayList<>();
                for (FieldType.EnumMapping em : et.mappings()) {
                    boolean in = signed ? value >= em.lo() && value <= em.hi()
                            : Long.compareUnsigned(value, em.lo()) >= 0 && Long.compareUnsigned(value, em.hi()) <= 0;
                    if (in && !labels.contains(em.label())) {
                        labels.add(em.label());
                    }
                }
                if (labels.isEmpty()) {
                    m.append("it maps to no enumerator of '").append(tag.name).append('\'');
                } else {
                    m.append("'").append(tag.name).append("' maps it to '").append(String.join("', '", labels))
                            .append("', for which the variant has no option");
                }
            } else {
                m.append("no option's range of selector '").append(tag.name).append("' holds it");
            }
            return m.toString();
        }

        private static boolean isSigned(FieldNode n) {
            return n instanceof Int i ? i.signed : n instanceof VarInt v && v.signed;
        }
    }

    /** One slot (1 present, 0 absent), then the value when present. */
    static final class Optional extends FieldNode {
        final FieldNode inner;
        final long[] ranges;
        final int selectorReg;
        /**
         * Whether the selector is unsigned: as for {@link Variant#unsignedTag}, its values and the ranges' bounds then
         * compare as unsigned 64-bit numbers, so that a range reaching past 2^63 - 1 (its upper bound negative as a
         * {@code long}) still holds its values. The generated code ({@link ScopeCompiler}) calls {@link #decode} for
         * optionals, so this one comparison serves both paths.
         */
        final boolean unsignedSelector;

        Optional(String name, FieldType type, FieldNode inner, long[] ranges, int selectorReg, FieldNode selector) {
            super(name, type, 1);
            this.inner = inner;
            this.ranges = ranges;
            this.selectorReg = selectorReg;
            this.unsignedSelector = !(selector instanceof Enum e ? Variant.isSigned(e.container)
                    : Variant.isSigned(selector));
        }

        @Override
        void decode(StreamDecoder d) {
            long sel = d.regs[selectorReg];
            boolean present;
            if (ranges == null) {
                present = sel != 0;
            } else {
                // unsigned order is signed order once the sign bit is flipped on both sides
                long bias = unsignedSelector ? Long.MIN_VALUE : 0;
                long s = sel ^ bias;
                present = false;
                for (int k = 0; k < ranges.length; k += 2) {
                    if (s >= (ranges[k] ^ bias) && s <= (ranges[k + 1] ^ bias)) {
                        present = true;
                        break;
                    }
                }
            }
            d.push(present ? 1 : 0);
            if (present) {
                inner.decode(d);
            }
        }
    }
}
