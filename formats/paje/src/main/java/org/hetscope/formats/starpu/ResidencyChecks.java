package org.hetscope.formats.starpu;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hetscope.model.Residency;
import org.hetscope.model.TraceSink;

/**
 * Checks the residency built from a real trace against what MSI coherence promises, and records every place where
 * the trace says otherwise instead of hiding it: instants where a block has no valid replica, an owner that is not
 * the only valid replica, and transfers whose block is not valid on the destination when they end. Each case is a
 * row of {@code starpu_anomaly}; counts and total durations go to trace_info.
 */
final class ResidencyChecks {
    private final TraceSink sink;
    private final String table;
    private final Map<Long, String> handleOf = new HashMap<>();

    ResidencyChecks(TraceSink sink, String table, Map<String, Long> blocks, Map<Integer, Long> nodeIds) {
        this.sink = sink;
        this.table = table;
        blocks.forEach((h, id) -> handleOf.put(id, h));
    }

    void check(List<Residency> residencies, Iterable<StarpuImport.MemEvent> sortedMsi,
               Map<String, List<Long>> unregisters, long traceEnd, List<long[]> transfers) {
        Map<Long, List<Residency>> byBlock = new TreeMap<>();
        for (Residency r : residencies) {
            byBlock.computeIfAbsent(r.blockId(), k -> new ArrayList<>()).add(r);
        }
        long gaps = 0;
        long gapNs = 0;
        long shared = 0;
        long sharedNs = 0;
        for (var en : byBlock.entrySet()) {
            List<Residency> rs = en.getValue();
            // Sweep the boundaries: count valid replicas and owners on each elementary segment.
            int n = 0;
            long[] at = new long[rs.size() * 2];
            int[] dv = new int[rs.size() * 2];
            int[] dow = new int[rs.size() * 2];
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (Residency r : rs) {
                first = Math.min(first, r.ts());
                last = Math.max(last, r.ts() + r.dur());
                if (r.dur() == 0) {
                    continue;
                }
                int owner = r.state().equals("owner") ? 1 : 0;
                at[n] = r.ts();
                dv[n] = 1;
                dow[n++] = owner;
                at[n] = r.ts() + r.dur();
                dv[n] = -1;
                dow[n++] = -owner;
            }
            int[] idx = org.hetscope.formats.paje.TimeOrder.of(at, n, false);
            int valid = 0;
            int owners = 0;
            for (int k = 0; k < n; ) {
                long t = at[idx[k]];
                if (k > 0) {
                    long prev = at[idx[k - 1]];
                    if (t > prev && prev >= first && t <= last) {
                        if (valid == 0) {
                            gaps++;
                            gapNs += t - prev;
                            sink.row(table, "no_valid_replica", en.getKey(), prev, t - prev,
                                    "handle " + handleOf.get(en.getKey()));
                        } else if (owners > 0 && valid > 1) {
                            shared++;
                            sharedNs += t - prev;
                            sink.row(table, "owner_not_exclusive", en.getKey(), prev, t - prev,
                                    "handle " + handleOf.get(en.getKey()) + ": " + owners + " owner(s), " + valid
                                            + " valid replicas");
                        }
                    }
                }
                // Apply every change at this instant before looking at the next segment.
                while (k < n && at[idx[k]] == t) {
                    valid += dv[idx[k]];
                    owners += dow[idx[k]];
                    k++;
                }
            }
        }
        sink.info("starpu.check.no_valid_replica.count", Long.toString(gaps));
        sink.info("starpu.check.no_valid_replica.ns", Long.toString(gapNs));
        sink.info("starpu.check.owner_not_exclusive.count", Long.toString(shared));
        sink.info("starpu.check.owner_not_exclusive.ns", Long.toString(sharedNs));

        // Per (block, node): intervals sorted by start, found by binary search.
        Map<Long, Map<Long, List<Residency>>> byBlockNode = new HashMap<>();
        for (Residency r : residencies) {
            byBlockNode.computeIfAbsent(r.blockId(), k -> new HashMap<>())
                    .computeIfAbsent(r.nodeId(), k -> new ArrayList<>()).add(r);
        }
        byBlockNode.values().forEach(m -> m.values().forEach(l -> l.sort(
                java.util.Comparator.comparingLong(Residency::ts))));
        long notLanding = 0;
        long alreadyValid = 0;
        for (long[] t : transfers) {
            // {block id, dst node number, start, end, transfer id, dst node id}
            Map<Long, List<Residency>> perNode = byBlockNode.get(t[0]);
            List<Residency> rs = perNode == null ? null : perNode.get(t[5]);
            Residency hit = null;
            if (rs != null) {
                int lo = 0;
                int hi = rs.size() - 1;
                int found = -1;
                while (lo <= hi) {
                    int mid = (lo + hi) >>> 1;
                    if (rs.get(mid).ts() <= t[3]) {
                        found = mid;
                        lo = mid + 1;
                    } else {
                        hi = mid - 1;
                    }
                }
                // Intervals of one (block, node) never overlap: only the latest one starting by the end can hold it,
                // or the one before when the latest starts exactly at the end.
                for (int k = found; k >= 0 && k >= found - 1; k--) {
                    Residency r = rs.get(k);
                    if (r.ts() <= t[3] && t[3] <= r.ts() + r.dur()) {
                        hit = r;
                        break;
                    }
                }
            }
            if (hit == null) {
                notLanding++;
                sink.row(table, "transfer_not_landing", t[0], t[2], t[3] - t[2],
                        "transfer " + t[4] + " of handle " + handleOf.get(t[0])
                                + ": block not valid on the destination when the copy ends");
            } else if (hit.ts() < t[2]) {
                alreadyValid++;
                sink.row(table, "transfer_to_valid_replica", t[0], t[2], t[3] - t[2],
                        "transfer " + t[4] + " of handle " + handleOf.get(t[0])
                                + ": destination replica already valid before the copy started");
            }
        }
        sink.info("starpu.check.transfer_not_landing.count", Long.toString(notLanding));
        sink.info("starpu.check.transfer_to_valid_replica.count", Long.toString(alreadyValid));
    }
}
