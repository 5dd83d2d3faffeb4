package org.hetscope.formats.paje;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * A temporary file of the state and variable operations that the reader's buffers could not keep: each spill writes
 * every buffer's operations as one run sorted by time, and the replay reads a buffer's runs back merged with what
 * stayed in memory, so the heap holds at most one budget's worth of operations whatever the size of the trace.
 * Paje does not promise time order (StarPU writes out of order), so nothing can be replayed before the end of the
 * file.
 *
 * <p>A state record: time, line (longs), operation (byte), value and definition (ints: indices into tables kept
 * here, -1 for none), then the extra fields (an int count, -1 for none, and each string as an int length, -1 for
 * null, and its UTF-8 bytes). A variable record: time, line, operation, value (double).
 */
final class BufferSpill implements Closeable {
    /** Where a run starts in the file and how many operations it holds. */
    record Run(long offset, long count) {}

    private final Path file;
    private final FileChannel channel;
    private final DataOutputStream out;
    private long written;
    private final IdTable<PajeValue> values = new IdTable<>(new IdentityHashMap<>());
    private final IdTable<EventDefinition> defs = new IdTable<>(new IdentityHashMap<>());

    private BufferSpill(Path file) throws IOException {
        this.file = file;
        this.channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        this.out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16));
    }

    /** A new spill file (see {@link SpillFiles}), deleted by {@link #close()}. */
    static BufferSpill create() throws IOException {
        return new BufferSpill(SpillFiles.create("hetscope-paje-", "the Paje states and variables"));
    }

    /** Writes the buffer's operations in replay order as one run. */
    Run write(StateBuffer b) throws IOException {
        long offset = written;
        int[] order = b.order();
        for (int k = 0; k < b.n; k++) {
            int i = order[k];
            head(b.time[i], b.line[i], b.op[i]);
            out.writeInt(values.id(b.value[i]));
            out.writeInt(b.def == null ? -1 : defs.id(b.def[i]));
            written += 8;
            String[] x = b.extras == null ? null : b.extras[i];
            out.writeInt(x == null ? -1 : x.length);
            written += 4;
            if (x != null) {
                for (String s : x) {
                    byte[] u = s == null ? null : s.getBytes(StandardCharsets.UTF_8);
                    out.writeInt(u == null ? -1 : u.length);
                    written += 4;
                    if (u != null) {
                        out.write(u);
                        written += u.length;
                    }
                }
            }
        }
        return new Run(offset, b.n);
    }

    /** Writes the buffer's operations in replay order as one run. */
    Run write(VariableBuffer b) throws IOException {
        long offset = written;
        int[] order = b.order();
        for (int k = 0; k < b.n; k++) {
            int i = order[k];
            head(b.time[i], b.line[i], b.op[i]);
            out.writeDouble(b.value[i]);
            written += 8;
        }
        return new Run(offset, b.n);
    }

    /** What every record starts with: time, line, operation. */
    private void head(long time, long line, byte op) throws IOException {
        out.writeLong(time);
        out.writeLong(line);
        out.writeByte(op);
        written += 17;
    }

    /** The buffer's operations in replay order: its runs merged with what it still holds. */
    StateBuffer.Ops merged(StateBuffer b) {
        return new StateBuffer.Merge(parts(b.runs, StateRun::new, b.cursor()).toArray(StateBuffer.Ops[]::new));
    }

    /** The buffer's operations in replay order: its runs merged with what it still holds. */
    VariableBuffer.Ops merged(VariableBuffer b) {
        return new VariableBuffer.Merge(
                parts(b.runs, VariableRun::new, b.cursor()).toArray(VariableBuffer.Ops[]::new));
    }

    /** A reader for each run, oldest first, then what is in memory. */
    private <T> List<T> parts(List<Run> runs, java.util.function.Function<Run, T> reader, T memory) {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the spill file " + file, e);
        }
        List<T> parts = new ArrayList<>();
        for (Run r : runs) {
            parts.add(reader.apply(r));
        }
        parts.add(memory);
        return parts;
    }

    @Override
    public void close() throws IOException {
        try {
            out.close();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** One run, read back with positioned reads (runs of several buffers share the channel). */
    private abstract class RunInput implements SortedOps {
        private ByteBuffer buf = ByteBuffer.allocate(1 << 16);
        private long filePos;
        private long left;
        long time;
        long line;
        byte op;

        RunInput(Run r) {
            this.filePos = r.offset();
            this.left = r.count();
            buf.limit(0);
        }

        @Override
        public boolean next() {
            if (left == 0) {
                return false;
            }
            left--;
            try {
                need(17);
                time = buf.getLong();
                line = buf.getLong();
                op = buf.get();
                decodeRest();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the spill file " + file, e);
            }
            return true;
        }

        /** Reads what follows time, line and operation in a record. */
        abstract void decodeRest() throws IOException;

        /** Makes {@code n} bytes readable from the buffer, reading on from the file. */
        final ByteBuffer need(int n) throws IOException {
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
            while (buf.position() < n) {
                int r = channel.read(buf, filePos);
                if (r < 0) {
                    throw new EOFException("spill file " + file + " ends inside a run");
                }
                filePos += r;
            }
            buf.flip();
            return buf;
        }

        @Override
        public long time() {
            return time;
        }

        @Override
        public long line() {
            return line;
        }

        @Override
        public byte op() {
            return op;
        }
    }

    private final class StateRun extends RunInput implements StateBuffer.Ops {
        private PajeValue value;
        private EventDefinition def;
        private String[] extras;

        StateRun(Run r) {
            super(r);
        }

        @Override
        void decodeRest() throws IOException {
            ByteBuffer b = need(12);
            value = values.get(b.getInt());
            def = defs.get(b.getInt());
            int count = b.getInt();
            extras = count < 0 ? null : new String[count];
            for (int k = 0; k < count; k++) {
                int len = need(4).getInt();
                if (len >= 0) {
                    b = need(len);
                    extras[k] = new String(b.array(), b.position(), len, StandardCharsets.UTF_8);
                    b.position(b.position() + len);
                }
            }
        }

        @Override
        public void copyTo(StateBuffer to, int at) {
            to.put(at, time, line, op, value, def, extras);
        }
    }

    private final class VariableRun extends RunInput implements VariableBuffer.Ops {
        private double value;

        VariableRun(Run r) {
            super(r);
        }

        @Override
        void decodeRest() throws IOException {
            value = need(8).getDouble();
        }

        @Override
        public double value() {
            return value;
        }
    }
}
