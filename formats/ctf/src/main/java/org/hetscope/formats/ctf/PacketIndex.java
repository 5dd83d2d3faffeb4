package org.hetscope.formats.ctf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An LTTng packet index ({@code index/NAME.idx}): big-endian header (magic 0xC1DE1DE1, version, entry size)
 * then one entry per packet starting with its offset and sizes. Used to find packets without trusting each
 * packet's own size; ignored when absent or inconsistent with the stream file.
 */
final class PacketIndex {
    private final long[] offsets;

    private PacketIndex(long[] offsets) {
        this.offsets = offsets;
    }

    int size() {
        return offsets.length;
    }

    long offset(int i) {
        return offsets[i];
    }

    /** The first offset at or after {@code off}, or -1 (offsets ascend). */
    long firstAtOrAfter(long off) {
        int i = java.util.Arrays.binarySearch(offsets, off);
        if (i < 0) {
            i = -i - 1;
        }
        return i < offsets.length ? offsets[i] : -1;
    }

    /** How many offsets lie in [{@code from}, {@code to}). */
    int countIn(long from, long to) {
        int a = java.util.Arrays.binarySearch(offsets, from);
        int b = java.util.Arrays.binarySearch(offsets, to);
        return (b < 0 ? -b - 1 : b) - (a < 0 ? -a - 1 : a);
    }

    static PacketIndex of(long[] offsets) {
        return new PacketIndex(offsets);
    }

    static PacketIndex forStream(Path stream, long fileSize) {
        Path idx = stream.resolveSibling("index").resolve(stream.getFileName() + ".idx");
        if (!Files.isRegularFile(idx)) {
            return null;
        }
        try {
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(idx)).order(ByteOrder.BIG_ENDIAN);
            if (b.remaining() < 16 || b.getInt(0) != 0xC1DE1DE1) {
                return null;
            }
            int entry = b.getInt(12);
            if (entry < 16) {
                return null;
            }
            int n = (b.capacity() - 16) / entry;
            long[] offs = new long[n];
            long prev = -1;
            for (int i = 0; i < n; i++) {
                int at = 16 + i * entry;
                long off = b.getLong(at);
                long packetBits = b.getLong(at + 8);
                if (off <= prev || off < 0 || off + packetBits / 8 > fileSize) {
                    return null;
                }
                offs[i] = off;
                prev = off;
            }
            return n == 0 ? null : new PacketIndex(offs);
        } catch (IOException e) {
            return null;
        }
    }
}
