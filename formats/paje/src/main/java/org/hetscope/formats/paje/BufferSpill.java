package org.hetscope.formats.paje;

import java.io.Closeable;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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

    private final SpillFile file;
    private final DataOutputStream out;
    private final IdTable<PajeValue> values = new IdTable<>(new IdentityHashMap<>());
    private final IdTable<EventDefinition> defs = new IdTable<>(new IdentityHashMap<>());

    private BufferSpill(SpillFile file) {
        this.file = file;
        this.out = file.out();
    }

    /** A new spill file (see {@link SpillFiles}), deleted by {@link #close()}. */
    static BufferSpill create() throws IOException {
        return new BufferSpill(SpillFile.create("hetscope-paje-", "the Paje states and variables"));
    }

    /** Writes the buffer's operations in replay order as one run. */
    Run write(StateBuffer b) throws IOException {
        long offset = file.size();
        int[] order = b.order();
        for (int k = 0; k < b.n; k++) {
            int i = order[k];
            head(b.time[i], b.line[i], b.op[i]);
            out.writeInt(values.id(b.value[i]));
            out.writeInt(b.def == null ? -1 : defs.id(b.def[i]));
            String[] x = b.extras == null ? null : b.extras[i];
            out.writeInt(x == null ? -1 : x.length);
            if (x != null) {
                for (String s : x) {
                    byte[] u = s == null ? null : s.getBytes(StandardCharsets.UTF_8);
                    out.writeInt(u == null ? -1 : u.length);
                    if (u != null) {
                        out.write(u);
                    }
                }
            }
        }
        return new Run(offset, b.n);
    }

    /** Writes the buffer's operations in replay order as one run. */
    Run write(VariableBuffer b) throws IOException {
        long offset = file.size();
        int[] order = b.order();
        for (int k = 0; k < b.n; k++) {
            int i = order[k];
            head(b.time[i], b.line[i], b.op[i]);
            out.writeDouble(b.value[i]);
        }
        return new Run(offset, b.n);
    }

    /** What every record starts with: time, line, operation. */
    private void head(long time, long line, byte op) throws IOException {
        out.writeLong(time);
        out.writeLong(line);
        out.writeByte(op);
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
        List<T> parts = new ArrayList<>();
        for (Run r : runs) {
            parts.add(reader.apply(r));
        }
        parts.add(memory);
        return parts;
    }

    @Override
    public void close() throws IOException {
        file.close();
    }

    /** One run, read back with positioned reads (runs of several buffers share the channel). */
    private abstract class RunInput implements SortedOps {
        private final SpillFile.Input in;
        private long left;
        long time;
        long line;
        byte op;

        RunInput(Run r) {
            this.in = file.read(r.offset());
            this.left = r.count();
        }

        @Override
        public boolean next() {
            if (left == 0) {
                return false;
            }
            left--;
            ByteBuffer b = in.need(17);
            time = b.getLong();
            line = b.getLong();
            op = b.get();
            decodeRest();
            return true;
        }

        /** Reads what follows time, line and operation in a record. */
        abstract void decodeRest();

        final ByteBuffer need(int n) {
            return in.need(n);
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
        void decodeRest() {
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
        void decodeRest() {
            value = need(8).getDouble();
        }

        @Override
        public double value() {
            return value;
        }
    }
}
