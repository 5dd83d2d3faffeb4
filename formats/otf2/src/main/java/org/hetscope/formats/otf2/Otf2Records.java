package org.hetscope.formats.otf2;

import java.util.Set;
import org.hetscope.model.TraceFormatException;

/**
 * Walks the records of one OTF2 buffer file: chunk headers, end-of-chunk jumps, and, in event files, the
 * timestamp and attribute-list records that precede events. Each call to {@link #next()} leaves the buffer
 * positioned at the start of one record's payload.
 */
final class Otf2Records {
    static final int END_OF_CHUNK = 0;
    static final int END_OF_BUFFER = 1;
    static final int END_OF_FILE = 2;
    static final int CHUNK_HEADER = 3;
    static final int TIMESTAMP = 5;
    static final int ATTRIBUTE_LIST = 6;

    /** Event records whose only field is one compressed integer; OTF2 writes them without a length byte. */
    static final Set<Integer> SINGLETON_EVENTS = Set.of(12, 13, 16, 17, 20, 21, 24, 28, 29, 30, 36, 51, 52, 55,
            56, 67, 70, 85, 88);

    private final Otf2Buffer buf;
    private final boolean events;
    private final long chunkSize;
    private int chunkStart;
    /** Type of the current record. */
    int type;
    /** Timestamp (ticks) of the current event record. */
    long time;
    /** Where the current record's payload ends (exclusive); for singleton events, where it was decoded to. */
    int end;
    /** Offset of the current record's type byte. */
    int offset;
    long attributeLists;

    Otf2Records(Otf2Buffer buf, boolean events, long chunkSize) throws TraceFormatException {
        this.buf = buf;
        this.events = events;
        this.chunkSize = chunkSize;
        readChunkHeader();
    }

    private void readChunkHeader() throws TraceFormatException {
        chunkStart = buf.pos;
        int marker = buf.u8();
        if (marker != CHUNK_HEADER) {
            buf.pos--;
            throw buf.error(String.format("expected an OTF2 chunk header (0x03), found 0x%02x", marker));
        }
        buf.setByteOrder(buf.u8());
        buf.u64full(); // first event number
        buf.u64full(); // last event number
    }

    /** Moves to the next record; false at the end of the file. */
    boolean next() throws TraceFormatException {
        while (true) {
            if (buf.atEnd()) {
                throw buf.error("the file ends without OTF2's end-of-file record (truncated?)");
            }
            offset = buf.pos;
            int t = buf.u8();
            switch (t) {
                case END_OF_CHUNK -> {
                    if (chunkSize <= 0) {
                        return false;
                    }
                    long nextChunk = chunkStart + chunkSize;
                    if (nextChunk >= buf.data.length) {
                        return false;
                    }
                    buf.pos = (int) nextChunk;
                    readChunkHeader();
                    continue;
                }
                case END_OF_BUFFER, END_OF_FILE -> {
                    return false;
                }
                case CHUNK_HEADER -> {
                    buf.pos--;
                    readChunkHeader();
                    continue;
                }
                default -> {
                }
            }
            if (events && t == TIMESTAMP) {
                time = buf.u64full();
                continue;
            }
            if (events && t == ATTRIBUTE_LIST) {
                attributeLists++;
                skipPayload();
                continue;
            }
            type = t;
            if (events && SINGLETON_EVENTS.contains(t)) {
                end = -1;
            } else {
                long len = buf.u8();
                if (len == 0xFF) {
                    len = buf.u64full();
                }
                if (buf.pos + len > buf.data.length) {
                    throw new TraceFormatException(buf.file, "offset " + offset,
                            "record of type " + t + " is " + len + " bytes long but the file ends before");
                }
                end = (int) (buf.pos + len);
            }
            return true;
        }
    }

    private void skipPayload() throws TraceFormatException {
        long len = buf.u8();
        if (len == 0xFF) {
            len = buf.u64full();
        }
        if (buf.pos + len > buf.data.length) {
            throw new TraceFormatException(buf.file, "offset " + offset, "attribute list runs past the end");
        }
        buf.pos += (int) len;
    }

    /** Moves past the rest of the current record (fields newer versions added are skipped this way). */
    void finish() throws TraceFormatException {
        if (end >= 0) {
            if (buf.pos > end) {
                throw new TraceFormatException(buf.file, "offset " + offset,
                        "record of type " + type + " decoded past its announced length");
            }
            buf.pos = end;
        }
    }

    /** Whether fields remain in the current record (older writers omit trailing fields). */
    boolean more() {
        return end < 0 || buf.pos < end;
    }
}
