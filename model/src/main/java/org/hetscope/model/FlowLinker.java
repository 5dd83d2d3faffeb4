package org.hetscope.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Links API calls to the activities they caused by correlation id: the one place every reader draws its
 * {@link FlowRule#CORRELATION} flows. Ids are keyed by (process, correlation id): a reader whose ids are per process
 * (Nsight, rocpd) passes the process, one whose ids are unique in the trace (Kineto) passes {@link #ONE_PROCESS}.
 * The first call of a key is the one linked; later calls with it are counted as {@link #duplicates()}.
 *
 * <p>An activity is linked when {@link #activity} is called if its call is known by then ({@code deferred} false,
 * for readers that read every call first), else when {@link #finish} is called, in the order the activities came
 * (readers whose calls may follow their activities in the file). Either way no per-activity object is kept in the
 * immediate mode, and the deferred one keeps three longs per activity.
 */
public final class FlowLinker {
    /** The process of readers whose correlation ids are unique in the whole trace. */
    public static final long ONE_PROCESS = 0;
    private static final long MISSING = Long.MIN_VALUE;

    private final TraceSink sink;
    private final boolean deferred;
    private final int expectedCalls;
    private final Map<Long, LongLongMap> callsByProcess = new HashMap<>();
    /** The map of the last process asked for: readers meet long runs of one process. */
    private long lastProcess = MISSING;
    private LongLongMap lastCalls;
    private final List<String> kinds = new ArrayList<>(2);
    /** Deferred activities: process, correlation id, activity slice id shifted left by 8 | kind index. */
    private long[] waiting = new long[0];
    private int waitingLongs;
    private Linked listener;
    private long duplicates;
    private long unlinked;
    private long linked;

    /**
     * @param expectedCalls how many calls the reader expects (sizes the first process's map; 0 if unknown)
     */
    public FlowLinker(TraceSink sink, boolean deferred, int expectedCalls) {
        this.sink = sink;
        this.deferred = deferred;
        this.expectedCalls = expectedCalls;
    }

    /** Told of every flow drawn. */
    public interface Linked {
        void linked(long call, long activity);
    }

    /** Tells {@code l} of every flow drawn from now on (a reader that compares them with the trace's own flows). */
    public FlowLinker onLinked(Linked l) {
        this.listener = l;
        return this;
    }

    private LongLongMap calls(long process, boolean create) {
        if (process == lastProcess) {
            return lastCalls;
        }
        LongLongMap m = callsByProcess.get(process);
        if (m == null) {
            if (!create) {
                return null;
            }
            m = callsByProcess.isEmpty() && expectedCalls > 0 ? new LongLongMap(expectedCalls) : new LongLongMap();
            callsByProcess.put(process, m);
        }
        lastProcess = process;
        lastCalls = m;
        return m;
    }

    /** Records the call {@code slice} of (process, correlation); false when the key already has a call. */
    public boolean call(long process, long correlation, long slice) {
        if (correlation == MISSING) {
            return true; // the one id the map cannot hold (only hostile input has it): such a call links nothing
        }
        if (calls(process, true).putIfAbsent(correlation, slice)) {
            return true;
        }
        duplicates++;
        return false;
    }

    /** The call slice recorded for (process, correlation), or -1. */
    public long callOf(long process, long correlation) {
        LongLongMap m = correlation == MISSING ? null : calls(process, false);
        return m == null ? -1 : m.get(correlation, -1);
    }

    /** Links {@code slice} to the call of (process, correlation) with a flow of {@code kind}, now or at the end. */
    public void activity(long process, long correlation, long slice, String kind) {
        if (!deferred) {
            link(process, correlation, slice, kind);
            return;
        }
        if (waitingLongs + 3 > waiting.length) {
            waiting = Arrays.copyOf(waiting, Math.max(96, waiting.length * 2));
        }
        int k = kinds.indexOf(kind);
        if (k < 0) {
            k = kinds.size();
            kinds.add(kind);
        }
        if (k > 0xFF || slice < 0 || slice >>> 55 != 0) {
            // ids are dense from 1 and readers use a few kinds: neither limit is within reach of a real trace
            throw new IllegalStateException("flow kind " + kind + " or slice id " + slice + " beyond the packing");
        }
        waiting[waitingLongs++] = process;
        waiting[waitingLongs++] = correlation;
        waiting[waitingLongs++] = slice << 8 | k;
    }

    private void link(long process, long correlation, long slice, String kind) {
        long call = callOf(process, correlation);
        if (call < 0) {
            unlinked++;
            return;
        }
        linked++;
        sink.flow(new Flow(sink.newId(Entity.FLOW), call, slice, kind, correlation, FlowRule.CORRELATION));
        if (listener != null) {
            listener.linked(call, slice);
        }
    }

    /** Links the deferred activities, in the order they came. */
    public void finish() {
        for (int i = 0; i < waitingLongs; i += 3) {
            link(waiting[i], waiting[i + 1], waiting[i + 2] >>> 8, kinds.get((int) (waiting[i + 2] & 0xFF)));
        }
        waiting = new long[0];
        waitingLongs = 0;
    }

    /** Calls whose (process, correlation) already had a call: not linked. */
    public long duplicates() {
        return duplicates;
    }

    /** Activities whose call is missing from the trace: no flow. */
    public long unlinked() {
        return unlinked;
    }

    /** Flows drawn. */
    public long linked() {
        return linked;
    }
}
