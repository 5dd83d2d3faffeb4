package org.hetscope.formats.ctf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hetscope.formats.ctf.mapping.CtfTraceFormat;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.CounterSample;
import org.hetscope.model.Progress;
import org.hetscope.model.Track;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The kernel heap counter of the LTTng kernel fixture against a replay of babeltrace2's text: live bytes_alloc by
 * pointer, one sample per allocation and per free of a known block, in time order.
 */
class KernelHeapTest {
    private static final Pattern KMEM = Pattern.compile("^kmem_(kmalloc|kmalloc_node|cache_alloc|cache_alloc_node|"
            + "kfree|cache_free): .*ptr = (0x[0-9A-Fa-f]+)(?:.*bytes_alloc = (\\d+))?");

    @Test
    void liveBytesFollowAllocationsAndFrees() throws Exception {
        Path dir = Fixtures.ctf("bug446190");
        Assumptions.assumeTrue(Babeltrace.available(), "babeltrace2 not installed");
        List<Babeltrace.Line> lines = Babeltrace.read(dir);
        assertNotNull(lines);
        Map<Long, Long> live = new HashMap<>();
        long bytes = 0;
        long unknownFrees = 0;
        List<String> expected = new ArrayList<>();
        for (Babeltrace.Line l : lines) {
            Matcher m = KMEM.matcher(l.text());
            if (!m.find()) {
                continue;
            }
            long ptr = Long.decode(m.group(2));
            if (ptr == 0) {
                continue;
            }
            if (m.group(1).contains("alloc")) {
                Long old = live.put(ptr, Long.parseLong(m.group(3)));
                bytes += Long.parseLong(m.group(3)) - (old == null ? 0 : old);
            } else {
                Long size = live.remove(ptr);
                if (size == null) {
                    unknownFrees++;
                    continue;
                }
                bytes -= size;
            }
            expected.add(l.ns() + " " + bytes);
        }
        assertTrue(expected.size() > 5000, "samples: " + expected.size());

        CollectingSink sink = new CollectingSink();
        new CtfTraceFormat().read(dir, sink, Progress.NONE);
        Track counter = sink.tracks.stream().filter(t -> t.name().equals("kernel heap live bytes")).findFirst()
                .orElseThrow();
        List<String> samples = new ArrayList<>();
        for (CounterSample c : sink.counters) {
            if (c.trackId() == counter.id()) {
                samples.add(c.ts() + " " + (long) c.value());
            }
        }
        // equal times (two CPUs in the same ns) may come in another order: compare as sorted multisets, then the end
        assertEquals(expected.stream().sorted().toList(), samples.stream().sorted().toList());
        assertEquals(Long.toString(bytes), sink.info.get("ctf.kernel_heap.live_bytes_at_end.bug446190"));
        assertEquals(unknownFrees, sink.skipped.entrySet().stream()
                .filter(en -> en.getKey().startsWith("unknown_reference: kernel free of a block allocated before tracing"))
                .mapToLong(Map.Entry::getValue).sum());
        assertTrue(sink.instants.stream().anyMatch(i -> i.name().equals("kmem_kmalloc")), "kept as instants too");
    }
}
