package org.hetscope.capture.agent;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The agent's global state, reached from the code inlined into JOCL: the trace writer, each thread's recorder,
 * the command collector, and what the agent keeps about OpenCL objects (buffer references, queue devices).
 */
public final class Tracer {
    private Tracer() {}

    static volatile TraceWriter writer;
    static volatile CommandCollector collector;
    /** Whether enqueues get an event and their device times are collected. */
    public static volatile boolean deviceTimes = true;
    static final AtomicLong COMMANDS = new AtomicLong();
    static final AtomicLong INTERNAL_ERRORS = new AtomicLong();
    /** Buffer handle -> references the program holds (create = 1, retain +1, release -1). */
    static final ConcurrentHashMap<Long, AtomicInteger> MEM_REFS = new ConcurrentHashMap<>();
    /** Image handle -> bytes per pixel (CL_IMAGE_ELEMENT_SIZE), for the bytes of image transfers. */
    static final ConcurrentHashMap<Long, Integer> IMAGE_ELEMENT_BYTES = new ConcurrentHashMap<>();
    /** Queue handle -> device handle. */
    static final ConcurrentHashMap<Long, Long> QUEUE_DEVICE = new ConcurrentHashMap<>();
    /** Event handles the program owns -> the command they stand for (for clWaitForEvents). */
    static final ConcurrentHashMap<Long, Long> EVENT_COMMAND = new ConcurrentHashMap<>();
    static final Set<Long> DEVICES = ConcurrentHashMap.newKeySet();
    static final Set<Long> PLATFORMS = ConcurrentHashMap.newKeySet();

    private static final ThreadLocal<HostRecorder> RECORDERS = ThreadLocal.withInitial(Tracer::newRecorder);

    /** The calling thread's recorder (created with its stream on first use). */
    public static HostRecorder recorder() {
        return RECORDERS.get();
    }

    static void silenceCurrentThread() {
        RECORDERS.set(HostRecorder.silent());
    }

    private static HostRecorder newRecorder() {
        Thread t = Thread.currentThread();
        TraceWriter w = writer;
        if (w == null) {
            return HostRecorder.silent();
        }
        long tid = t.threadId();
        EventStream s = w.newStream(TraceMetadata.STREAM_HOST, tid, new long[] {tid}, "host-" + tid);
        return new HostRecorder(s, t);
    }

    static void internalError(Throwable t) {
        if (INTERNAL_ERRORS.getAndIncrement() == 0) {
            System.err.println("hetscope agent: internal error (recording goes on): " + t);
            if (Boolean.getBoolean("hetscope.agent.debug")) {
                t.printStackTrace();
            }
        }
    }
}
