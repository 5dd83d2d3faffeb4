package org.hetscope.formats.ctf;

import java.nio.file.Path;

/**
 * Damage found while decoding: the file, the byte offset of the packet (and of the event inside it, or -1), and
 * why. Decoding continues with the next packet that can be located.
 *
 * <p>A packet header that could not be read makes the decoder look for the next packet whose header checks out; that
 * problem carries what was stepped over: {@code skippedBytes} from the bad header to the packet found (0 when the
 * packet found starts before it, -1 for every other kind of problem), and {@code skippedPackets}, the packets lost
 * between them as far as sequence numbers, the packet index or the packet size tell (at least 1 is counted as damage).
 */
public record CtfProblem(Path file, long packetOffset, long eventOffset, String reason, long skippedPackets,
                         long skippedBytes) {

    public CtfProblem(Path file, long packetOffset, long eventOffset, String reason) {
        this(file, packetOffset, eventOffset, reason, 0, -1);
    }

    /** Whether this is an unreadable packet header that the decoder stepped over to the next valid one. */
    public boolean isSkip() {
        return skippedBytes >= 0;
    }

    public String where() {
        return file + " packet at byte " + packetOffset + (eventOffset >= 0 ? ", event at byte " + eventOffset : "");
    }

    @Override
    public String toString() {
        return where() + ": " + reason;
    }
}
