package org.hetscope.formats.otf2;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes small OTF2 archives byte by byte, in either byte order, for tests of the reader. */
final class Otf2TestWriter {
    private final boolean bigEndian;
    private ByteArrayOutputStream out = new ByteArrayOutputStream();
    private ByteArrayOutputStream record;

    Otf2TestWriter(boolean bigEndian) {
        this.bigEndian = bigEndian;
    }

    Otf2TestWriter u8(int v) {
        (record != null ? record : out).write(v);
        return this;
    }

    Otf2TestWriter fixed(long v, int n) {
        for (int i = 0; i < n; i++) {
            int shift = bigEndian ? 8 * (n - 1 - i) : 8 * i;
            u8((int) (v >>> shift) & 0xFF);
        }
        return this;
    }

    Otf2TestWriter full(long v) {
        return fixed(v, 8);
    }

    /** OTF2's compressed integer: length byte then the significant bytes. */
    Otf2TestWriter c(long v) {
        if (v == 0) {
            return u8(0);
        }
        if (v == -1) {
            return u8(0xFF);
        }
        int n = 8;
        while (n > 1 && (v >>> (8 * (n - 1))) == 0) {
            n--;
        }
        u8(n);
        return fixed(v, n);
    }

    Otf2TestWriter str(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        for (byte x : b) {
            u8(x & 0xFF);
        }
        return u8(0);
    }

    Otf2TestWriter chunkHeader(long first, long last) {
        u8(3);
        u8(bigEndian ? 0x23 : 0x42);
        return full(first).full(last);
    }

    Otf2TestWriter begin(int type) {
        u8(type);
        record = new ByteArrayOutputStream();
        return this;
    }

    Otf2TestWriter end() {
        byte[] body = record.toByteArray();
        record = null;
        u8(body.length);
        out.writeBytes(body);
        return this;
    }

    Otf2TestWriter time(long ticks) {
        u8(5);
        return full(ticks);
    }

    /** Pads to {@code chunkSize} after an end-of-chunk byte and opens the next chunk. */
    Otf2TestWriter nextChunk(int chunkSize, long first, long last) {
        u8(0);
        while (out.size() % chunkSize != 0) {
            u8(0);
        }
        return chunkHeader(first, last);
    }

    int size() {
        return out.size();
    }

    void writeTo(Path file) throws IOException {
        Files.write(file, out.toByteArray());
        out = new ByteArrayOutputStream();
    }

    /**
     * Two locations: rank 0 enters main, sends 64 bytes with tag 7 inside MPI_Send, records a metric, leaves;
     * rank 1 enters main, receives inside MPI_Recv, leaves. Event chunks of 64 bytes force chunk changes.
     */
    static void writeArchive(Path dir, boolean bigEndian) throws IOException {
        writeArchive(dir, bigEndian, 1);
    }

    /** The same archive with rank 1's location in group {@code rank1Group} (1 is its own; others are undefined). */
    static void writeArchive(Path dir, boolean bigEndian, long rank1Group) throws IOException {
        Files.createDirectories(dir.resolve("traces"));
        int evtChunk = 64;
        Otf2TestWriter w = new Otf2TestWriter(bigEndian);
        w.u8(3).u8(bigEndian ? 0x23 : 0x42).str("OTF2").u8(3).u8(2).u8(2).u8(3).u8(0)
                .full(evtChunk).full(1 << 18).u8(1).u8(1).full(3).full(20).str("").str("hetscope test").str("");
        w.fixed(0, 4);
        w.writeTo(dir.resolve("traces.otf2"));

        w.chunkHeader(1, 0);
        w.begin(5).c(1_000_000L).c(5000).c(100_000).end();
        String[] strings = {"", "main", "MPI_Send", "MPI_Recv", "rank 0", "rank 1", "thread", "PAPI_TOT_INS", "#",
            "MPI_COMM_WORLD", "saxpy_kernel", "CUDA context 1", "CUDA stream 0", "cudaLaunchKernel"};
        for (int i = 0; i < strings.length; i++) {
            w.begin(10).c(i).str(strings[i]).end();
        }
        // regions: id, name, description, 1.x type, file, begin, end, canonical, role, paradigm, flags
        w.begin(15).c(0).c(1).c(0).u8(0).c(0).c(0).c(0).c(1).u8(1).u8(2).c(0).end();
        w.begin(15).c(1).c(2).c(0).u8(0).c(0).c(0).c(0).c(2).u8(10).u8(4).c(0).end();
        w.begin(15).c(2).c(3).c(0).u8(0).c(0).c(0).c(0).c(3).u8(10).u8(4).c(0).end();
        w.begin(15).c(3).c(10).c(0).u8(0).c(0).c(0).c(0).c(10).u8(1).u8(5).c(0).end();
        w.begin(15).c(4).c(13).c(0).u8(0).c(0).c(0).c(0).c(13).u8(1).u8(5).c(0).end();
        w.begin(13).c(0).c(4).u8(1).c(0).end();
        w.begin(13).c(1).c(5).u8(1).c(0).end();
        w.begin(13).c(2).c(11).u8(2).c(0).end();
        w.begin(14).c(0).c(6).u8(1).c(7).c(0).end();
        w.begin(14).c(1).c(6).u8(1).c(5).c(rank1Group).end();
        w.begin(14).c(2).c(12).u8(2).c(2).c(2).end();
        w.begin(19).c(0).c(7).c(0).u8(0).u8(0).u8(4).u8(0).c(0).c(8).end();
        w.begin(20).c(0).u8(1).c(0).u8(0).u8(0).end();
        w.begin(18).c(0).c(0).u8(0).c(2).c(0).c(1).u8(4).u8(4).c(0).end();
        w.begin(22).c(0).c(9).c(0).c(-1L & 0xFFFFFFFFL).end();
        w.u8(2);
        w.writeTo(dir.resolve("traces.def"));

        // rank 0 uses local region ids 5,6 mapped to global 0,1 (dense map of size 7 would be long; sparse here)
        w.chunkHeader(1, 0);
        w.begin(5).u8(3).c(2).u8(1).c(5).c(0).c(6).c(1).end();
        w.u8(2);
        w.writeTo(dir.resolve("traces/0.def"));

        w.chunkHeader(1, 3);
        w.time(5100).u8(12).c(5);
        w.time(5200).u8(12).c(6);
        w.time(5300).begin(14).c(1).c(0).c(7).c(64).end();
        w.nextChunk(evtChunk, 4, 7);
        w.time(5300).begin(31).c(0).u8(1).u8(4).c(123456).end();
        w.time(5400).u8(13).c(6);
        w.time(5900).u8(13).c(5);
        w.u8(2);
        w.writeTo(dir.resolve("traces/0.evt"));

        w.chunkHeader(1, 4);
        w.time(5150).u8(12).c(0);
        w.time(5160).u8(12).c(4);
        w.time(5170).u8(13).c(4);
        w.time(5250).u8(12).c(2);
        w.time(5500).begin(18).c(0).c(0).c(7).c(64).end();
        w.time(5600).u8(13).c(2);
        w.time(6000).u8(13).c(0);
        w.u8(2);
        w.writeTo(dir.resolve("traces/1.evt"));

        w.chunkHeader(1, 2);
        w.time(5180).u8(12).c(3);
        w.time(5230).u8(13).c(3);
        w.u8(2);
        w.writeTo(dir.resolve("traces/2.evt"));
    }
}
