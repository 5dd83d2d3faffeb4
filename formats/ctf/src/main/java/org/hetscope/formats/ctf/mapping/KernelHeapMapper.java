package org.hetscope.formats.ctf.mapping;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hetscope.formats.ctf.CtfEvent;
import org.hetscope.model.SkipReason;
import org.hetscope.model.CounterSample;
import org.hetscope.model.TrackKind;

/**
 * Linux kernel slab allocations ({@code kmem_kmalloc}, {@code kmem_kmalloc_node}, {@code kmem_cache_alloc},
 * {@code kmem_cache_alloc_node}, {@code kmem_kfree}, {@code kmem_cache_free}; LTTng's names or perf's
 * {@code kmem:*}) as one counter per trace, {@code kernel heap live bytes}: each allocation adds its
 * {@code bytes_alloc}, the free of its pointer takes them back. Blocks allocated before tracing started are not
 * known, so the counter is the change since the start, and their frees are counted in {@code skipped}. The events
 * also stay generic instants (their call sites and flags are in the args).
 */
final class KernelHeapMapper implements EventMapper {
    static final String COUNTER = "kernel heap live bytes";

    private final TrackRegistry tracks;
    private final Map<Path, Heap> heaps = new LinkedHashMap<>();

    /** The live blocks of one trace's kernel. */
    private static final class Heap {
        final LiveBlocks live = new LiveBlocks();
        final long track;
        long unknownFrees;
        String firstUnknown;

        Heap(long track) {
            this.track = track;
        }
    }

    KernelHeapMapper(TrackRegistry tracks) {
        this.tracks = tracks;
    }

    @Override
    public boolean map(CtfEvent e) {
        String name = e.name();
        if (name.startsWith("kmem:")) {
            name = name.substring(5);
        } else if (name.indexOf(':') >= 0) {
            return false;
        } else if (name.startsWith("kmem_")) {
            name = name.substring(5);
        } else {
            return false;
        }
        boolean alloc = name.equals("kmalloc") || name.equals("kmalloc_node") || name.equals("cache_alloc")
                || name.equals("cache_alloc_node");
        if (!alloc && !name.equals("kfree") && !name.equals("cache_free")) {
            return false;
        }
        long ptr = e.getLong("ptr", 0);
        if (ptr == 0) {
            return false; // a failed allocation or kfree(NULL): nothing changes
        }
        long ts = e.timestampNs();
        Heap h = heap(e);
        if (alloc) {
            // a pointer allocated again without a free seen (an event lost) replaces its block
            h.live.put(ptr, e.getLong("bytes_alloc", 0), ts, 0);
        } else if (!h.live.remove(ptr)) {
            if (h.unknownFrees++ == 0) {
                h.firstUnknown = e.streamFile() + " at " + ts + " ns";
            }
            return false;
        }
        tracks.sink.counter(new CounterSample(h.track, ts, h.live.bytes()));
        return false;
    }

    private Heap heap(CtfEvent e) {
        Heap h = heaps.get(e.traceDir());
        if (h == null) {
            h = new Heap(tracks.tree.root(TrackKind.COUNTER, e.traceDir(), n -> n.name(COUNTER).unit("bytes")).id());
            heaps.put(e.traceDir(), h);
        }
        return h;
    }

    @Override
    public void finish(long endNs) {
        for (Map.Entry<Path, Heap> en : heaps.entrySet()) {
            Heap h = en.getValue();
            tracks.sink.info("ctf.kernel_heap.live_bytes_at_end." + en.getKey().getFileName(), Long.toString(h.live.bytes()));
            if (h.unknownFrees > 0) {
                tracks.sink.skipped(SkipReason.UNKNOWN_REFERENCE, "kernel free of a block allocated before tracing",
                        h.firstUnknown, h.unknownFrees);
            }
        }
    }
}
