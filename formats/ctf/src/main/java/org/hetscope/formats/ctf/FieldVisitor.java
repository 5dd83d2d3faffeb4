package org.hetscope.formats.ctf;

/**
 * Receives the decoded fields of an event in order ({@link CtfEvent#visit}). Names are the metadata's names
 * (for CTF 1.8 without the one leading underscore that TSDL producers add). Compound fields open and close.
 */
public interface FieldVisitor {

    /** Starts a dynamic scope: packet context, stream event context, event context or payload. */
    default void beginScope(String scope) {}

    default void endScope(String scope) {}

    default void beginStruct(String name) {}

    default void endStruct(String name) {}

    default void beginArray(String name, int length) {}

    default void endArray(String name) {}

    default void beginVariant(String name, String option) {}

    default void endVariant(String name) {}

    /**
     * An integer (or boolean, bit array).
     *
     * @param signed whether {@code value} is signed; otherwise it is an unsigned 64-bit pattern
     * @param size its size in bits (64 for variable-length integers)
     * @param base its preferred display base
     */
    void integer(String name, long value, boolean signed, int size, int base);

    /** An enumeration value with the labels whose ranges hold it (possibly none). */
    void enumeration(String name, long value, boolean signed, String[] labels);

    void real(String name, double value);

    void string(String name, String value);

    /** A byte run without text encoding (CTF 2 blobs). */
    default void blob(String name, byte[] bytes) {}

    /** A CTF 2 optional without a value. */
    default void absent(String name) {}
}
