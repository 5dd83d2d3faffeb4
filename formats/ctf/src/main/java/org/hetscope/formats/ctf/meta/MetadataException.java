package org.hetscope.formats.ctf.meta;

/** Metadata that cannot be understood; {@code position} says where (line of TSDL, fragment of CTF 2, offset). */
public final class MetadataException extends Exception {
    private final String position;

    public MetadataException(String position, String reason) {
        super(reason);
        this.position = position;
    }

    public String position() {
        return position;
    }
}
