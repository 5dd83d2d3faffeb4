package org.hetscope.formats.ctf;

import java.nio.file.Path;

/**
 * Damage found while decoding: the file, the byte offset of the packet (and of the event inside it, or -1), and
 * why. Decoding continues with the next packet that can be located.
 */
public record CtfProblem(Path file, long packetOffset, long eventOffset, String reason) {
    public String where() {
        return file + " packet at byte " + packetOffset + (eventOffset >= 0 ? ", event at byte " + eventOffset : "");
    }

    @Override
    public String toString() {
        return where() + ": " + reason;
    }
}
