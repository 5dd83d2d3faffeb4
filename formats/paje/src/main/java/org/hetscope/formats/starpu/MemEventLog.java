package org.hetscope.formats.starpu;

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
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.hetscope.formats.paje.IdTable;
import org.hetscope.formats.paje.SpillFiles;
import org.hetscope.formats.starpu.StarpuImport.MemEvent;

/**
 * The MSI or memory-manager events of a StarPU trace, which are replayed in (time, line) order once the whole file
 * is read. Past a budget the events held in memory are sorted and written to a temporary file as one run; iterating
 * merges the runs with what is still in memory, so a trace of any size needs at most one budget of heap for them.
 * Each iteration reads the runs again (the import goes over the events twice: block ids, then the replay).
 *
 * <p>A record: time, line (longs), node (int), then type, handle and tid as ints indexing the strings kept here
 * (-1 for null), since handles and threads repeat across millions of events; then info and size as longs: the
 * number itself when the text is a plain decimal (communication ids, one per copy, would otherwise fill the
 * table), else {@code -2 - index}, -1 for null.
 */
final class MemEventLog implements Iterable<MemEvent>, Closeable {
    private static final Comparator<MemEvent> ORDER = Comparator.comparingLong(MemEvent::time)
            .thenComparingLong(MemEvent::line);
    private static final int RECORD = 8 + 8 + 4 + 3 * 4 + 2 * 8;

    private final String name;
    private final long budget;
    private final List<MemEvent> memory = new ArrayList<>();
    private boolean memorySorted = true;
    private final List<long[]> runs = new ArrayList<>();
    private final IdTable<String> strings = new IdTable<>(new HashMap<>());
    private Path file;
    private FileChannel channel;
    private DataOutputStream out;
    private long written;

    /** @param budget events held in memory before they go to a run */
    MemEventLog(String name, long budget) {
        this.name = name;
        this.budget = budget;
    }

    void add(MemEvent e) {
        memory.add(e);
        memorySorted = false;
        if (memory.size() >= budget) {
            spill();
        }
    }

    private void sortMemory() {
        if (!memorySorted) {
            memory.sort(ORDER);
            memorySorted = true;
        }
    }

    private void spill() {
        try {
            if (file == null) {
                file = SpillFiles.create("hetscope-starpu-" + name + "-", "the StarPU " + name + " events");
                channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16));
            }
            sortMemory();
            runs.add(new long[] {written, memory.size()});
            for (MemEvent e : memory) {
                out.writeLong(e.time());
                out.writeLong(e.line());
                out.writeInt(e.node());
                out.writeInt(strings.id(e.type()));
                out.writeInt(strings.id(e.handle()));
                out.writeInt(strings.id(e.tid()));
                out.writeLong(numberOrId(e.info()));
                out.writeLong(numberOrId(e.size()));
            }
            written += (long) RECORD * memory.size();
            memory.clear();
        } catch (IOException e) {
            throw new UncheckedIOException(file == null ? e.getMessage()
                    : "cannot write the StarPU event spill file " + file + ": " + e, e);
        }
    }


    /** A plain decimal's value (no sign, no leading zero, at most 18 digits), else -2 - its string index; null -1. */
    private long numberOrId(String s) {
        if (s == null) {
            return -1;
        }
        int n = s.length();
        boolean plain = n > 0 && n <= 18 && (n == 1 || s.charAt(0) != '0');
        for (int i = 0; plain && i < n; i++) {
            plain = s.charAt(i) >= '0' && s.charAt(i) <= '9';
        }
        return plain ? Long.parseLong(s) : -2 - strings.id(s);
    }

    private String numberOrString(long v) {
        return v >= 0 ? Long.toString(v) : v == -1 ? null : strings.get((int) (-2 - v));
    }

    /** The events in (time, line) order. */
    @Override
    public Iterator<MemEvent> iterator() {
        sortMemory();
        if (runs.isEmpty()) {
            return memory.iterator();
        }
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the StarPU event spill file " + file, e);
        }
        List<Iterator<MemEvent>> parts = new ArrayList<>();
        for (long[] r : runs) {
            parts.add(new RunIterator(r[0], r[1]));
        }
        parts.add(memory.iterator());
        return new Merge(parts);
    }

    @Override
    public void close() throws IOException {
        if (file != null) {
            try {
                out.close();
            } finally {
                Files.deleteIfExists(file);
                file = null;
            }
        }
    }

    /** One run, read with positioned reads so that runs can be read side by side. */
    private final class RunIterator implements Iterator<MemEvent> {
        private final ByteBuffer buf = ByteBuffer.allocate(RECORD * 2048);
        private long filePos;
        private long left;

        RunIterator(long offset, long count) {
            this.filePos = offset;
            this.left = count;
            buf.limit(0);
        }

        @Override
        public boolean hasNext() {
            return left > 0;
        }

        @Override
        public MemEvent next() {
            if (left == 0) {
                throw new NoSuchElementException();
            }
            left--;
            try {
                if (buf.remaining() < RECORD) {
                    buf.compact();
                    while (buf.position() < RECORD) {
                        int r = channel.read(buf, filePos);
                        if (r < 0) {
                            throw new EOFException("StarPU event spill file " + file + " ends inside a run");
                        }
                        filePos += r;
                    }
                    buf.flip();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the StarPU event spill file " + file, e);
            }
            long time = buf.getLong();
            long line = buf.getLong();
            int node = buf.getInt();
            String type = strings.get(buf.getInt());
            String handle = strings.get(buf.getInt());
            String tid = strings.get(buf.getInt());
            String info = numberOrString(buf.getLong());
            return new MemEvent(time, line, type, node, handle, info, numberOrString(buf.getLong()), tid);
        }
    }

    /** Sorted iterators merged by (time, line); lines are unique, so the order is total. */
    private static final class Merge implements Iterator<MemEvent> {
        private final List<Iterator<MemEvent>> parts;
        private final MemEvent[] heads;

        Merge(List<Iterator<MemEvent>> parts) {
            this.parts = parts;
            this.heads = new MemEvent[parts.size()];
            for (int p = 0; p < heads.length; p++) {
                heads[p] = parts.get(p).hasNext() ? parts.get(p).next() : null;
            }
        }

        @Override
        public boolean hasNext() {
            for (MemEvent h : heads) {
                if (h != null) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public MemEvent next() {
            int chosen = -1;
            for (int p = 0; p < heads.length; p++) {
                if (heads[p] != null && (chosen < 0 || ORDER.compare(heads[p], heads[chosen]) < 0)) {
                    chosen = p;
                }
            }
            if (chosen < 0) {
                throw new NoSuchElementException();
            }
            MemEvent e = heads[chosen];
            Iterator<MemEvent> it = parts.get(chosen);
            heads[chosen] = it.hasNext() ? it.next() : null;
            return e;
        }
    }
}
