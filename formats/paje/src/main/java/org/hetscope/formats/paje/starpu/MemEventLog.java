package org.hetscope.formats.paje.starpu;

import java.io.Closeable;
import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.hetscope.formats.paje.IdTable;
import org.hetscope.formats.paje.starpu.StarpuImport.MemEvent;

/**
 * The MSI or memory-manager events of a StarPU trace, which are replayed in (time, line) order once the whole file
 * is read. They are records of longs sorted on disk past a budget ({@link SortedLongRecords}), so a trace of any
 * size needs at most one budget of heap for them. Each iteration reads them again from the start.
 *
 * <p>A record: time, line, node, then type, handle and tid as indices into the strings kept here (-1 for null),
 * since types, handles and threads repeat across millions of events; then info and size: the number itself when
 * the text is a plain decimal (communication ids, one per copy, would otherwise fill the table), else
 * {@code -2 - index}, -1 for null.
 */
final class MemEventLog implements Iterable<MemEvent>, Closeable {
    /** Longs per event record. */
    static final int WIDTH = 8;
    private final SortedLongRecords records;
    private final IdTable<String> strings = new IdTable<>(new HashMap<>());
    private final long[] record = new long[WIDTH];

    /** @param budget events held in memory before they go to a run */
    MemEventLog(String name, long budget) {
        records = new SortedLongRecords(name + " events", WIDTH, 2, budget);
    }

    void add(MemEvent e) {
        record[0] = e.time();
        record[1] = e.line();
        record[2] = e.node();
        record[3] = strings.id(e.type());
        record[4] = strings.id(e.handle());
        record[5] = strings.id(e.tid());
        record[6] = numberOrId(e.info());
        record[7] = numberOrId(e.size());
        records.add(record);
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
        SortedLongRecords.Cursor c = records.cursor();
        return new Iterator<>() {
            private boolean ahead;
            private boolean more;

            @Override
            public boolean hasNext() {
                if (!ahead) {
                    more = c.next();
                    ahead = true;
                }
                return more;
            }

            @Override
            public MemEvent next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                ahead = false;
                return new MemEvent(c.get(0), c.get(1), strings.get((int) c.get(3)), (int) c.get(2),
                        strings.get((int) c.get(4)), numberOrString(c.get(6)), numberOrString(c.get(7)),
                        strings.get((int) c.get(5)));
            }
        };
    }

    @Override
    public void close() throws IOException {
        records.close();
    }
}
