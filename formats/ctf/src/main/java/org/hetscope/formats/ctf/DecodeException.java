package org.hetscope.formats.ctf;

/** A packet whose bytes do not fit its layout; thrown inside a packet, caught at packet level. */
final class DecodeException extends RuntimeException {
    DecodeException(String reason) {
        super(reason, null, false, false);
    }
}
