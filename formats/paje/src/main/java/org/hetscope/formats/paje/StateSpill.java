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
import java.util.Map;

/**
 * A temporary file of state operations that the reader's buffers could not keep: each spill writes every buffer's
 * operations as one run sorted by time, and the replay reads a buffer's runs back merged with what stayed in memory,
 * so the heap holds at most one budget's worth of operations whatever the size of the trace. Paje does not promise
 * time order (StarPU writes out of order), so nothing can be replayed before the end of the file.
 *
 * <p>A record: time, line (longs), operation (byte), value and definition (ints: indices into tables kept here,
 * -1 for none), then the extra fields (an int count, -1 for none, and each string as an int length, -1 for null,
 * and its UTF-8 bytes).
 */
final class StateSpill implements Closeable {
    /** Where a run starts in the file and how many operations it holds. */
    record Run(long offset, long count) {}

    private final Path file;
    private final FileChannel channel;
    private final DataOutputStream out;
    private long written;
    private final List<PajeValue> values = new ArrayList<>();
    private final Map<PajeValue, Integer> valueIds = new IdentityHashMap<>();
    private final List<EventDefinition> defs = new ArrayList<>();
    private final Map<EventDefinition, Integer> defIds = new IdentityHashMap<>();

    private StateSpill(Path file) throws IOException {
        this.file = file;
        this.channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        this.out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16));
    }

    /** A new spill file in the temporary folder (java.io.tmpdir), deleted by {@link #close()}. */
    static StateSpill create() throws IOException {
        Path f = Files.createTempFile("hetscope-paje-", ".states");
        f.toFile().deleteOnExit();
        return new StateSpill(f);
    }

    /** Writes the buffer's operations in replay order as one run. */
    Run write(StateBuffer b) throws IOException {
        long offset = written;
        int[] order = b.order();
        for (int k = 0; k < b.n; k++) {
            int i = order[k];
            out.writeLong(b.time[i]);
            out.writeLong(b.line[i]);
            out.writeByte(b.op[i]);
            out.writeInt(id(b.value[i], values, valueIds));
            out.writeInt(b.def == null ? -1 : id(b.def[i], defs, defIds));
            written += 25;
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

    private static <T> int id(T item, List<T> table, Map<T, Integer> ids) {
        if (item == null) {
            return -1;
        }
        Integer id = ids.get(item);
        if (id == null) {
            id = table.size();
            table.add(item);
            ids.put(item, id);
        }
        return id;
    }

    /** The buffer's operations in replay order: its runs merged with what it still holds. */
    StateBuffer.Ops merged(StateBuffer b) {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the state spill file " + file, e);
        }
        List<StateBuffer.Ops> parts = new ArrayList<>();
        for (Run r : b.runs) {
            parts.add(new RunReader(r));
        }
        parts.add(b.cursor());
        return new Merge(parts);
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
    private final class RunReader implements StateBuffer.Ops {
        private ByteBuffer buf = ByteBuffer.allocate(1 << 16);
        private long filePos;
        private long left;
        private long time;
        private long line;
        private byte op;
        private PajeValue value;
        private EventDefinition def;
        private String[] extras;

        RunReader(Run r) {
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
                need(29);
                time = buf.getLong();
                line = buf.getLong();
                op = buf.get();
                int v = buf.getInt();
                value = v < 0 ? null : values.get(v);
                int d = buf.getInt();
                def = d < 0 ? null : defs.get(d);
                int count = buf.getInt();
                extras = count < 0 ? null : new String[count];
                for (int k = 0; k < count; k++) {
                    need(4);
                    int len = buf.getInt();
                    if (len >= 0) {
                        need(len);
                        extras[k] = new String(buf.array(), buf.position(), len, StandardCharsets.UTF_8);
                        buf.position(buf.position() + len);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the state spill file " + file, e);
            }
            return true;
        }

        /** Makes {@code n} bytes readable from {@code buf}, reading on from the file. */
        private void need(int n) throws IOException {
            if (buf.remaining() >= n) {
                return;
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
                    throw new EOFException("state spill file " + file + " ends inside a run");
                }
                filePos += r;
            }
            buf.flip();
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

        @Override
        public void copyTo(StateBuffer to, int at) {
            to.put(at, time, line, op, value, def, extras);
        }
    }

    /**
     * Several sources in time order merged into one: on equal times the earlier source first (runs are in arrival
     * order, the memory last), so the merge is the stable time order of the whole buffer.
     */
    private static final class Merge implements StateBuffer.Ops {
        private final StateBuffer.Ops[] parts;
        private final boolean[] live;
        private StateBuffer.Ops current;
        private int chosen = -1;

        Merge(List<StateBuffer.Ops> parts) {
            this.parts = parts.toArray(StateBuffer.Ops[]::new);
            this.live = new boolean[this.parts.length];
            for (int p = 0; p < this.parts.length; p++) {
                live[p] = this.parts[p].next();
            }
        }

        @Override
        public boolean next() {
            if (chosen >= 0) {
                live[chosen] = parts[chosen].next();
            }
            chosen = -1;
            for (int p = 0; p < parts.length; p++) {
                if (live[p] && (chosen < 0 || parts[p].time() < parts[chosen].time())) {
                    chosen = p;
                }
            }
            current = chosen < 0 ? null : parts[chosen];
            return current != null;
        }

        @Override
        public long time() {
            return current.time();
        }

        @Override
        public long line() {
            return current.line();
        }

        @Override
        public byte op() {
            return current.op();
        }

        @Override
        public void copyTo(StateBuffer to, int at) {
            current.copyTo(to, at);
        }
    }
}
