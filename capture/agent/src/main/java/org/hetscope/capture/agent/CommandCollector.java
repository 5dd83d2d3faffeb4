package org.hetscope.capture.agent;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import org.jocl.CL;
import org.jocl.Pointer;
import org.jocl.cl_event;

/**
 * Collects the device-side times of enqueued commands without making the program wait: a background thread polls
 * each queue's oldest outstanding event, and once it is complete reads its {@code CL_PROFILING_COMMAND_*} times,
 * writes a {@code command} event to the queue's device stream and releases the event.
 *
 * <p>The header timestamp of a command event is its start mapped onto the host clock with the offset bounded by
 * the enqueue calls seen so far ({@code callStart <= queued + offset <= callEnd}); the raw device times are in the
 * payload and the importer maps them again with the bound over the whole trace.
 */
final class CommandCollector {
    record Pending(cl_event event, long command, long queue, int type, long callStart, long callEnd) {}

    private static final class QueueState {
        final ArrayDeque<Pending> pending = new ArrayDeque<>();
        EventStream stream;
        long device;
        long lastTs;
    }

    private static final class DeviceClock {
        long lo = Long.MIN_VALUE;
        long hi = Long.MAX_VALUE;

        void bound(long callStart, long callEnd, long queued) {
            lo = Math.max(lo, callStart - queued);
            hi = Math.min(hi, callEnd - queued);
        }

        long offset() {
            if (lo == Long.MIN_VALUE) {
                return 0;
            }
            return lo <= hi ? lo + (hi - lo) / 2 : lo;
        }
    }

    private final ConcurrentLinkedQueue<Pending> incoming = new ConcurrentLinkedQueue<>();
    private final Map<Long, QueueState> queues = new HashMap<>();
    private final Map<Long, DeviceClock> clocks = new HashMap<>();
    private final TraceWriter writer;
    private final Thread thread;
    private volatile boolean running = true;
    private final int[] status = new int[1];
    private final Pointer statusPtr = Pointer.to(status);
    // a direct buffer: JOCL passes its address as it is (a Java array would be pinned and copied per call)
    private final java.nio.ByteBuffer time = java.nio.ByteBuffer.allocateDirect(8)
            .order(java.nio.ByteOrder.nativeOrder());
    private final Pointer timePtr = Pointer.toBuffer(time);
    private long nextQueueIndex = 1;

    /** Direct calls into libOpenCL once set up on the collector thread, else null (JOCL is used). */
    private volatile NativeEvents natives;
    /** Commands read through JOCL before switching to direct calls; -1: never switch. */
    private final long directAfter;
    private long collected;

    CommandCollector(TraceWriter writer, long directAfter) {
        this.writer = writer;
        this.directAfter = directAfter;
        thread = new Thread(this::run, "hetscope-command-collector");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    void add(Pending p) {
        incoming.offer(p);
    }

    private void run() {
        Tracer.silenceCurrentThread();
        while (running) {
            int done;
            try {
                done = sweep(false);
            } catch (Throwable t) {
                Tracer.internalError(t);
                done = 0;
            }
            if (done == 0) {
                LockSupport.parkNanos(incoming.isEmpty() && allEmpty() ? 2_000_000L : 200_000L);
            }
        }
    }

    private boolean allEmpty() {
        for (QueueState q : queues.values()) {
            if (!q.pending.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** Stops polling and records every outstanding command: complete ones with times, others with their status. */
    void stop() {
        running = false;
        LockSupport.unpark(thread);
        try {
            // A loaded machine can delay the collector; the final sweep must not race it.
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Tracer.silenceCurrentThread();
        try {
            sweep(true);
        } catch (Throwable t) {
            Tracer.internalError(t);
        }
    }

    private int sweep(boolean last) {
        Pending p;
        while ((p = incoming.poll()) != null) {
            queues.computeIfAbsent(p.queue(), this::newQueue).pending.add(p);
        }
        int done = 0;
        for (QueueState q : queues.values()) {
            while (!q.pending.isEmpty()) {
                Pending h = q.pending.peek();
                // END is available exactly when the command is complete: one query tells both
                int r = query(h.event(), CL.CL_PROFILING_COMMAND_END);
                if (r == CL.CL_PROFILING_INFO_NOT_AVAILABLE && !last) {
                    break; // in-order queue: what comes after it is not done either
                }
                int st = r == CL.CL_SUCCESS ? CL.CL_COMPLETE : ClInfo.eventStatus(h.event(), status, statusPtr);
                if (st == CL.CL_COMPLETE && r != CL.CL_SUCCESS) {
                    // it completed between the two queries (the last sweep does not wait): its times are there now
                    r = query(h.event(), CL.CL_PROFILING_COMMAND_END);
                }
                record(q, h, st, r == CL.CL_SUCCESS ? lastValue : 0);
                if (++collected == directAfter && natives == null && !last) {
                    // a program with many commands: the ~0.2 s set-up pays off against ~7 us per JOCL-read command
                    natives = NativeEvents.create();
                }
                release(h.event());
                q.pending.poll();
                done++;
            }
        }
        return done;
    }

    private long lastValue;

    /** One profiling time of an event: the OpenCL status, the value in {@link #lastValue}. */
    private int query(cl_event e, int param) {
        NativeEvents natives = this.natives;
        if (natives != null) {
            try {
                int r = natives.profiling(e.getNativePointer(), param);
                lastValue = r == CL.CL_SUCCESS ? natives.value() : 0;
                return r;
            } catch (Throwable t) {
                Tracer.internalError(t);
            }
        }
        int r = ClInfo.profilingCode(e, param, time, timePtr);
        lastValue = r == CL.CL_SUCCESS ? time.getLong(0) : 0;
        return r;
    }

    private void release(cl_event e) {
        NativeEvents natives = this.natives;
        if (natives != null) {
            try {
                natives.release(e.getNativePointer());
                return;
            } catch (Throwable t) {
                Tracer.internalError(t);
            }
        }
        ClInfo.release(e);
    }

    /** Whether device times are read through the foreign-function API rather than JOCL. */
    boolean direct() {
        return natives != null;
    }

    private QueueState newQueue(long queue) {
        QueueState q = new QueueState();
        q.device = Tracer.QUEUE_DEVICE.getOrDefault(queue, 0L);
        long index = nextQueueIndex++;
        q.stream = writer.newStream(TraceMetadata.STREAM_DEVICE, index, new long[] {queue, q.device},
                "device-q" + index);
        return q;
    }

    private void record(QueueState q, Pending h, int st, long end) {
        long queued = 0;
        long submit = 0;
        long start = 0;
        if (st == CL.CL_COMPLETE && end != 0) {
            queued = query(h.event(), CL.CL_PROFILING_COMMAND_QUEUED) == CL.CL_SUCCESS ? lastValue : 0;
            submit = query(h.event(), CL.CL_PROFILING_COMMAND_SUBMIT) == CL.CL_SUCCESS ? lastValue : 0;
            start = query(h.event(), CL.CL_PROFILING_COMMAND_START) == CL.CL_SUCCESS ? lastValue : 0;
        }
        long ts;
        if (queued != 0 && start != 0) {
            DeviceClock c = clocks.computeIfAbsent(q.device, d -> new DeviceClock());
            c.bound(h.callStart(), h.callEnd(), queued);
            ts = start + c.offset();
        } else {
            ts = h.callEnd();
        }
        ts = Math.max(ts, q.lastTs);
        q.lastTs = ts;
        ByteBuffer b = q.stream.begin(ts, TraceMetadata.COMMAND, 64);
        if (b != null) {
            b.putLong(h.command()).putShort((short) h.type()).putInt(st);
            b.putLong(queued).putLong(submit).putLong(start).putLong(end);
            q.stream.commit();
        }
    }
}
