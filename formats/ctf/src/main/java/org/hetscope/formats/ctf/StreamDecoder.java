package org.hetscope.formats.ctf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/**
 * Decodes the packets and events of one data stream file, one event at a time, from a memory-mapped window.
 *
 * <p>Decoded values go to a reused {@code long[]} tape in pre-order: one slot per integer, enumeration or
 * floating-point number (raw IEEE bits of a double), two per string or byte run (buffer offset and length),
 * one per array (its length) followed by the elements, one per variant (the option index) followed by the option,
 * one per optional (1 or 0) followed by the value when present. Nothing is allocated per event.
 */
final class StreamDecoder implements AutoCloseable {
    private static final long WINDOW = 1L << 30;
    private static final long MAGIC = 0xC1FC1FC1L;

    final CompiledTrace trace;
    final Path file;
    private final FileChannel channel;
    final long fileSize;
    private final Consumer<CtfProblem> problems;
    private PacketIndex index;
    private int indexPos;
    /** Whether {@link #index} lists packets already found valid ({@link #onlyPackets}): no resynchronising. */
    private boolean trustedIndex;

    ByteBuffer le;
    ByteBuffer be;
    private long winStart;
    private long winEnd;

    /** Byte index of the current packet in the buffers. */
    int base;
    long bitPos;
    long limitBits;

    long[] tape = new long[512];
    int tapeLen;
    long[] regs;
    final long[] roleValue = new long[Role.COUNT];
    private final boolean[] roleSeen = new boolean[Role.COUNT];
    long clock;

    CompiledTrace.Stream stream;
    CompiledTrace.Event event;
    int packetContextStart;
    int packetTapeLen;
    int eventContextStart;
    int specificContextStart;
    int payloadStart;

    long packetOffset = -1;
    private long nextPacket;
    private boolean inPacket;
    private long contentBits;
    private long eventStartBits;

    long packets;
    long events;
    long discarded;
    long lostPackets;
    private long prevDiscarded = -1;
    private long prevSeq = -1;
    long streamClassId = -1;
    /** The stream class of the header just read; it becomes {@link #streamClassId} once the packet is accepted. */
    private long headerStreamClass = -1;
    /** The stream instance id of the packets read so far, when their header has one. */
    private long instanceId = -1;
    /** Byte offset where the content of the last valid packet ends, and that packet's size in bytes. */
    private long lastContentEnd;
    private long lastPacketBytes;
    private long lastPacketStart = -1;
    /** Whether the packet headers carry the magic number (known once one was read). */
    private boolean headerHasMagic;
    /** Content bits of the packet just opened, as declared (clipped to the file only). */
    private long declaredContentBits;
    /** Position among the streams of a merge, to order events of equal time. */
    int rank;

    StreamDecoder(CompiledTrace trace, Path file, Consumer<CtfProblem> problems) throws IOException {
        this.trace = trace;
        this.file = file;
        this.problems = problems;
        this.channel = FileChannel.open(file, StandardOpenOption.READ);
        this.fileSize = channel.size();
        this.regs = new long[Math.max(1, trace.registers)];
        this.index = PacketIndex.forStream(file, fileSize);
    }

    /** Restricts decoding to the packets at {@code offsets} (a range found by {@link #scanPackets}). */
    StreamDecoder onlyPackets(long[] offsets) {
        index = PacketIndex.of(offsets);
        indexPos = 0;
        trustedIndex = true;
        return this;
    }

    /**
     * Reads every packet's header and context without decoding events: returns the packet offsets and leaves
     * packet-level statistics (packets, discarded events, lost packets) in this decoder.
     */
    long[] scanPackets() throws IOException {
        long[] out = new long[64];
        int n = 0;
        while (openPacket()) {
            if (n == out.length) {
                out = java.util.Arrays.copyOf(out, n * 2);
            }
            out[n++] = packetOffset;
            inPacket = false;
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** File offset in bytes of the current position (the byte holding it, when not byte-aligned). */
    long fileOffset() {
        return winStart + base + (bitPos >>> 3);
    }

    /** File offset in bytes of the current event. */
    long eventOffset() {
        return winStart + base + (eventStartBits >>> 3);
    }

    StreamStats stats() {
        return new StreamStats(file, streamClassId, packets, events, discarded, lostPackets);
    }

    /** Timestamp of the current event in ns from the clock's origin (the packet's clock if no clock: cycles). */
    long timestampNs() {
        CompiledTrace.Stream s = stream;
        return s.clock == null ? clock : s.clockBaseNs + s.clock.cyclesToNs(clock);
    }

    /** Decodes the next event; false at the end of the stream. */
    boolean next() throws IOException {
        while (true) {
            if (!inPacket && !openPacket()) {
                return false;
            }
            if (bitPos >= contentBits) {
                inPacket = false;
                continue;
            }
            eventStartBits = bitPos;
            try {
                decodeEvent();
                events++;
                return true;
            } catch (DecodeException e) {
                problem((base + (eventStartBits >>> 3)) + winStart, e.getMessage());
                inPacket = false;
            }
        }
    }

    private void decodeEvent() {
        tapeLen = packetTapeLen;
        roleSeen[Role.EVENT_ID] = false;
        roleValue[Role.EVENT_ID] = 0;
        CompiledTrace.Stream s = stream;
        int after = trace.codegenAfter;
        ScopeCode head = s.head;
        if (head != null) {
            head.decode(this);
        } else {
            if (s.eventHeader != null) {
                s.eventHeader.decode(this);
            }
            eventContextStart = tapeLen;
            if (s.eventContext != null) {
                s.eventContext.decode(this);
            }
            if (after > 0 && ++s.headDecodes >= after && !s.headTried) {
                s.compileHead();
            }
        }
        long id = roleValue[Role.EVENT_ID];
        CompiledTrace.Event e = s.event(id);
        if (e == null) {
            if (!roleSeen[Role.EVENT_ID] && s.byId.size() == 1) {
                e = s.byId.values().iterator().next();
            } else {
                throw new DecodeException("unknown event id " + id);
            }
        }
        event = e;
        specificContextStart = tapeLen;
        ScopeCode body = e.body;
        if (body != null) {
            body.decode(this);
        } else {
            if (e.context != null) {
                e.context.decode(this);
            }
            payloadStart = tapeLen;
            if (e.payload != null) {
                e.payload.decode(this);
            }
            if (after > 0 && ++e.bodyDecodes >= after && !e.bodyTried) {
                e.compileBody();
            }
        }
        if (bitPos == eventStartBits) {
            throw new DecodeException("event of zero size");
        }
    }

    private void problem(long eventOffset, String reason) {
        problems.accept(new CtfProblem(file, packetOffset, eventOffset, reason));
    }

    private boolean openPacket() throws IOException {
        while (true) {
            long off;
            if (index != null) {
                if (indexPos >= index.size()) {
                    return false;
                }
                off = index.offset(indexPos++);
            } else {
                off = nextPacket;
            }
            if (off >= fileSize) {
                return false;
            }
            packetOffset = off;
            try {
                if (readPacketHeader(off, false)) {
                    acceptPacket(off);
                    return true;
                }
                return false;
            } catch (DecodeException e) {
                if (!trustedIndex) {
                    return resync(off, e.getMessage());
                }
                problem(-1, e.getMessage());
            }
        }
    }

    /** Makes the packet whose header was just read at {@code off} the current one and counts it. */
    private void acceptPacket(long off) {
        inPacket = true;
        packets++;
        streamClassId = headerStreamClass;
        lastPacketStart = off;
        lastContentEnd = off + ((declaredContentBits + 7) >>> 3);
        lastPacketBytes = (nextPacket - off);
        headerHasMagic |= roleSeen[Role.MAGIC];
        if (roleSeen[Role.STREAM_INSTANCE_ID]) {
            instanceId = roleValue[Role.STREAM_INSTANCE_ID];
        }
        if (roleSeen[Role.DISCARDED]) {
            long v = roleValue[Role.DISCARDED];
            if (prevDiscarded >= 0 && v > prevDiscarded) {
                discarded += v - prevDiscarded;
            } else if (prevDiscarded < 0 && v > 0) {
                discarded += v;
            }
            prevDiscarded = v;
        }
        if (roleSeen[Role.SEQ_NUM]) {
            long v = roleValue[Role.SEQ_NUM];
            if (prevSeq >= 0 && v > prevSeq + 1) {
                lostPackets += v - prevSeq - 1;
            }
            prevSeq = v;
        }
    }

    /**
     * The packet header at {@code bad} could not be read: finds the next packet whose header checks out, so that one
     * damaged header (or bytes inserted or deleted between packets) costs only the damaged packet, not the rest of
     * the stream. Candidates are the places holding the packet magic number, the offsets of the packet index and the
     * multiples of the last packet's size (for headers without a magic number); the search starts where the last valid
     * packet's content ends (a packet after deleted bytes starts before {@code bad}). A candidate is taken when its
     * header decodes with the magic number, the stream class and instance of this file and packet sizes that fit in
     * the file. What was stepped over is reported as one problem. Runs only on damage: the normal path is unchanged.
     *
     * @return whether a packet was found (it is then the current one); false ends the stream
     */
    private boolean resync(long bad, String reason) throws IOException {
        PacketIndex fileIndex = index;
        // from here on packets are followed by their sizes: after inserted or deleted bytes the index is off
        index = null;
        long from = Math.max(lastPacketStart + 1, lastContentEnd < bad ? lastContentEnd : bad + 1);
        MagicScan magic = new MagicScan(from);
        long found = -1;
        // packet starts (the magic number) in the skipped region whose header did not check out either
        long rejected = 0;
        for (long at = from; at < fileSize; ) {
            long m = magic.next(at);
            long c = m;
            if (fileIndex != null) {
                long o = fileIndex.firstAtOrAfter(at);
                if (o >= 0 && (c < 0 || o < c)) {
                    c = o;
                }
            }
            if (lastPacketBytes > 0) {
                long k = Math.max(1, (at - bad + lastPacketBytes - 1) / lastPacketBytes);
                long o = bad + k * lastPacketBytes;
                if (o < fileSize && (c < 0 || o < c)) {
                    c = o;
                }
            }
            if (c < 0) {
                break;
            }
            if (probe(c)) {
                found = c;
                break;
            }
            rejected += c == m && c > bad ? 1 : 0;
            at = c + 1;
        }
        long end = found < 0 ? fileSize : found;
        long bytes = Math.max(0, end - bad);
        long lost;
        String lostText;
        if (found >= 0 && prevSeq >= 0 && roleSeen[Role.SEQ_NUM] && roleValue[Role.SEQ_NUM] > prevSeq) {
            lost = roleValue[Role.SEQ_NUM] - prevSeq - 1;
            lostText = lost + " packet(s) (by packet_seq_num)";
        } else if (fileIndex != null) {
            lost = fileIndex.countIn(bad, end);
            lostText = lost + " packet(s) (by the packet index)";
        } else {
            // no sequence numbers nor index: the damaged packet and the packet starts in between that were unreadable
            lost = bytes > 0 ? 1 + rejected : 0;
            lostText = "about " + lost + " packet(s)";
        }
        String what = "unreadable packet header (" + reason + "): " + (found < 0
                ? "no valid packet header after it, the rest of the stream file (" + bytes + " bytes) is skipped"
                : found < bad ? "the next packet was found at byte " + found + ", " + (bad - found)
                        + " bytes before where the previous packet's size put it (bytes deleted?)"
                : "skipped " + bytes + " bytes, " + lostText + ", to the next valid packet at byte " + found);
        problems.accept(new CtfProblem(file, bad, -1, what, lost, bytes));
        if (found < 0) {
            packetOffset = bad;
            nextPacket = fileSize;
            return false;
        }
        // the sequence gap over the skipped region is damage counted above, not packets the tracer lost
        prevSeq = -1;
        packetOffset = found;
        acceptPacket(found);
        return true;
    }

    /** Whether the packet header at {@code off} is valid for this stream file; if so it is left decoded. */
    private boolean probe(long off) throws IOException {
        packetOffset = off;
        try {
            return readPacketHeader(off, true) && (!headerHasMagic || roleSeen[Role.MAGIC])
                    && (instanceId < 0 || !roleSeen[Role.STREAM_INSTANCE_ID]
                            || roleValue[Role.STREAM_INSTANCE_ID] == instanceId);
        } catch (DecodeException e) {
            return false;
        }
    }

    /** Finds the packet magic number (either byte order) at any byte offset, reading ahead in blocks. */
    private final class MagicScan {
        private final ByteBuffer block = ByteBuffer.allocate(1 << 16);
        private long blockStart;
        private int blockLen;

        MagicScan(long from) {
            blockStart = from;
        }

        /** The first offset at or after {@code at} holding the magic number, or -1. */
        long next(long at) throws IOException {
            long pos = Math.max(at, blockStart);
            while (pos + 4 <= fileSize) {
                if (pos < blockStart || pos + 4 > blockStart + blockLen) {
                    block.clear();
                    blockStart = pos;
                    while (block.hasRemaining() && blockStart + block.position() < fileSize) {
                        if (channel.read(block, blockStart + block.position()) < 0) {
                            break;
                        }
                    }
                    blockLen = block.position();
                    if (blockLen < 4) {
                        return -1;
                    }
                }
                for (int i = (int) (pos - blockStart); i + 4 <= blockLen; i++) {
                    if ((block.get(i) & 0xff) == 0xC1 && (block.get(i + 3) & 0xff) == 0xC1) {
                        int b1 = block.get(i + 1) & 0xff;
                        int b2 = block.get(i + 2) & 0xff;
                        if (b1 == 0x1F && b2 == 0xFC || b1 == 0xFC && b2 == 0x1F) {
                            return blockStart + i;
                        }
                    }
                }
                pos = blockStart + blockLen - 3;
                if (blockStart + blockLen >= fileSize) {
                    return -1;
                }
            }
            return -1;
        }
    }

    private void map(long off, long minLen) throws IOException {
        long len = Math.min(fileSize - off, Math.max(WINDOW, minLen));
        if (len > Integer.MAX_VALUE - 8) {
            len = Integer.MAX_VALUE - 8;
        }
        MappedByteBuffer m = channel.map(FileChannel.MapMode.READ_ONLY, off, len);
        le = m.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        be = m.duplicate().order(ByteOrder.BIG_ENDIAN);
        winStart = off;
        winEnd = off + len;
    }

    /**
     * Decodes packet header and context at {@code off}; returns false when the stream must end here. A {@code probe}
     * (a candidate while resynchronising) must also belong to this file's stream class and fit in the file.
     */
    private boolean readPacketHeader(long off, boolean probe) throws IOException {
        if (le == null || off < winStart || off + 65536 > winEnd && winEnd < fileSize) {
            map(off, 65536);
        }
        for (int attempt = 0; attempt < 2; attempt++) {
            base = (int) (off - winStart);
            bitPos = 0;
            limitBits = (winEnd - off) * 8;
            tapeLen = 0;
            java.util.Arrays.fill(roleSeen, false);
            if (trace.packetHeader != null) {
                trace.packetHeader.decode(this);
            }
            if (roleSeen[Role.MAGIC] && roleValue[Role.MAGIC] != MAGIC) {
                nextPacket = fileSize;
                throw new DecodeException(String.format("bad packet magic 0x%X", roleValue[Role.MAGIC]));
            }
            long sid = roleSeen[Role.STREAM_CLASS_ID] ? roleValue[Role.STREAM_CLASS_ID]
                    : trace.streams.keySet().iterator().next();
            stream = trace.streams.get(sid);
            if (stream == null) {
                nextPacket = fileSize;
                throw new DecodeException("unknown stream class id " + sid);
            }
            if (probe && streamClassId >= 0 && sid != streamClassId) {
                throw new DecodeException("stream class id " + sid + " of another stream");
            }
            headerStreamClass = sid;
            packetContextStart = tapeLen;
            if (stream.packetContext != null) {
                stream.packetContext.decode(this);
            }
            long remainingBits = (fileSize - off) * 8;
            long packetBits = roleSeen[Role.PACKET_SIZE] ? roleValue[Role.PACKET_SIZE] : remainingBits;
            long content = roleSeen[Role.CONTENT_SIZE] ? roleValue[Role.CONTENT_SIZE] : packetBits;
            if (packetBits <= 0 || (packetBits & 7) != 0 || Long.compareUnsigned(content, packetBits) > 0) {
                nextPacket = fileSize;
                throw new DecodeException("bad packet size " + packetBits + " / content size " + content + " bits");
            }
            if (off + (packetBits >>> 3) > winEnd && winEnd < fileSize && attempt == 0) {
                map(off, packetBits >>> 3);
                continue;
            }
            boolean pastEnd = Long.compareUnsigned(packetBits, remainingBits) > 0;
            if (pastEnd && probe) {
                throw new DecodeException("packet runs past the end of the file");
            }
            nextPacket = pastEnd ? fileSize : off + (packetBits >>> 3);
            if (pastEnd) {
                problem(-1, "packet size " + (packetBits >>> 3) + " bytes runs past the end of the file ("
                        + (fileSize - off) + " bytes left); decoding what is there");
                content = Math.min(content, remainingBits);
            }
            declaredContentBits = content;
            contentBits = Math.min(content, (winEnd - off) * 8);
            limitBits = contentBits;
            packetTapeLen = tapeLen;
            if (bitPos > contentBits) {
                throw new DecodeException("packet context runs past the packet content");
            }
            return true;
        }
        return false;
    }

    // ---------------------------------------------------------------- primitives used by FieldNode

    void role(int role, long v, int size) {
        roleValue[role] = v;
        roleSeen[role] = true;
        if (role == Role.TIMESTAMP || role == Role.TS_BEGIN) {
            if (size >= 64) {
                clock = v;
            } else {
                long mask = (1L << size) - 1;
                long low = clock & mask;
                long nv = (clock & ~mask) | v;
                if (v < low) {
                    nv += 1L << size;
                }
                clock = nv;
            }
        }
    }

    void push(long v) {
        if (tapeLen == tape.length) {
            tape = java.util.Arrays.copyOf(tape, tape.length * 2);
        }
        tape[tapeLen++] = v;
    }

    long remainingBits() {
        return limitBits - bitPos;
    }

    void alignTo(int align) {
        if (align > 1) {
            long a = align;
            if ((a & (a - 1)) == 0) {
                bitPos = (bitPos + a - 1) & -a;
            } else {
                bitPos = (bitPos + a - 1) / a * a;
            }
        }
    }

    long readInt(int size, boolean bigEndian, boolean signed) {
        long pos = bitPos;
        if (pos + size > limitBits) {
            throw new DecodeException("field of " + size + " bits runs past the packet content");
        }
        long v;
        if ((pos & 7) == 0) {
            int idx = base + (int) (pos >>> 3);
            ByteBuffer b = bigEndian ? be : le;
            switch (size) {
                case 8 -> v = b.get(idx);
                case 16 -> v = b.getShort(idx);
                case 32 -> v = b.getInt(idx);
                case 64 -> v = b.getLong(idx);
                default -> v = bitsAt(pos, size, bigEndian);
            }
            if (!signed && size < 64) {
                v &= (1L << size) - 1;
            } else if (signed && size < 64 && size != 8 && size != 16 && size != 32) {
                v = (v << (64 - size)) >> (64 - size);
            }
        } else {
            v = bitsAt(pos, size, bigEndian);
            if (signed && size < 64) {
                v = (v << (64 - size)) >> (64 - size);
            }
        }
        bitPos = pos + size;
        return v;
    }

    /**
     * An integer of 8, 16, 32 or 64 bits at a position known to be byte-aligned ({@link ScopeCompiler} calls it
     * with constant arguments, which the JIT folds): one bounds check and one load.
     */
    long readAlignedInt(int size, boolean bigEndian, boolean signed) {
        long pos = bitPos;
        if (pos + size > limitBits) {
            return readInt(size, bigEndian, signed); // throws the out-of-bounds error
        }
        int idx = base + (int) (pos >>> 3);
        ByteBuffer b = bigEndian ? be : le;
        long v = size == 8 ? b.get(idx) : size == 16 ? b.getShort(idx) : size == 32 ? b.getInt(idx) : b.getLong(idx);
        if (!signed && size < 64) {
            v &= (1L << size) - 1;
        }
        bitPos = pos + size;
        return v;
    }

    private long bitsAt(long pos, int size, boolean bigEndian) {
        int at = base + (int) (pos >>> 3);
        int shift = (int) (pos & 7);
        if (shift + size <= 64 && at + 8 <= le.limit()) {
            // one 8-byte load holds the whole field (the bytes after it, still in the buffer, are ignored)
            return bigEndian ? (be.getLong(at) << shift) >>> (64 - size)
                    : (le.getLong(at) >>> shift) & (size == 64 ? -1L : (1L << size) - 1);
        }
        long v = 0;
        int got = 0;
        long p = pos;
        ByteBuffer b = le;
        while (got < size) {
            int idx = base + (int) (p >>> 3);
            int bit = (int) (p & 7);
            int take = Math.min(8 - bit, size - got);
            int byteVal = b.get(idx) & 0xff;
            if (bigEndian) {
                int part = (byteVal >>> (8 - bit - take)) & ((1 << take) - 1);
                v = (v << take) | part;
            } else {
                int part = (byteVal >>> bit) & ((1 << take) - 1);
                v |= (long) part << got;
            }
            got += take;
            p += take;
        }
        return v;
    }

    static final byte FLAT_INT = 1;
    static final byte FLAT_BYTES = 2;
    static final byte FLAT_STRING = 3;

    /** Decodes the members of a flat structure (see {@code FieldNode.Struct}). */
    void decodeFlat(byte[] kinds, int[] sizes, int[] aligns, boolean[] signeds, boolean[] bigEndians) {
        int n = kinds.length;
        if (tapeLen + 2 * n > tape.length) {
            tape = java.util.Arrays.copyOf(tape, Math.max(tape.length * 2, tapeLen + 2 * n));
        }
        for (int i = 0; i < n; i++) {
            alignTo(aligns[i]);
            switch (kinds[i]) {
                case FLAT_INT -> tape[tapeLen++] = readInt(sizes[i], bigEndians[i], signeds[i]);
                case FLAT_BYTES -> readBytes(sizes[i]);
                default -> readCString();
            }
        }
    }

    /**
     * A LEB128 integer (CTF 2 variable-length integer). Its value must fit in 64 bits, as a {@code long} for a signed
     * one and as the bits of an unsigned {@code long} for an unsigned one: one that does not is damage, reported like
     * any other (babeltrace2 2.1 rejects it as well), never cut to its low bits. Encodings padded with extra bytes
     * whose value still fits are read.
     */
    long readLeb128(boolean signed, String field) {
        long v = 0;
        int shift = 0;
        int start = base + (int) (bitPos >>> 3);
        int idx = start;
        int limit = base + (int) (limitBits >>> 3);
        int b;
        // Of the 7-bit groups at bit 63 and above: the bits an unsigned value may not have (all but bit 63), and
        // the OR and AND of all their bits (a signed value's must all be copies of its sign)
        int unsignedExcess = 0;
        int highOr = 0;
        int highAnd = 0x7f;
        do {
            if (idx >= limit) {
                throw new DecodeException("variable-length integer runs past the packet content");
            }
            b = le.get(idx++) & 0xff;
            if (shift < 63) {
                v |= (long) (b & 0x7f) << shift;
            } else {
                int group = b & 0x7f;
                if (shift == 63) {
                    v |= (long) (group & 1) << 63;
                    unsignedExcess |= group & 0x7e;
                } else {
                    unsignedExcess |= group;
                }
                highOr |= group;
                highAnd &= group;
            }
            shift += 7;
        } while ((b & 0x80) != 0);
        if (shift > 63) {
            boolean fits = !signed ? unsignedExcess == 0 : (b & 0x40) != 0 ? highAnd == 0x7f : highOr == 0;
            if (!fits) {
                throw new DecodeException((signed ? "signed" : "unsigned") + " variable-length integer '" + field
                        + "' of " + (idx - start) + " bytes at byte " + (winStart + start)
                        + " does not fit in 64 bits");
            }
        } else if (signed && (b & 0x40) != 0) {
            v |= -1L << shift;
        }
        bitPos = (long) (idx - base) << 3;
        return v;
    }

    void readCString() {
        int start = base + (int) (bitPos >>> 3);
        int limit = base + (int) (limitBits >>> 3);
        ByteBuffer b = le;
        int i = start;
        while (true) {
            if (i >= limit) {
                throw new DecodeException("string without terminating NUL in the packet");
            }
            if (b.get(i) == 0) {
                break;
            }
            i++;
        }
        push(start);
        push(i - start);
        bitPos = (long) (i + 1 - base) << 3;
    }

    void readBytes(long n) {
        if (n < 0 || n * 8 > limitBits - bitPos) {
            throw new DecodeException("byte run of " + n + " bytes runs past the packet content");
        }
        int start = base + (int) (bitPos >>> 3);
        push(start);
        push(n);
        bitPos += n * 8;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
