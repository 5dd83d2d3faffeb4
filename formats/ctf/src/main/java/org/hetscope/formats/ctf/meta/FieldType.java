package org.hetscope.formats.ctf.meta;

import java.util.List;

/**
 * A field class as declared in the metadata (TSDL or CTF 2 JSON), before paths to length and tag fields are
 * resolved. Resolution happens where a type is used, because TSDL resolves relative paths in the scope of use.
 */
public sealed interface FieldType {

    /** Alignment in bits. */
    int align();

    /** Byte order of a fixed-size value; {@link #NATIVE} means the trace's byte order. */
    enum Order { NATIVE, LE, BE }

    /**
     * A fixed-length integer (also a CTF 2 boolean or bit array).
     *
     * @param base preferred display base: 2, 8, 10 or 16
     * @param text whether its encoding is UTF-8/ASCII (arrays of such 8-bit integers are strings)
     * @param clock name of the clock it maps to, or null
     * @param role a CTF 2 role (e.g. {@code default-clock-timestamp}), or null
     */
    record IntegerType(int size, int align, boolean signed, Order order, int base, boolean text, String clock,
                       String role) implements FieldType {
        public IntegerType withRole(String r) {
            return new IntegerType(size, align, signed, order, base, text, clock, r);
        }
    }

    /** A variable-length (LEB128) integer of CTF 2. */
    record VarIntType(boolean signed, int base, String role) implements FieldType {
        public int align() {
            return 8;
        }
    }

    /** An enumeration over an integer; {@code mappings} may overlap. */
    record EnumType(FieldType container, List<EnumMapping> mappings) implements FieldType {
        public int align() {
            return container.align();
        }
    }

    /** One label of an enumeration with its inclusive value range (unsigned ranges are stored as signed bits). */
    record EnumMapping(String label, long lo, long hi) {}

    record FloatType(int expDig, int mantDig, int align, Order order) implements FieldType {
        public int size() {
            return expDig + mantDig;
        }
    }

    /** A null-terminated string. */
    record StringType() implements FieldType {
        public int align() {
            return 8;
        }
    }

    /** A CTF 2 string of static or dynamic length in bytes ({@code lengthRef} non-null for dynamic). */
    record FixedStringType(int length, String lengthRef) implements FieldType {
        public int align() {
            return 8;
        }
    }

    /** A CTF 2 blob of static or dynamic length in bytes. */
    record BlobType(int length, String lengthRef) implements FieldType {
        public int align() {
            return 8;
        }
    }

    record StructType(List<Member> members, int align) implements FieldType {
        public Member member(String name) {
            for (Member m : members) {
                if (m.name().equals(name)) {
                    return m;
                }
            }
            return null;
        }
    }

    record Member(String name, FieldType type) {}

    /** A static-length array. */
    record ArrayType(FieldType element, int length, int minAlign) implements FieldType {
        public int align() {
            return Math.max(minAlign, element.align());
        }
    }

    /** A dynamic-length array (TSDL sequence) whose length is the value of the field at {@code lengthRef}. */
    record SequenceType(FieldType element, String lengthRef, int minAlign) implements FieldType {
        public int align() {
            return Math.max(minAlign, element.align());
        }
    }

    /**
     * A variant selected by the field at {@code tagRef}. Options carry explicit selector ranges (CTF 2) or null
     * ranges, in which case the tag's enumeration label with the option's name selects it (TSDL).
     */
    record VariantType(String tagRef, List<Option> options) implements FieldType {
        public int align() {
            return 1;
        }
    }

    record Option(String name, FieldType type, List<long[]> ranges) {}

    /** A CTF 2 optional: present when the selector (boolean or integer in ranges) says so. */
    record OptionalType(FieldType inner, String selectorRef, List<long[]> ranges) implements FieldType {
        public int align() {
            return 1;
        }
    }
}
