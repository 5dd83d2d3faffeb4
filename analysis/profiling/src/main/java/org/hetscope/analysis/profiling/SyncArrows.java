package org.hetscope.analysis.profiling;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * Arrows from the end of a GPU activity to the end of the blocking call that waited for it (spec §2.4): for a
 * stream sync the last activity on that stream ending by {@code sync.end + tolerance}, for a device sync the
 * last-ending activity of the process, for an event sync the last activity on the stream the event waits on.
 */
public final class SyncArrows {
    /** One wait arrow; {@code kind} is device, stream or event; {@code guessedStream} when no stream was known. */
    public record Arrow(Span activity, Span sync, String kind) {}

    private final long tolerance;

    public SyncArrows(long toleranceNs) {
        this.tolerance = toleranceNs;
    }

    static String kind(Span call) {
        String n = call.name().toLowerCase(Locale.ROOT);
        if (!"sync".equals(call.category()) && !n.contains("synchronize")) {
            return null;
        }
        if (n.contains("event")) {
            return "event";
        }
        if (n.contains("stream")) {
            return "stream";
        }
        if (n.contains("device") || n.contains("ctx") || n.contains("context")) {
            return "device";
        }
        return n.contains("synchronize") ? "device" : null;
    }

    /**
     * @param calls host calls; @param activities GPU activities in (ts, id) order; @param deviceSyncs
     * tracer sync records whose arguments name the stream a call waited on (matched by correlation id)
     */
    public List<Arrow> arrows(List<Span> calls, List<Span> activities, List<Span> deviceSyncs) {
        Map<Long, Span> syncRecords = new HashMap<>();
        for (Span s : deviceSyncs) {
            if (s.correlationId() != null) {
                syncRecords.putIfAbsent(s.correlationId(), s);
            }
        }
        List<Arrow> out = new ArrayList<>();
        for (Span call : calls) {
            String kind = kind(call);
            if (kind == null) {
                continue;
            }
            Long stream = call.stream();
            if (stream == null && call.correlationId() != null && syncRecords.containsKey(call.correlationId())) {
                stream = syncRecords.get(call.correlationId()).stream();
            }
            if (stream != null && stream < 0) {
                stream = null; // Kineto writes -1 for "no stream"
            }
            long limit = call.end() + tolerance;
            Span best = null;
            for (Span a : activities) {
                if (a.ts() > limit) {
                    break;
                }
                if (a.end() > limit || a.process() != null && call.process() != null
                        && !Objects.equals(a.process(), call.process())) {
                    continue;
                }
                if (!"device".equals(kind) && stream != null && !Objects.equals(stream, a.stream())) {
                    continue;
                }
                if (best == null || a.end() > best.end() || a.end() == best.end() && a.id() < best.id()) {
                    best = a;
                }
            }
            if (best != null) {
                out.add(new Arrow(best, call, stream == null && !"device".equals(kind) ? kind + " (no stream known)"
                        : kind));
            }
        }
        return out;
    }

    public Table table(Store store) {
        Table.Builder t = Table.builder("Synchronisation arrows", "activity_id", "activity", "activity_end_ts",
                "sync_id", "sync", "sync_end_ts", "kind", "wait_after_activity_ns");
        if (!ProfileData.hasHostCalls(store)) {
            return t.build(); // every arrow ends at a host sync call: none without host calls
        }
        ProfileData d = ProfileData.load(store);
        for (Arrow a : arrows(d.calls, d.activities, d.deviceSyncs)) {
            t.row(a.activity().id(), a.activity().name(), a.activity().end(), a.sync().id(), a.sync().name(),
                    a.sync().end(), a.kind(), a.sync().end() - a.activity().end());
        }
        return t.build();
    }
}
