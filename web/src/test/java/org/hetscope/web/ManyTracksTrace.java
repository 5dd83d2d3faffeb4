package org.hetscope.web;

import java.io.IOException;
import java.nio.file.Path;
import org.hetscope.model.Category;
import org.hetscope.model.Entity;
import org.hetscope.model.Slice;
import org.hetscope.model.TraceProcess;
import org.hetscope.model.TraceThread;
import org.hetscope.model.Track;
import org.hetscope.model.TrackKind;
import org.hetscope.store.StoreWriter;

/**
 * A store with many tracks: {@code processes} process tracks with {@code threads} thread tracks each (400 x 40 =
 * 16,000 threads), each thread a "step" with an "inner" slice nested in it and a "task_NNNNN" slice named after the
 * thread's global index, at times staggered over the threads.
 */
final class ManyTracksTrace {
    static final long ORIGIN = 1_700_000_000_000_000_000L;

    private ManyTracksTrace() {
    }

    static void write(Path file, int processes, int threads) throws IOException {
        try (StoreWriter w = StoreWriter.create(file)) {
            int sort = 0;
            int index = 0;
            for (int p = 0; p < processes; p++) {
                long pid = w.newId(Entity.PROCESS);
                w.process(new TraceProcess(pid, 1000 + p, "rank " + p));
                Track proc = new Track(w.newId(Entity.TRACK), null, TrackKind.PROCESS, String.format("rank %03d", p),
                        null, null, null, null, sort++, null);
                w.track(proc);
                for (int t = 0; t < threads; t++, index++) {
                    long tid = w.newId(Entity.THREAD);
                    w.thread(new TraceThread(tid, 100_000 + index, pid, "worker " + index));
                    Track th = new Track(w.newId(Entity.TRACK), proc.id(), TrackKind.THREAD,
                            String.format("worker %05d", index), null, null, null, null, sort++, null);
                    w.track(th);
                    long start = ORIGIN + (index % 101) * 20_000L + (index / 101) * 3L;
                    slice(w, th.id(), start, 50_000, "step", 0);
                    slice(w, th.id(), start + 10_000, 20_000, "inner", 1);
                    slice(w, th.id(), start + 60_000 + (index % 7) * 1_000, 15_000,
                            String.format("task_%05d", index), 0);
                }
            }
            w.commit();
        }
    }

    private static void slice(StoreWriter w, long track, long ts, long dur, String name, int depth) {
        w.slice(new Slice(w.newId(Entity.SLICE), track, ts, dur, name, Category.CPU_OP, "cpu_op", depth, null,
                "{\"thread_track\": " + track + "}"));
    }
}
