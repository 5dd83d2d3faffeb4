package org.hetscope.analysis.profiling;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.hetscope.model.FlowLinker;
import org.hetscope.model.FlowRule;

/**
 * Links host API calls to the GPU activities they caused (spec §2.4), trying three rules in order: the same
 * correlation id ({@link FlowRule#CORRELATION}); then, for what is left, launch order, a guess resting on the one
 * thing a device guarantees: it runs the work of a stream in the order it was launched. Activities are taken in start
 * order, each pairing with the earliest unpaired launch call of its kind (kernel launch, copy call, memset call) and
 * process that comes after the launch of the previous activity on its stream: first among the calls that name that
 * stream ({@link FlowRule#FIFO}), then among all the calls left, whose stream is not known
 * ({@link FlowRule#PROCESS_ORDER}:
 * the launch order of the whole process, the streams told apart only by the order of their own activities).
 * Collective kernels (NCCL, RCCL) are a kind of their own where the host shows which launches were made inside a
 * collective op: their start order says little about their launch order, as they wait on other streams' work or
 * start at once while the compute stream is backed up.
 *
 * <p>Time only checks causality: a call that started later than the activity plus the tolerance cannot have
 * launched it, so the activity stays unpaired (it was launched before the trace began). Pairing by time alone (the
 * latest call before the activity) goes wrong as soon as launches run ahead of the device, as they do whenever the
 * host queues work faster than the GPU runs it. A call passed over because a later call of the same stream was
 * already paired launched nothing that was recorded (a zero-byte memset, say) and stays unpaired.
 */
public final class FlowMatcher {
    /** One arrow from a call to an activity. */
    public record Match(Span call, Span activity, FlowRule rule) {}

    public static final long DEFAULT_TOLERANCE_NS = 1_000;

    private static final int KERNEL = 0;
    private static final int COPY = 1;
    private static final int MEMSET = 2;
    /** Kernel launches made inside a collective communication op, for collective kernels (NCCL, RCCL). */
    private static final int COLLECTIVE = 3;

    private final long tolerance;

    public FlowMatcher(long toleranceNs) {
        this.tolerance = toleranceNs;
    }

    /** Whether a call can launch this kind of activity (kernel launches for kernels, copy calls for copies). */
    static boolean launches(Span call, Span activity) {
        return launches(call, kind(activity));
    }

    private static int kind(Span activity) {
        return activity.isKernel() ? KERNEL : activity.isCopy() ? COPY : MEMSET;
    }

    private static boolean launches(Span call, int kind) {
        String n = call.name().toLowerCase(Locale.ROOT);
        return switch (kind) {
            case KERNEL -> n.contains("launch") || n.contains("dispatch") || n.contains("enqueuendrange");
            case COPY -> n.contains("memcpy") || n.contains("copy") || n.contains("prefetch");
            default -> n.contains("memset") || n.contains("fill");
        };
    }

    /** A collective communication kernel (NCCL's and RCCL's are named {@code ncclKernel_...}, {@code ncclDevKernel_...}). */
    static boolean isCollective(Span activity) {
        if (!activity.isKernel()) {
            return false;
        }
        String n = activity.name().toLowerCase(Locale.ROOT);
        return n.contains("nccl") || n.contains("rccl");
    }

    /**
     * @param calls host calls in (ts, id) order
     * @param activities GPU activities in (ts, id) order
     */
    public List<Match> match(List<Span> calls, List<Span> activities) {
        return match(calls, activities, Set.of());
    }

    /**
     * @param collectiveLaunches ids of the calls made inside a collective communication op
     *     ({@link ProfileData#collectiveLaunches}): where a process has any, its collective kernels pair only with
     *     them and its other kernels never do
     */
    public List<Match> match(List<Span> calls, List<Span> activities, Set<Long> collectiveLaunches) {
        List<Match> out = new ArrayList<>();
        boolean[] matched = new boolean[activities.size()];
        boolean[] used = new boolean[calls.size()];
        // 1. exact: correlation id, within one process when both sides know theirs
        CallIndex byCorrelation = new CallIndex(calls);
        for (int j = 0; j < activities.size(); j++) {
            Span a = activities.get(j);
            int i = a.correlationId() == null || a.correlationId() == 0 ? -1 : byCorrelation.callOf(a);
            if (i >= 0) {
                out.add(new Match(calls.get(i), a, FlowRule.CORRELATION));
                matched[j] = true;
                used[i] = true;
            }
        }
        // 2. launch order per (process, stream), for launch calls that name their stream
        Lanes named = new Lanes(calls, used, collectiveLaunches);
        for (int i = 0; i < calls.size(); i++) {
            Span c = calls.get(i);
            if (!used[i] && c.stream() != null && isLaunchType(c)) {
                named.add(i, c.stream());
            }
        }
        Map<StreamKey, Integer> lastLaunch = new HashMap<>();
        if (!named.isEmpty()) {
            for (int j = 0; j < activities.size(); j++) {
                Span a = activities.get(j);
                if (!matched[j] && a.stream() != null) {
                    matched[j] = pair(named, a, a.stream(), lastLaunch, FlowRule.FIFO, out);
                }
            }
        }
        // 3. launch order per process, for the launch calls left (their stream unknown or not seen on the device)
        Lanes any = new Lanes(calls, used, collectiveLaunches);
        for (int i = 0; i < calls.size(); i++) {
            if (!used[i] && isLaunchType(calls.get(i))) {
                any.add(i, null);
            }
        }
        if (!any.isEmpty()) {
            for (int j = 0; j < activities.size(); j++) {
                if (!matched[j]) {
                    matched[j] = pair(any, activities.get(j), null, lastLaunch, FlowRule.PROCESS_ORDER, out);
                }
            }
        }
        return out;
    }

    /** A device stream: its activities ran in the order of their launch calls. */
    private record StreamKey(Long process, Long device, Long stream) {}

    /**
     * Pairs the activity with the earliest unused call of its lanes that comes after the launch of the previous
     * activity on its stream and could have launched it (started by the activity's start plus the tolerance).
     */
    private boolean pair(Lanes lanes, Span a, Long stream, Map<StreamKey, Integer> lastLaunch, FlowRule rule,
                         List<Match> out) {
        int k = kind(a);
        // Collective kernels wait on other streams' work (or run at once while another stream is backed up), so
        // start order interleaves them wrongly with the compute kernels; where the host ops say which launches
        // were collectives, the two are paired apart.
        if (isCollective(a) && lanes.has(COLLECTIVE, a.process(), stream)) {
            k = COLLECTIVE;
        }
        StreamKey sk = a.stream() == null ? null : new StreamKey(a.process(), a.device(), a.stream());
        int after = sk == null ? -1 : lastLaunch.getOrDefault(sk, -1);
        int best;
        if (a.process() == null) {
            best = lanes.first(new Key(k, true, null, stream), after);
        } else {
            // calls of the activity's process, or of no known process: the earlier of the two
            int own = lanes.first(new Key(k, false, a.process(), stream), after);
            int anyOwner = lanes.first(new Key(k, false, null, stream), after);
            best = own < 0 ? anyOwner : anyOwner < 0 ? own : Math.min(own, anyOwner);
        }
        // the first candidate started too late: so did every later one (lanes are in start order)
        if (best < 0 || lanes.calls.get(best).ts() > a.ts() + tolerance) {
            return false;
        }
        lanes.used[best] = true;
        if (sk != null) {
            lastLaunch.put(sk, best);
        }
        out.add(new Match(lanes.calls.get(best), a, rule));
        return true;
    }

    /** A lane of launch calls: by kind, process (or every process, for activities of unknown process), stream. */
    private record Key(int kind, boolean everyProcess, Long process, Long stream) {}

    /**
     * Launch calls in (ts, id) order, in several lanes at once (a call is in its process's lane and in the lane of
     * every process, once per kind it can launch); one used flag per call is shared by them all. Finding the first
     * unused call after a given one is a binary search and a skip over used calls with path compression, so pairing
     * n activities costs O(n log n).
     */
    private static final class Lanes {
        final List<Span> calls;
        final boolean[] used;
        private final Map<Key, Lane> lanes = new HashMap<>();

        private final Set<Long> collective;

        Lanes(List<Span> calls, boolean[] used, Set<Long> collective) {
            this.calls = calls;
            this.used = used;
            this.collective = collective;
        }

        void add(int call, Long stream) {
            Span c = calls.get(call);
            for (int k = KERNEL; k <= MEMSET; k++) {
                if (launches(c, k)) {
                    int lane = k == KERNEL && collective.contains(c.id()) ? COLLECTIVE : k;
                    lanes.computeIfAbsent(new Key(lane, false, c.process(), stream), x -> new Lane()).add(call);
                    lanes.computeIfAbsent(new Key(lane, true, null, stream), x -> new Lane()).add(call);
                }
            }
        }

        /** Whether any call of this lane kind was added for the process (or every process, for a null one). */
        boolean has(int kind, Long process, Long stream) {
            return process == null ? lanes.containsKey(new Key(kind, true, null, stream))
                    : lanes.containsKey(new Key(kind, false, process, stream))
                            || lanes.containsKey(new Key(kind, false, null, stream));
        }

        boolean isEmpty() {
            return lanes.isEmpty();
        }

        /** The index of the first unused call of the lane that comes after call {@code after}, or -1. */
        int first(Key key, int after) {
            Lane lane = lanes.get(key);
            if (lane == null) {
                return -1;
            }
            int pos = Arrays.binarySearch(lane.calls, 0, lane.size, after + 1);
            int j = lane.firstUnused(pos < 0 ? -pos - 1 : pos, used);
            return j < lane.size ? lane.calls[j] : -1;
        }
    }

    private static final class Lane {
        int[] calls = new int[4];
        /** For a used call: a position at or before the next unused one (path-compressed skip links). */
        int[] next = new int[4];
        int size;

        void add(int call) {
            if (size == calls.length) {
                calls = Arrays.copyOf(calls, size * 2);
                next = Arrays.copyOf(next, size * 2);
            }
            next[size] = size + 1;
            calls[size++] = call;
        }

        int firstUnused(int from, boolean[] used) {
            int j = from;
            while (j < size && used[calls[j]]) {
                j = next[j];
            }
            // calls only ever become used, so every used call passed on the way can skip straight to j
            for (int i = from; i < j && used[calls[i]]; ) {
                int n = next[i];
                next[i] = j;
                i = n;
            }
            return j;
        }
    }

    /**
     * Exact links only, for device-side records of host calls (CUPTI synchronisation records, Kineto
     * {@code cuda_sync}): they have no launch order or launch time to guess from.
     */
    public List<Match> matchRecords(List<Span> calls, List<Span> records) {
        CallIndex byCorrelation = new CallIndex(calls);
        List<Match> out = new ArrayList<>();
        for (Span r : records) {
            int i = r.correlationId() == null ? -1 : byCorrelation.callOf(r);
            if (i >= 0) {
                out.add(new Match(calls.get(i), r, FlowRule.CORRELATION));
            }
        }
        return out;
    }

    /**
     * Calls by (process, correlation id), through the {@link FlowLinker} keys the readers link with: the first call
     * of the span's process or of no known process, or, for a span whose process is not known, the first of any.
     */
    private static final class CallIndex {
        private final FlowLinker byProcess = new FlowLinker(null, false, 0);
        private final FlowLinker processUnknown = new FlowLinker(null, false, 0);
        private final FlowLinker anyProcess = new FlowLinker(null, false, 0);

        CallIndex(List<Span> calls) {
            for (int i = 0; i < calls.size(); i++) {
                Span c = calls.get(i);
                Long corr = c.correlationId();
                if (corr == null || corr == 0) {
                    continue;
                }
                anyProcess.call(FlowLinker.ONE_PROCESS, corr, i);
                if (c.process() == null) {
                    processUnknown.call(FlowLinker.ONE_PROCESS, corr, i);
                } else {
                    byProcess.call(c.process(), corr, i);
                }
            }
        }

        /** The index of the first call that links to {@code s} by its correlation id, or -1. */
        int callOf(Span s) {
            long corr = s.correlationId();
            if (s.process() == null) {
                return (int) anyProcess.callOf(FlowLinker.ONE_PROCESS, corr);
            }
            long own = byProcess.callOf(s.process(), corr);
            long unknown = processUnknown.callOf(FlowLinker.ONE_PROCESS, corr);
            return (int) (own < 0 ? unknown : unknown < 0 ? own : Math.min(own, unknown));
        }
    }

    static boolean isLaunchType(Span c) {
        String n = c.name().toLowerCase(Locale.ROOT);
        return n.contains("launch") || n.contains("memcpy") || n.contains("memset") || n.contains("copy")
                || n.contains("dispatch") || n.contains("enqueue") || n.contains("prefetch") || n.contains("fill");
    }
}
