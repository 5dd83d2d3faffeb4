package org.hetscope.formats.starpu;

import java.util.Arrays;
import org.hetscope.formats.paje.PajeLink;
import org.hetscope.model.LongLongMap;

/**
 * StarPU's fetch, prefetch and idle-fetch links ({@code com_N} keys), kept until the driver copies that carry the
 * same communication id are built: in columns by communication id, since a trace has one per transfer. A key seen
 * again replaces the link before it (the caller reports it).
 */
final class TransferLinks {
    private static final long NONE = -1;
    private final LongLongMap rowOf = new LongLongMap(1024);
    private long[] com = new long[256];
    private long[] start = new long[256];
    private long[] end = new long[256];
    private long[] startLine = new long[256];
    private String[] linkClass = new String[256];
    private boolean[] used = new boolean[256];
    private int rows;

    /** The communication id of a {@code com_N} key written as StarPU writes it, or -1 for any other key. */
    static long comId(String key) {
        if (!key.startsWith("com_") || key.length() < 5 || key.length() > 23) {
            return -1;
        }
        for (int i = 4; i < key.length(); i++) {
            if (key.charAt(i) < '0' || key.charAt(i) > '9') {
                return -1;
            }
        }
        try {
            long id = Long.parseLong(key, 4, key.length(), 10);
            // one spelling per id: "com_007" is not the key of copy 7
            return Long.toString(id).length() == key.length() - 4 ? id : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Keeps a link whose key is {@code com_N}; false when that key had a link already (this one replaces it). */
    boolean put(long comId, PajeLink l, String cls) {
        if (rows == com.length) {
            int cap = rows + (rows >> 1); // 1.5x: these columns are the largest the import keeps
            com = Arrays.copyOf(com, cap);
            start = Arrays.copyOf(start, cap);
            end = Arrays.copyOf(end, cap);
            startLine = Arrays.copyOf(startLine, cap);
            linkClass = Arrays.copyOf(linkClass, cap);
            used = Arrays.copyOf(used, cap);
        }
        com[rows] = comId;
        start[rows] = l.start();
        end[rows] = l.end();
        startLine[rows] = l.startLine();
        linkClass[rows] = cls;
        return rowOf.put(comId, rows++, NONE) == NONE;
    }

    /** The row of the link of a communication id, marked used, or -1. */
    int use(long comId) {
        int r = comId < 0 ? -1 : (int) rowOf.get(comId, NONE);
        if (r >= 0) {
            used[r] = true;
        }
        return r;
    }

    long start(int row) {
        return start[row];
    }

    long end(int row) {
        return end[row];
    }

    String linkClass(int row) {
        return linkClass[row];
    }

    /** Calls {@code unused} with each kept link no copy used, in the order they arrived. */
    void forEachUnused(java.util.function.ObjLongConsumer<String> unused) {
        for (int r = 0; r < rows; r++) {
            if (!used[r] && rowOf.get(com[r], NONE) == r) {
                unused.accept("com_" + com[r], startLine[r]);
            }
        }
    }
}
