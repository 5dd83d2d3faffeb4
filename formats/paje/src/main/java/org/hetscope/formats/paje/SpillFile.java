package org.hetscope.formats.paje;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One temporary file (see {@link SpillFiles}) that the readers append sorted runs to and read back, several runs
 * side by side, with positioned reads; deleted by {@link #close()}.
 */
public final class SpillFile implements Closeable {
    private final Path file;
    private final String what;
    private final FileChannel channel;
    private final Counting counted;
    private final DataOutputStream out;

    private SpillFile(Path file, String what) throws IOException {
        this.file = file;
        this.what = what;
        this.channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        this.counted = new Counting(new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16));
        this.out = new DataOutputStream(counted);
    }

    /** A new spill file; {@code what} says in errors what it holds ("the Paje states and variables"). */
    public static SpillFile create(String prefix, String what) throws IOException {
        return new SpillFile(SpillFiles.create(prefix, what), what);
    }

    /** Where records are appended. */
    public DataOutputStream out() {
        return out;
    }

    /** How many bytes were appended: where the next run starts. */
    public long size() {
        return counted.count;
    }

    /** An error while writing, naming the file and what it holds. */
    public UncheckedIOException writeError(IOException e) {
        return new UncheckedIOException("cannot write the spill file of " + what + " " + file + ": " + e, e);
    }

    /** Reads from {@code offset} on; what was appended before is flushed first. */
    public Input read(long offset) {
        try {
            out.flush();
        } catch (IOException e) {
            throw writeError(e);
        }
        return new Input(offset);
    }

    @Override
    public void close() throws IOException {
        try {
            out.close();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Reads on from one place in the file, through its own buffer. */
    public final class Input {
        private ByteBuffer buf = ByteBuffer.allocate(1 << 16);
        private long filePos;

        private Input(long offset) {
            this.filePos = offset;
            buf.limit(0);
        }

        /** Makes {@code n} bytes readable from the returned buffer, reading on from the file. */
        public ByteBuffer need(int n) {
            if (buf.remaining() >= n) {
                return buf;
            }
            if (n > buf.capacity()) {
                ByteBuffer bigger = ByteBuffer.allocate(Integer.highestOneBit(n) << 1);
                bigger.put(buf);
                buf = bigger;
            } else {
                buf.compact();
            }
            try {
                while (buf.position() < n) {
                    int r = channel.read(buf, filePos);
                    if (r < 0) {
                        throw new EOFException("spill file of " + what + " " + file + " ends inside a run");
                    }
                    filePos += r;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the spill file of " + what + " " + file + ": " + e, e);
            }
            buf.flip();
            return buf;
        }
    }

    /** Counts the bytes on their way to the file (DataOutputStream's own count is an int). */
    private static final class Counting extends FilterOutputStream {
        long count;

        Counting(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }
}
