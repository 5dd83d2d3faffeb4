package org.hetscope.capture.agent;

import java.nio.ByteBuffer;

/**
 * The per-thread state of the tracer: the thread's CTF stream, its call sequence number, and the nesting depth
 * that keeps calls made by the agent itself (or by JOCL inside another traced call) out of the trace.
 * Reached through a {@link ThreadLocal}; only its own thread touches it.
 */
public final class HostRecorder {
    /** Nesting depth; only calls entered at depth 0 are recorded. */
    public int depth;
    final EventStream stream;
    private final Thread thread;
    private long seq;
    private boolean announced;

    HostRecorder(EventStream stream, Thread thread) {
        this.stream = stream;
        this.thread = thread;
    }

    /** A recorder for the agent's own threads: everything they call stays untraced. */
    static HostRecorder silent() {
        HostRecorder r = new HostRecorder(null, Thread.currentThread());
        r.depth = 1;
        return r;
    }

    /** Called on entry of a traced method: the start time, or -1 when this call is not recorded. */
    public long enter() {
        return depth++ == 0 ? System.nanoTime() : -1L;
    }

    /** Writes the {@code api_call} event of a finished call and returns its sequence number. */
    long apiCall(long start, long end, int function, int result) {
        long s = ++seq;
        if (!announced) {
            announce(start);
        }
        ByteBuffer b = stream.begin(start, TraceMetadata.API_CALL, 40);
        if (b != null) {
            b.putLong(s).putShort((short) function).putInt(result).putLong(end - start);
            stream.commit();
        }
        return s;
    }

    private void announce(long ts) {
        announced = true;
        byte[] name = EventStream.utf8(thread.getName(), 1024);
        ByteBuffer b = stream.begin(ts, TraceMetadata.THREAD, 24 + name.length + 1 + 8);
        if (b != null) {
            EventStream.putString(b, name);
            b.putLong(thread.threadId());
            // JOCL's own helper threads wait on and release events of non-blocking transfers
            b.put((byte) (thread.getName().startsWith("AsyncOpThread-") ? 1 : 0));
            stream.commit();
        }
    }

    /** The sequence number of the call being recorded (the last api_call written). */
    long seqNow() {
        return seq;
    }

    /** Starts a detail event of the current call (same timestamp as its api_call). */
    ByteBuffer begin(long ts, int eventId, int maxSize) {
        return stream.begin(ts, eventId, maxSize);
    }

    void commit() {
        stream.commit();
    }
}
