package org.hetscope.formats.ctf.mapping;

import java.util.BitSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import org.hetscope.formats.ctf.CtfEvent;
import org.hetscope.formats.ctf.meta.EventClass;
import org.hetscope.model.SkipReason;
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

    private static final int OTHER = 0;
    private static final int MALLOC = 1;
    private static final int CALLOC = 2;
    private static final int MEMALIGN = 3;
    private static final int POSIX_MEMALIGN = 4;
    private static final int REALLOC = 5;
    private static final int FREE = 6;

    private final TrackRegistry tracks;
    private final Map<String, Heap> heaps = new HashMap<>();
    /** The call each event class stands for; a libc trace has a handful of classes, looked up per event. */
    private final Map<EventClass, Integer> calls = new IdentityHashMap<>();
    private long unknownFrees;
    private String firstUnknown;
    // Events of one process come in long runs: remember the last pid's heap instead of building its key each time.
    private long lastPid = Long.MIN_VALUE;
    private Heap lastHeap;
    /** Without a pid, processes are keyed by name: the last name's bytes, compared in place. */
    private byte[] lastName;

    private static final class Heap {
        final LiveBlocks live = new LiveBlocks();
        /** Lanes in use: each live block gets the lowest free one as its depth, so overlaps never share a row. */
        final BitSet lanes = new BitSet();
        long counterTrack;
        long sliceTrack;
    }

    LibcHeapMapper(TrackRegistry tracks) {
        this.tracks = tracks;
    }

    @Override
    public boolean map(CtfEvent e) {
        int call = call(e.eventClass());
        if (call == OTHER) {
            return false;
        }
        long ts = e.timestampNs();
        Heap h = heap(e);
        long before = h.live.bytes();
        switch (call) {
            case MALLOC, MEMALIGN -> allocate(h, e.getLong("ptr"), e.getLong("size"), ts);
            case CALLOC -> allocate(h, e.getLong("ptr"), e.getLong("nmemb") * e.getLong("size"), ts);
            case POSIX_MEMALIGN -> {
                if (e.getLong("result", 0) == 0) {
                    allocate(h, e.getLong("out_ptr"), e.getLong("size"), ts);
                }
            }
            case REALLOC -> {
                long in = e.getLong("in_ptr");
                long out = e.getLong("ptr");
                long size = e.getLong("size");
                if (out != 0 || size == 0) {
                    release(h, in, ts, e);
                }
                allocate(h, out, size, ts);
            }
            default -> release(h, e.getLong("ptr"), ts, e);
        }
        if (h.live.bytes() != before) {
            tracks.sink.counter(new CounterSample(h.counterTrack, ts, h.live.bytes()));
        }
        return true;
    }

    private int call(EventClass c) {
        Integer known = calls.get(c);
        if (known == null) {
            String name = c.name();
            known = !name.startsWith(PREFIX) ? OTHER : switch (name.substring(PREFIX.length())) {
                case "malloc" -> MALLOC;
                case "calloc" -> CALLOC;
                case "memalign" -> MEMALIGN;
                case "posix_memalign" -> POSIX_MEMALIGN;
                case "realloc" -> REALLOC;
                case "free" -> FREE;
                default -> OTHER;
            };
            calls.put(c, known);
        }
        return known;
    }

    private Heap heap(CtfEvent e) {
        long pid = e.contextLong("vpid", Long.MIN_VALUE);
        if (pid == Long.MIN_VALUE) {
            pid = e.contextLong("pid", Long.MIN_VALUE);
        }
        if (lastHeap != null && pid == lastPid
                && (pid != Long.MIN_VALUE || lastName != null && e.contextTextIs("procname", lastName))) {
            return lastHeap;
        }
        String pkey = TrackRegistry.processKey(e);
        // a pid-less process is keyed "name:PROCNAME" (see processKey): its name is what later events compare
        lastName = pkey.startsWith("name:") ? pkey.substring(5).getBytes(java.nio.charset.StandardCharsets.UTF_8)
                : null;
        Heap h = heaps.get(pkey);
        if (h == null) {
            h = new Heap();
            h.counterTrack = tracks.processChild(pkey, TrackKind.COUNTER, COUNTER, "bytes");
            h.sliceTrack = tracks.processChild(pkey, TrackKind.MEMORY_MANAGER, "heap allocations", null);
            heaps.put(pkey, h);
        }
        lastPid = pid;
        lastHeap = h;
        return h;
    }

    private void allocate(Heap h, long ptr, long size, long ts) {
        if (ptr == 0) {
            return;
        }
        int lane = h.lanes.nextClearBit(0);
        h.lanes.set(lane);
        if (h.live.put(ptr, size, ts, lane)) {
            h.lanes.clear(h.live.removedLane); // a pointer handed out twice: the first block was freed unseen
        }
    }

    private void release(Heap h, long ptr, long ts, CtfEvent e) {
        if (ptr == 0) {
            return;
        }
        LiveBlocks live = h.live;
        if (!live.remove(ptr)) {
            if (unknownFrees++ == 0) {
                firstUnknown = e.streamFile() + " at " + ts + " ns";
            }
            return;
        }
        h.lanes.clear(live.removedLane);
        slice(h, ptr, live.removedSize, live.removedStart, live.removedLane, ts, true);
    }

    private void slice(Heap h, long ptr, long size, long start, int lane, long end, boolean freed) {
        String args = "{\"ptr\":\"0x" + Long.toHexString(ptr) + "\",\"size\":" + size + (freed ? "" : ",\"freed\":false")
                + "}";
        tracks.sink.slice(new Slice(tracks.sink.newId(Entity.SLICE), h.sliceTrack, start, Math.max(0, end - start),
                "heap block", Category.ALLOC, "lttng_ust_libc", lane, null, args));
    }

    @Override
    public void finish(long endNs) {
        for (Heap h : heaps.values()) {
            LiveBlocks live = h.live;
            live.forEachSlot(i -> slice(h, live.ptrAt(i), live.sizeAt(i), live.startAt(i), live.laneAt(i), endNs,
                    false));
        }
        if (unknownFrees > 0) {
            tracks.sink.skipped(SkipReason.UNKNOWN_REFERENCE, "free/realloc of a pointer allocated before tracing",
                    firstUnknown, unknownFrees);
        }
        for (Map.Entry<String, Heap> en : heaps.entrySet()) {
            tracks.sink.info("ctf.heap.live_bytes_at_end." + en.getKey(), Long.toString(en.getValue().live.bytes()));
        }
    }

    /** Live bytes at the end per process key (for tests and the info table). */
    Map<String, Long> liveBytes() {
        Map<String, Long> m = new HashMap<>();
        heaps.forEach((k, v) -> m.put(k, v.live.bytes()));
        return m;
    }
}
