package org.hetscope.formats.opencl;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Where a buffer's data is valid over its lifetime (spec gpu-runtime-tracing §3): the host copy is valid from the
 * allocation (the program's data is there), the device copy from allocation only for buffers created from host
 * memory (COPY_HOST_PTR / USE_HOST_PTR). A copy becomes valid at the end of the transfer into it; a device-side
 * write (a kernel that may write the buffer, a fill, a copy into it) makes the host copy stale at its start.
 */
final class BufferResidency {
    private BufferResidency() {}

    enum Kind { HOST_TO_DEVICE, DEVICE_TO_HOST, DEVICE_WRITE, DEVICE_READ }

    record Access(Kind kind, long start, long end) {}

    /** A constant state: {@code host}, {@code device} or {@code both} valid. */
    record Interval(long start, long end, String state) {}

    static List<Interval> of(long alloc, long free, boolean deviceValidAtAlloc, List<Access> accesses) {
        // state changes as (time, order, hostValid?, deviceValid?) with -1 = unchanged
        List<long[]> changes = new ArrayList<>();
        for (Access a : accesses) {
            switch (a.kind()) {
                case HOST_TO_DEVICE -> changes.add(new long[] {a.end(), -1, 1});
                case DEVICE_TO_HOST -> changes.add(new long[] {a.end(), 1, -1});
                case DEVICE_WRITE -> changes.add(new long[] {a.start(), 0, 1});
                case DEVICE_READ -> { }
            }
        }
        changes.sort(Comparator.comparingLong(c -> c[0]));
        boolean host = true;
        boolean device = deviceValidAtAlloc;
        List<Interval> out = new ArrayList<>();
        long from = alloc;
        int i = 0;
        while (i < changes.size() && changes.get(i)[0] < free) {
            long t = Math.max(changes.get(i)[0], alloc);
            boolean h = host;
            boolean d = device;
            while (i < changes.size() && Math.max(changes.get(i)[0], alloc) == t) {
                long[] c = changes.get(i++);
                h = c[1] < 0 ? h : c[1] == 1;
                d = c[2] < 0 ? d : c[2] == 1;
            }
            if (h != host || d != device) {
                add(out, from, t, host, device);
                from = t;
                host = h;
                device = d;
            }
        }
        add(out, from, free, host, device);
        return out;
    }

    private static void add(List<Interval> out, long from, long to, boolean host, boolean device) {
        if (to <= from || (!host && !device)) {
            return;
        }
        out.add(new Interval(from, to, host && device ? "both" : host ? "host" : "device"));
    }
}
