package org.hetscope.analysis.profiling;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.hetscope.model.FlowRule;

/**
 * Links host API calls to the GPU activities they caused (spec §2.4), trying three rules in order: the same
 * correlation id ({@link FlowRule#CORRELATION}); the k-th launch to a stream paired with the k-th activity on
 * it ({@link FlowRule#FIFO}, a guess); the latest unmatched launch-type call that started no later than the
 * activity plus a tolerance ({@link FlowRule#TIME}, a guess).
 */
public final class FlowMatcher {
    /** One arrow from a call to an activity. */
    public record Match(Span call, Span activity, FlowRule rule) {}

    public static final long DEFAULT_TOLERANCE_NS = 1_000;

    private final long tolerance;

    public FlowMatcher(long toleranceNs) {
        this.tolerance = toleranceNs;
    }

    /** Whether a call can launch this kind of activity (kernel launches for kernels, copy calls for copies). */
    static boolean launches(Span call, Span activity) {
        String n = call.name().toLowerCase(Locale.ROOT);
        if (activity.isKernel()) {
            return n.contains("launch") || n.contains("dispatch") || n.contains("enqueuendrange");
        }
        if (activity.isCopy()) {
            return n.contains("memcpy") || n.contains("copy") || n.contains("prefetch");
        }
        return n.contains("memset") || n.contains("fill");
    }

    private static boolean sameProcess(Span a, Span b) {
        return a.process() == null || b.process() == null || Objects.equals(a.process(), b.process());
    }

    /**
     * @param calls host calls in (ts, id) order
     * @param activities GPU activities in (ts, id) order
     */
    public List<Match> match(List<Span> calls, List<Span> activities) {
        List<Match> out = new ArrayList<>();
        Set<Long> matchedActivities = new HashSet<>();
        Set<Long> usedCalls = new HashSet<>();
        // 1. exact: correlation id, within one process when both sides know theirs
        Map<Long, List<Span>> byCorrelation = new HashMap<>();
        for (Span c : calls) {
            if (c.correlationId() != null && c.correlationId() != 0) {
                byCorrelation.computeIfAbsent(c.correlationId(), k -> new ArrayList<>(1)).add(c);
            }
        }
        for (Span a : activities) {
            if (a.correlationId() == null || a.correlationId() == 0) {
                continue;
            }
            List<Span> candidates = byCorrelation.get(a.correlationId());
            if (candidates == null) {
                continue;
            }
            Span chosen = null;
            for (Span c : candidates) {
                if (sameProcess(c, a)) {
                    chosen = c;
                    break;
                }
            }
            if (chosen != null) {
                out.add(new Match(chosen, a, FlowRule.CORRELATION));
                matchedActivities.add(a.id());
                usedCalls.add(chosen.id());
            }
        }
        // 2. FIFO per stream: launch calls that name their stream, paired in order with activities on it
        Map<String, Deque<Span>> launchesByStream = new LinkedHashMap<>();
        for (Span c : calls) {
            if (c.stream() != null && !usedCalls.contains(c.id()) && isLaunchType(c)) {
                launchesByStream.computeIfAbsent(c.process() + "/" + c.stream(), k -> new ArrayDeque<>()).add(c);
            }
        }
        if (!launchesByStream.isEmpty()) {
            for (Span a : activities) {
                if (matchedActivities.contains(a.id()) || a.stream() == null) {
                    continue;
                }
                Deque<Span> q = null;
                if (a.process() != null) {
                    q = launchesByStream.get(a.process() + "/" + a.stream());
                } else {
                    for (Map.Entry<String, Deque<Span>> e : launchesByStream.entrySet()) {
                        if (e.getKey().endsWith("/" + a.stream()) && !e.getValue().isEmpty()) {
                            q = e.getValue();
                            break;
                        }
                    }
                }
                while (q != null && !q.isEmpty() && !launches(q.peekFirst(), a)) {
                    q.pollFirst(); // a call of another kind on this stream: it launched something else
                }
                if (q != null && !q.isEmpty()) {
                    Span c = q.pollFirst();
                    out.add(new Match(c, a, FlowRule.FIFO));
                    matchedActivities.add(a.id());
                    usedCalls.add(c.id());
                }
            }
        }
        // 3. time: the latest unmatched launch-type call of the process starting by activity start + tolerance
        List<Span> open = new ArrayList<>();
        for (Span c : calls) {
            if (!usedCalls.contains(c.id()) && isLaunchType(c)) {
                open.add(c);
            }
        }
        boolean[] used = new boolean[open.size()];
        for (Span a : activities) {
            if (matchedActivities.contains(a.id())) {
                continue;
            }
            long limit = a.ts() + tolerance;
            int hi = upperBound(open, limit) - 1;
            int best = -1;
            for (int i = hi; i >= 0; i--) {
                Span c = open.get(i);
                if (best >= 0 && c.ts() < open.get(best).ts()) {
                    break; // only calls at the best start time can still win (by lower sequence number)
                }
                if (!used[i] && sameProcess(c, a) && launches(c, a)) {
                    best = i;
                }
            }
            if (best >= 0) {
                used[best] = true;
                out.add(new Match(open.get(best), a, FlowRule.TIME));
                matchedActivities.add(a.id());
            }
        }
        return out;
    }

    /** The index of the first call starting after {@code limit}. */
    private static int upperBound(List<Span> calls, long limit) {
        int lo = 0;
        int hi = calls.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (calls.get(mid).ts() <= limit) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Exact links only, for device-side records of host calls (CUPTI synchronisation records, Kineto
     * {@code cuda_sync}): they have no launch order or launch time to guess from.
     */
    public List<Match> matchRecords(List<Span> calls, List<Span> records) {
        Map<Long, List<Span>> byCorrelation = new HashMap<>();
        for (Span c : calls) {
            if (c.correlationId() != null && c.correlationId() != 0) {
                byCorrelation.computeIfAbsent(c.correlationId(), k -> new ArrayList<>(1)).add(c);
            }
        }
        List<Match> out = new ArrayList<>();
        for (Span r : records) {
            if (r.correlationId() == null) {
                continue;
            }
            for (Span c : byCorrelation.getOrDefault(r.correlationId(), List.of())) {
                if (sameProcess(c, r)) {
                    out.add(new Match(c, r, FlowRule.CORRELATION));
                    break;
                }
            }
        }
        return out;
    }

    static boolean isLaunchType(Span c) {
        String n = c.name().toLowerCase(Locale.ROOT);
        return n.contains("launch") || n.contains("memcpy") || n.contains("memset") || n.contains("copy")
                || n.contains("dispatch") || n.contains("enqueue") || n.contains("prefetch") || n.contains("fill");
    }
}
