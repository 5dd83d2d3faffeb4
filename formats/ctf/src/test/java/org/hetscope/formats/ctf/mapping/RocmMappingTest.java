package org.hetscope.formats.ctf.mapping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hetscope.formats.ctf.CtfEvent;
import org.hetscope.formats.ctf.CtfTrace;
import org.hetscope.formats.ctf.CtfWriterAccess;
import org.hetscope.formats.ctf.meta.TraceClass;
import org.hetscope.formats.ctf.meta.TsdlParser;
import org.hetscope.model.Category;
import org.hetscope.model.CollectingSink;
import org.hetscope.model.Dim3;
import org.hetscope.model.FlowRule;
import org.hetscope.model.KernelLaunch;
import org.hetscope.model.Progress;
import org.hetscope.model.SkipReason;
import org.hetscope.model.SkipTally;
import org.hetscope.model.Slice;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.hetscope.model.Transfer;
import org.hetscope.model.TransferKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A ROCm-shaped CTF trace written with the exact rocprofv3 metadata maps onto API, kernel, copy and counter records. */
class RocmMappingTest {

    static Map<String, Object> f(Object... kv) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    static Path writeTrace(Path dir) throws Exception {
        return writeTrace(dir, -1);
    }

    static Path writeTrace(Path dir, int losePacketsAfter) throws Exception {
        Path tsdl = Path.of(System.getProperty("hetscope.root", "."))
                .resolve("../shared/fixtures/rocm/rocprofv3-ctf-metadata.tsdl");
        String text = Files.readString(tsdl);
        TraceClass meta = TsdlParser.parse(text);
        CtfWriterAccess w = new CtfWriterAccess(meta, 3);
        w.losePacketsAfter(losePacketsAfter);
        long t0 = 1_700_000_000_000_000_000L;
        w.event("hsa_core_region_event_start", t0 + 500, f("region_id", 4L, "name", "hsa_queue_create", "pid", 100L,
                "tid", 102L, "correlation_id", 0L));
        w.event("hsa_core_region_event_end", t0 + 600, f("region_id", 4L, "name", "hsa_queue_create", "pid", 100L,
                "tid", 102L));
        w.event("hip_runtime_region_event_start", t0 + 1000, f("region_id", 1L, "name", "hipMalloc", "pid", 100L,
                "tid", 101L, "correlation_id", 1L));
        w.event("memory_allocation_event_start", t0 + 1100, f("allocation_id", 1L, "agent_abs_index", 1L,
                "agent_type", "GPU", "allocation_type", "ALLOCATE", "size", 4096L, "address", 0x7f0000L, "pid", 100L,
                "tid", 101L, "correlation_id", 1L));
        w.event("memory_allocation_event_end", t0 + 1200, f("allocation_id", 1L, "agent_abs_index", 1L,
                "agent_type", "GPU", "allocation_type", "ALLOCATE", "size", 4096L, "address", 0x7f0000L, "pid", 100L,
                "tid", 101L, "correlation_id", 1L));
        w.event("hip_runtime_region_event_end", t0 + 1500, f("region_id", 1L, "name", "hipMalloc", "pid", 100L,
                "tid", 101L, "correlation_id", 1L));
        w.event("hip_runtime_region_event_start", t0 + 2000, f("region_id", 2L, "name", "hipMemcpy", "pid", 100L,
                "tid", 101L, "correlation_id", 2L));
        Map<String, Object> copy = f("copy_id", 1L, "name", "MEMORY_COPY_HOST_TO_DEVICE", "size", 4096L,
                "src_agent_abs_index", 0L, "src_agent_type", "CPU", "dst_agent_abs_index", 1L, "dst_agent_type", "GPU",
                "pid", 100L, "tid", 101L, "correlation_id", 2L);
        w.event("memory_copy_event_start", t0 + 2100, copy);
        w.event("memory_copy_event_end", t0 + 2900, copy);
        w.event("hip_runtime_region_event_end", t0 + 3000, f("region_id", 2L, "name", "hipMemcpy", "pid", 100L,
                "tid", 101L, "correlation_id", 2L));
        w.event("marker_core_region_event_start", t0 + 3500, f("region_id", 5L, "name", "my range", "pid", 100L,
                "tid", 101L));
        w.event("marker_core_region_event_end", t0 + 3600, f("region_id", 5L, "name", "my range", "pid", 100L,
                "tid", 101L));
        w.event("hip_runtime_region_event_start", t0 + 4000, f("region_id", 3L, "name", "hipLaunchKernel",
                "pid", 100L, "tid", 101L, "correlation_id", 3L));
        w.event("hip_runtime_region_event_end", t0 + 4100, f("region_id", 3L, "name", "hipLaunchKernel",
                "pid", 100L, "tid", 101L, "correlation_id", 3L));
        Map<String, Object> k = f("dispatch_id", 7L, "kernel_id", 70L, "name", "vector_add(float*, float*)",
                "agent_abs_index", 1L, "agent_type", "GPU", "queue_id", 0L, "grid_size_x", 1024L, "grid_size_y", 1L,
                "grid_size_z", 1L, "workgroup_size_x", 256L, "workgroup_size_y", 1L, "workgroup_size_z", 1L,
                "lds_size", 2048L, "static_lds_size", 1024L, "pid", 100L, "tid", 101L, "correlation_id", 3L);
        w.event("kernel_dispatch_event_start", t0 + 4200, k);
        w.event("kernel_dispatch_event_end", t0 + 5200, k);
        w.event("counter_collection_event", t0 + 5200, f("dispatch_id", 7L, "counter_name", "SQ_WAVES",
                "value", 16.0, "pid", 100L, "tid", 101L));
        w.write(dir, text);
        return dir;
    }

    @Test
    void decodesWhatWasWritten(@TempDir Path tmp) throws Exception {
        Path dir = writeTrace(tmp.resolve("rocm"));
        try (CtfTrace t = CtfTrace.open(dir); CtfTrace.Cursor c = t.cursor()) {
            int n = 0;
            while (c.next()) {
                CtfEvent e = c.event();
                n++;
                if (e.name().equals("kernel_dispatch_event_start")) {
                    assertEquals("vector_add(float*, float*)", e.getString("name"));
                    assertEquals(1024, e.getLong("grid_size_x"));
                    assertEquals(1_700_000_000_000_004_200L, e.timestampNs());
                }
                if (e.name().equals("counter_collection_event")) {
                    assertEquals(16.0, e.getDouble("value"));
                    assertEquals("SQ_WAVES", e.getString("counter_name"));
                }
            }
            assertEquals(17, n);
            assertTrue(t.problems().isEmpty(), t.problems().toString());
        }
    }

    @Test
    void lostPacketsAreReportedPerStream(@TempDir Path tmp) throws Exception {
        Path dir = writeTrace(tmp.resolve("rocm"), 1);
        CollectingSink sink = new CollectingSink();
        new CtfTraceFormat().read(dir, sink, Progress.NONE);
        assertEquals(2L, sink.skipped.get("packets_lost"), sink.skipped.toString());
        assertEquals("2", sink.info.get("ctf.stream.rocm/stream_0.lost_packets"));
        try (CtfTrace t = CtfTrace.open(dir)) {
            t.count(2);
            assertEquals(2, t.streamStats().get(0).lostPackets());
            assertEquals(17, t.streamStats().get(0).events());
            assertEquals(6, t.streamStats().get(0).packets());
        }
    }

    @Test
    void mapsOntoTheModel(@TempDir Path tmp) throws Exception {
        Path dir = writeTrace(tmp.resolve("rocm"));
        CollectingSink sink = new CollectingSink();
        assertTrue(new CtfTraceFormat().accepts(dir));
        new CtfTraceFormat().read(dir, sink, Progress.NONE);
        long t0 = 1_700_000_000_000_000_000L;

        Map<String, Slice> byName = new HashMap<>();
        sink.slices.forEach(s -> byName.put(s.name(), s));
        Map<Long, Track> tracks = new HashMap<>();
        sink.tracks.forEach(t -> tracks.put(t.id(), t));

        Slice launch = byName.get("hipLaunchKernel");
        assertEquals(Category.API, launch.category());
        assertEquals(t0 + 4000, launch.ts());
        assertEquals(100, launch.dur());
        assertEquals("HIP runtime", tracks.get(launch.trackId()).name());
        assertEquals(TrackKind.API, tracks.get(launch.trackId()).kind());
        Slice hsa = byName.get("hsa_queue_create");
        assertEquals("HSA core", tracks.get(hsa.trackId()).name());
        assertEquals(Category.ANNOTATION, byName.get("my range").category());
        assertEquals(5, sink.slices.stream().filter(s -> s.category() == Category.API
                || s.category() == Category.ANNOTATION).count());

        Slice kernel = byName.get("vector_add(float*, float*)");
        assertEquals(Category.KERNEL, kernel.category());
        assertEquals(t0 + 4200, kernel.ts());
        assertEquals(1000, kernel.dur());
        Track queue = tracks.get(kernel.trackId());
        assertEquals(TrackKind.QUEUE, queue.kind());
        assertEquals(TrackKind.DEVICE, tracks.get(queue.parentId()).kind());
        KernelLaunch kl = sink.kernels.get(0);
        assertEquals(kernel.id(), kl.sliceId());
        assertEquals(new Dim3(1024, 1, 1), kl.grid());
        assertEquals(new Dim3(256, 1, 1), kl.block());
        assertEquals(3L, kl.correlationId());
        assertEquals(1024L, kl.sharedMemoryStatic());

        assertTrue(sink.flows.stream().anyMatch(fl -> fl.fromSliceId() == launch.id() && fl.toSliceId() == kernel.id()
                && fl.rule() == FlowRule.CORRELATION && fl.correlationId() == 3L), sink.flows.toString());

        assertEquals(1, sink.transfers.size());
        Transfer tr = sink.transfers.get(0);
        assertEquals(4096, tr.bytes());
        assertEquals(TransferKind.HTOD, tr.kind());
        assertEquals(t0 + 2100, tr.ts());
        assertEquals(800, tr.dur());
        assertNotNull(tr.srcDeviceId());
        assertTrue(sink.devices.stream().anyMatch(d -> d.id() == tr.dstDeviceId()
                && d.kind() == org.hetscope.model.DeviceKind.GPU));

        assertEquals(1, sink.kernelCounters.size());
        assertEquals("SQ_WAVES", sink.kernelCounters.get(0).name());
        assertEquals(16.0, sink.kernelCounters.get(0).value());
        assertEquals(kernel.id(), sink.kernelCounters.get(0).sliceId());

        Slice alloc = sink.slices.stream().filter(s -> s.category() == Category.ALLOC).findFirst().orElseThrow();
        assertEquals(t0 + 1100, alloc.ts());
        assertTrue(alloc.name().contains("4096"));
        assertEquals(List.of(), List.copyOf(sink.skipped.keySet()));
    }

    @Test
    void brokenPairsAreCountedAndAStartAloneIsNotStored(@TempDir Path tmp) throws Exception {
        String text = Files.readString(Path.of(System.getProperty("hetscope.root", "."))
                .resolve("../shared/fixtures/rocm/rocprofv3-ctf-metadata.tsdl"));
        CtfWriterAccess w = new CtfWriterAccess(TsdlParser.parse(text), 4);
        long t0 = 1_700_000_000_000_000_000L;
        // region 9 is used twice before either ends: its ends close the inner start first
        w.event("hip_runtime_region_event_start", t0 + 100, f("region_id", 9L, "name", "outer", "pid", 1L, "tid", 2L));
        w.event("hip_runtime_region_event_start", t0 + 200, f("region_id", 9L, "name", "inner", "pid", 1L, "tid", 2L));
        w.event("hip_runtime_region_event_end", t0 + 300, f("region_id", 9L, "name", "inner", "pid", 1L, "tid", 2L));
        w.event("hip_runtime_region_event_end", t0 + 400, f("region_id", 9L, "name", "outer", "pid", 1L, "tid", 2L));
        // the trace starts inside dispatch 7 and copy 3 and ends inside copy 4 and allocation 5
        w.event("kernel_dispatch_event_end", t0 + 500, f("dispatch_id", 7L, "name", "k", "agent_type", "GPU"));
        w.event("memory_copy_event_end", t0 + 600, f("copy_id", 3L, "name", "c", "src_agent_type", "CPU",
                "dst_agent_type", "GPU"));
        w.event("memory_copy_event_start", t0 + 700, f("copy_id", 4L, "name", "c", "src_agent_type", "CPU",
                "dst_agent_type", "GPU"));
        w.event("memory_allocation_event_start", t0 + 800, f("allocation_id", 5L, "agent_type", "GPU"));
        Path dir = tmp.resolve("rocm");
        w.write(dir, text);
        CollectingSink sink = new CollectingSink();
        new CtfTraceFormat().read(dir, sink, Progress.NONE);
        assertEquals(List.of("inner 200 100", "outer 100 300"), sink.slices.stream()
                .map(s -> s.name() + " " + (s.ts() - t0) + " " + s.dur()).toList());
        assertEquals(List.of(
                new SkipTally.Entry(SkipReason.UNMATCHED_END, "ROCm end event", dir.resolve("stream_0") + " at " + (t0 + 500) + " ns", 2),
                new SkipTally.Entry(SkipReason.UNENDED_INTERVAL, "ROCm start event", "end of trace", 2)),
                sink.skips.entries().stream().filter(e -> e.detail() != null && e.detail().startsWith("ROCm"))
                        .toList());
    }
}
