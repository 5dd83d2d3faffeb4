package org.hetscope.formats.ctf;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hetscope.formats.ctf.meta.Ctf2Parser;
import org.hetscope.formats.ctf.meta.MetadataException;
import org.hetscope.formats.ctf.meta.TraceClass;
import org.hetscope.formats.ctf.meta.TsdlParser;
import org.hetscope.model.TraceFormatException;

/**
 * Reads a {@code metadata} file: plain TSDL text, packetized TSDL (37-byte packet headers with magic
 * 0x75D11D57 around the text) or CTF 2 JSON fragments (starting with the record separator 0x1E).
 */
public final class MetadataReader {
    private static final int PACKET_MAGIC = 0x75D11D57;
    private static final int HEADER = 37;

    public static TraceClass read(Path file) throws IOException, TraceFormatException {
        byte[] raw = Files.readAllBytes(file);
        String text = text(file, raw);
        try {
            if (!text.isEmpty() && text.charAt(0) == '\u001e') {
                return Ctf2Parser.parse(text);
            }
            return TsdlParser.parse(text);
        } catch (MetadataException e) {
            throw new TraceFormatException(file, e.position(), e.getMessage());
        }
    }

    /** The metadata text, with packet headers removed when the file is packetized. */
    public static String text(Path file, byte[] raw) throws TraceFormatException {
        if (raw.length < 4) {
            throw new TraceFormatException(file, "byte 0", "metadata file of " + raw.length + " bytes");
        }
        ByteBuffer b = ByteBuffer.wrap(raw);
        ByteOrder order;
        if (b.order(ByteOrder.LITTLE_ENDIAN).getInt(0) == PACKET_MAGIC) {
            order = ByteOrder.LITTLE_ENDIAN;
        } else if (b.order(ByteOrder.BIG_ENDIAN).getInt(0) == PACKET_MAGIC) {
            order = ByteOrder.BIG_ENDIAN;
        } else {
            String s = new String(raw, StandardCharsets.UTF_8);
            checkText(file, s);
            return s;
        }
        b.order(order);
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length);
        int off = 0;
        while (off + HEADER <= raw.length) {
            if (b.getInt(off) != PACKET_MAGIC) {
                throw new TraceFormatException(file, "metadata packet at byte " + off, "bad metadata packet magic");
            }
            long content = Integer.toUnsignedLong(b.getInt(off + 24)) / 8;
            long packet = Integer.toUnsignedLong(b.getInt(off + 28)) / 8;
            int compression = raw[off + 32];
            if (content < HEADER || packet < content || off + content > raw.length) {
                throw new TraceFormatException(file, "metadata packet at byte " + off,
                        "bad metadata packet sizes (content " + content + ", packet " + packet + " bytes)");
            }
            if (compression != 0) {
                throw new TraceFormatException(file, "metadata packet at byte " + off, "compressed metadata");
            }
            out.write(raw, off + HEADER, (int) content - HEADER);
            off += (int) Math.max(packet, content);
        }
        String s = out.toString(StandardCharsets.UTF_8);
        checkText(file, s);
        return s;
    }

    private static void checkText(Path file, String s) throws TraceFormatException {
        int bad = 0;
        int n = Math.min(s.length(), 4096);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c == '\ufffd' || c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\u001e' && c != 0) {
                bad++;
            }
        }
        if (bad > n / 20 + 1) {
            throw new TraceFormatException(file, "byte 0", "metadata is neither TSDL text, packetized TSDL nor CTF 2");
        }
    }

    private MetadataReader() {}
}
