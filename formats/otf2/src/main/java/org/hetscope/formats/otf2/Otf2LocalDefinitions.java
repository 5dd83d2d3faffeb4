package org.hetscope.formats.otf2;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.model.TraceFormatException;

/**
 * One location's local definitions: the tables that map the ids its events use to global ids, and the clock
 * offsets that put its timestamps on the global clock.
 */
final class Otf2LocalDefinitions {
    static final int REGION = 3;
    static final int METRIC = 5;
    static final int COMM = 6;

    private final Map<Integer, Map<Long, Long>> mappings = new HashMap<>();
    private final List<long[]> clockOffsets = new ArrayList<>();

    static Otf2LocalDefinitions read(Otf2Buffer buf, long chunkSize) throws TraceFormatException {
        Otf2LocalDefinitions d = new Otf2LocalDefinitions();
        Otf2Records r = new Otf2Records(buf, false, chunkSize);
        while (r.next()) {
            switch (r.type) {
                case 5 -> {
                    int type = buf.u8();
                    long size = buf.u64();
                    int mode = buf.u8();
                    Map<Long, Long> map = new HashMap<>();
                    for (long i = 0; i < size; i++) {
                        if (mode == 0) {
                            map.put(i, buf.u64());
                        } else {
                            long localId = buf.u64();
                            map.put(localId, buf.u64());
                        }
                    }
                    d.mappings.put(type, map);
                }
                case 6 -> {
                    long time = buf.u64full();
                    long offset = buf.i64();
                    d.clockOffsets.add(new long[] {time, offset});
                }
                default -> {
                }
            }
            r.finish();
        }
        return d;
    }

    long map(int type, long localId) {
        Map<Long, Long> m = mappings.get(type);
        if (m == null) {
            return localId;
        }
        return m.getOrDefault(localId, localId);
    }

    /**
     * Applies the clock offsets the way the OTF2 library does: linear interpolation between neighbouring
     * offsets, and extrapolation of the first (last) segment before (after) them.
     */
    long correct(long time) {
        if (clockOffsets.isEmpty()) {
            return time;
        }
        if (clockOffsets.size() == 1) {
            return time + clockOffsets.get(0)[1];
        }
        int i = 1;
        while (i < clockOffsets.size() - 1 && time > clockOffsets.get(i)[0]) {
            i++;
        }
        long[] a = clockOffsets.get(i - 1);
        long[] b = clockOffsets.get(i);
        double slope = (double) (b[1] - a[1]) / (double) (b[0] - a[0]);
        return time + Math.round(a[1] + slope * (double) (time - a[0]));
    }
}
