package org.hetscope.web;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.hetscope.model.Category;
import org.hetscope.model.CounterSample;
import org.hetscope.model.Device;
import org.hetscope.model.DeviceKind;
import org.hetscope.model.Dim3;
import org.hetscope.model.Entity;
import org.hetscope.model.Flow;
import org.hetscope.model.FlowRule;
import org.hetscope.model.KernelLaunch;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceProcess;
import org.hetscope.model.TraceThread;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.hetscope.model.Transfer;
import org.hetscope.model.TransferKind;
import org.hetscope.store.StoreWriter;

/**
 * A small CUDA-like program written through {@link StoreWriter}: a host thread whose launches (API track) start
 * kernels on two streams of one GPU, nested CPU operators, copies, and a memory counter. The slices written are
 * kept so tests can recompute what the server answers from the raw records.
 */
final class SyntheticTrace {
    final List<Slice> slices = new ArrayList<>();
    final List<Flow> flows = new ArrayList<>();
    final List<Track> tracks = new ArrayList<>();
    final List<CounterSample> counters = new ArrayList<>();
    long apiTrack;
    long threadTrack;
    long streamA;
    long streamB;
    long counterTrack;

    static final long ORIGIN = 1_700_000_000_123_456_789L; // an epoch-like start: beyond a double's exact range

    static SyntheticTrace write(Path file, int launches, long seed) throws IOException {
        SyntheticTrace t = new SyntheticTrace();
        try (StoreWriter w = StoreWriter.create(file)) {
            t.fill(w, launches, seed);
            w.commit();
        }
        return t;
    }

    private Track track(StoreWriter w, Long parent, TrackKind kind, String name, Long device, Long stream, int sort,
                        String unit) {
        Track tr = new Track(w.newId(Entity.TRACK), parent, kind, name, null, null, device, stream, sort, unit);
        w.track(tr);
        tracks.add(tr);
        return tr;
    }

    private void fill(StoreWriter w, int launches, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long pid = w.newId(Entity.PROCESS);
        w.process(new TraceProcess(pid, 4242, "python train.py"));
        long tid = w.newId(Entity.THREAD);
        w.thread(new TraceThread(tid, 4243, pid, "main thread"));
        long dev = w.newId(Entity.DEVICE);
        w.device(new Device(dev, DeviceKind.GPU, 0, "NVIDIA", "Synthetic GPU", 108, 40L << 30, 32, null, null,
                1410.0, Map.of()));
        Track proc = track(w, null, TrackKind.PROCESS, "python train.py [4242]", null, null, 0, null);
        Track thread = track(w, proc.id(), TrackKind.THREAD, "main thread [4243]", null, null, 1, null);
        Track api = track(w, thread.id(), TrackKind.API, "CUDA runtime", null, null, 2, null);
        Track gpu = track(w, null, TrackKind.DEVICE, "GPU 0 Synthetic GPU", dev, null, 10, null);
        Track a = track(w, gpu.id(), TrackKind.STREAM, "stream 7", dev, 7L, 11, null);
        Track b = track(w, gpu.id(), TrackKind.STREAM, "stream 13", dev, 13L, 12, null);
        Track mem = track(w, gpu.id(), TrackKind.COUNTER, "GPU memory allocated", dev, null, 13, "bytes");
        threadTrack = thread.id();
        apiTrack = api.id();
        streamA = a.id();
        streamB = b.id();
        counterTrack = mem.id();
        String[] kernels = {"volta_sgemm_128x64_nn", "elementwise_add_kernel", "reduce_sum_kernel",
            "softmax_warp_forward"};
        long hostT = ORIGIN;
        long[] streamFree = {ORIGIN, ORIGIN};
        long allocated = 0;
        for (int i = 0; i < launches; i++) {
            // An operator on the thread with a launch inside it (nested: depth 1 on the thread track).
            long opStart = hostT;
            long launchStart = opStart + 2_000 + rnd.nextLong(3_000);
            long launchDur = 4_000 + rnd.nextLong(6_000);
            long opDur = launchStart + launchDur + 1_000 + rnd.nextLong(2_000) - opStart;
            slice(w, thread.id(), opStart, opDur, "aten::op" + (i % 3), Category.CPU_OP, 0, null);
            slice(w, thread.id(), opStart + 500, opDur - 1_000, "aten::inner", Category.CPU_OP, 1, null);
            boolean copy = i % 5 == 4;
            Slice launch = slice(w, api.id(), launchStart, launchDur, copy ? "cudaMemcpyAsync" : "cudaLaunchKernel",
                    Category.API, 0, (long) i);
            int s = copy ? 1 : i % 2;
            Track stream = s == 0 ? a : b;
            long kStart = Math.max(streamFree[s], launchStart + 5_000 + rnd.nextLong(20_000));
            long kDur = copy ? 3_000 + rnd.nextLong(5_000) : 1_000 + rnd.nextLong(rnd.nextInt(10) < 2 ? 400_000 : 30_000);
            String name = copy ? "Memcpy HtoD (Pageable -> Device)" : kernels[rnd.nextInt(kernels.length)];
            Slice k = slice(w, stream.id(), kStart, kDur, name, copy ? Category.MEMCPY : Category.KERNEL, 0, (long) i);
            streamFree[s] = kStart + kDur + 500;
            if (copy) {
                long bytes = 1L << (16 + rnd.nextInt(8));
                w.transfer(new Transfer(w.newId(Entity.TRANSFER), k.id(), k.ts(), k.dur(), bytes, TransferKind.HTOD,
                        null, dev, null, null, null, (long) i));
                allocated += bytes;
                counter(w, mem.id(), k.ts(), allocated);
            } else {
                w.kernel(new KernelLaunch(k.id(), dev, stream.stream(), (long) i, new Dim3(256, 1, 1),
                        new Dim3(128, 1, 1), 32, 0L, 1024L));
            }
            Flow f = new Flow(w.newId(Entity.FLOW), launch.id(), k.id(), "launch", (long) i, FlowRule.CORRELATION);
            w.flow(f);
            flows.add(f);
            hostT = opStart + opDur + 500 + rnd.nextLong(8_000);
        }
    }

    private Slice slice(StoreWriter w, long track, long ts, long dur, String name, Category c, int depth, Long corr) {
        Slice s = new Slice(w.newId(Entity.SLICE), track, ts, dur, name, c, c.label(), depth, corr,
                "{\"correlation\": " + (corr == null ? "null" : corr) + ", \"note\": \"synthetic\"}");
        w.slice(s);
        slices.add(s);
        return s;
    }

    private void counter(StoreWriter w, long track, long ts, double value) {
        CounterSample c = new CounterSample(track, ts, value);
        w.counter(c);
        counters.add(c);
    }

    long start() {
        return slices.stream().mapToLong(Slice::ts).min().orElse(0);
    }

    long end() {
        return slices.stream().mapToLong(Slice::end).max().orElse(0);
    }
}
