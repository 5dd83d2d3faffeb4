package org.hetscope.formats.ctf.mapping;

import java.util.HashMap;
import java.util.Map;
import org.hetscope.formats.ctf.CtfEvent;
import org.hetscope.model.Category;
import org.hetscope.model.CounterSample;
import org.hetscope.model.Entity;
import org.hetscope.model.Slice;
import org.hetscope.model.TrackKind;

/**
 * LTTng-UST libc wrapper events ({@code lttng_ust_libc:malloc/calloc/realloc/free/memalign/posix_memalign}):
 * a per-process counter of live heap bytes (allocated and not yet freed, matched by pointer) and one slice per
 * allocation, from the call that returned the pointer to the call that freed it.
 */
final class LibcHeapMapper implements EventMapper {
    static final String PREFIX = "lttng_ust_libc:";
    static final String COUNTER = "heap live bytes";

    private final TrackRegistry tracks;
    private final Map<String, Heap> heaps = new HashMap<>();
    private long unknownFrees;
    private String firstUnknown;

    private static final class Heap {
        final Map<Long, long[]> live = new HashMap<>();
        /** Lanes in use: each live block gets the lowest free one as its depth, so overlaps never share a row. */
        final java.util.BitSet lanes = new java.util.BitSet();
        long bytes;
        long counterTrack;
        long sliceTrack;
    }

    LibcHeapMapper(TrackRegistry tracks) {
        this.tracks = tracks;
    }

    @Override
    public boolean map(CtfEvent e) {
        String name = e.name();
        if (!name.startsWith(PREFIX)) {
            return false;
        }
        String call = name.substring(PREFIX.length());
        long ts = e.timestampNs();
        String pkey = TrackRegistry.processKey(e);
        Heap h = heaps.get(pkey);
        if (h == null) {
            h = new Heap();
            h.counterTrack = tracks.processChild(pkey, TrackKind.COUNTER, COUNTER, "bytes");
            h.sliceTrack = tracks.processChild(pkey, TrackKind.MEMORY_MANAGER, "heap allocations", null);
            heaps.put(pkey, h);
        }
        long before = h.bytes;
        switch (call) {
            case "malloc" -> allocate(h, e.getLong("ptr"), e.getLong("size"), ts, call);
            case "calloc" -> allocate(h, e.getLong("ptr"), e.getLong("nmemb") * e.getLong("size"), ts, call);
            case "memalign" -> allocate(h, e.getLong("ptr"), e.getLong("size"), ts, call);
            case "posix_memalign" -> {
                if (e.getLong("result", 0) == 0) {
                    allocate(h, e.getLong("out_ptr"), e.getLong("size"), ts, call);
                }
            }
            case "realloc" -> {
                long in = e.getLong("in_ptr");
                long out = e.getLong("ptr");
                long size = e.getLong("size");
                if (out != 0 || size == 0) {
                    release(h, in, ts, e);
                }
                allocate(h, out, size, ts, call);
            }
            case "free" -> release(h, e.getLong("ptr"), ts, e);
            default -> {
                return false;
            }
        }
        if (h.bytes != before) {
            tracks.sink.counter(new CounterSample(h.counterTrack, ts, h.bytes));
        }
        return true;
    }

    private void allocate(Heap h, long ptr, long size, long ts, String call) {
        if (ptr == 0) {
            return;
        }
        int lane = h.lanes.nextClearBit(0);
        h.lanes.set(lane);
        long[] old = h.live.put(ptr, new long[] {size, ts, lane});
        if (old != null) {
            h.bytes -= old[0]; // a pointer handed out twice: the first block was freed unseen
            h.lanes.clear((int) old[2]);
        }
        h.bytes += size;
    }

    private void release(Heap h, long ptr, long ts, CtfEvent e) {
        if (ptr == 0) {
            return;
        }
        long[] a = h.live.remove(ptr);
        if (a == null) {
            if (unknownFrees++ == 0) {
                firstUnknown = e.streamFile() + " at " + ts + " ns";
            }
            return;
        }
        h.bytes -= a[0];
        h.lanes.clear((int) a[2]);
        slice(h, ptr, a, ts, true);
    }

    private void slice(Heap h, long ptr, long[] a, long end, boolean freed) {
        String args = "{\"ptr\":\"0x" + Long.toHexString(ptr) + "\",\"size\":" + a[0] + (freed ? "" : ",\"freed\":false")
                + "}";
        tracks.sink.slice(new Slice(tracks.sink.newId(Entity.SLICE), h.sliceTrack, a[1], Math.max(0, end - a[1]),
                "heap block", Category.ALLOC, "lttng_ust_libc", (int) a[2], null, args));
    }

    @Override
    public void finish(long endNs) {
        for (Heap h : heaps.values()) {
            for (Map.Entry<Long, long[]> en : h.live.entrySet()) {
                slice(h, en.getKey(), en.getValue(), endNs, false);
            }
        }
        if (unknownFrees > 0) {
            tracks.sink.skipped("free/realloc of a pointer allocated before tracing", firstUnknown, unknownFrees);
        }
        for (Map.Entry<String, Heap> en : heaps.entrySet()) {
            tracks.sink.info("ctf.heap.live_bytes_at_end." + en.getKey(), Long.toString(en.getValue().bytes));
        }
    }

    /** Live bytes at the end per process key (for tests and the info table). */
    Map<String, Long> liveBytes() {
        Map<String, Long> m = new HashMap<>();
        heaps.forEach((k, v) -> m.put(k, v.bytes));
        return m;
    }
}
