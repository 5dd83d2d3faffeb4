package org.hetscope.formats.starpu;

import java.util.HashMap;
import java.util.Map;
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

    /** Transfers to check, six longs each: block id, destination node number, start, end, transfer id, node id. */
    private long[] transfers = new long[6 * 64];
    private int transferCount;

    /** A transfer whose landing is checked: the block must be valid on the destination when the copy ends. */
    void transfer(long block, long dstNodeNumber, long start, long end, long transferId, long dstNodeId) {
        if ((transferCount + 1) * 6 > transfers.length) {
            transfers = java.util.Arrays.copyOf(transfers, transfers.length * 2);
        }
        int at = transferCount++ * 6;
        transfers[at] = block;
        transfers[at + 1] = dstNodeNumber;
        transfers[at + 2] = start;
        transfers[at + 3] = end;
        transfers[at + 4] = transferId;
        transfers[at + 5] = dstNodeId;
    }

    void check(Residencies rs) {
        long gaps = 0;
        long gapNs = 0;
        long shared = 0;
        long sharedNs = 0;
        int size = rs.size();
        long[] at = new long[0];
        int[] dv = new int[0];
        int[] dow = new int[0];
        for (int from = 0; from < size; ) {
            long block = rs.block(from);
            int to = from;
            while (to < size && rs.block(to) == block) {
                to++;
            }
            // Sweep the boundaries: count valid replicas and owners on each elementary segment.
            if (at.length < (to - from) * 2) {
                at = new long[(to - from) * 2];
                dv = new int[at.length];
                dow = new int[at.length];
            }
            int n = 0;
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (int i = from; i < to; i++) {
                first = Math.min(first, rs.ts(i));
                last = Math.max(last, rs.ts(i) + rs.dur(i));
                if (rs.dur(i) == 0) {
                    continue;
                }
                int owner = rs.owner(i) ? 1 : 0;
                at[n] = rs.ts(i);
                dv[n] = 1;
                dow[n++] = owner;
                at[n] = rs.ts(i) + rs.dur(i);
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
                            sink.row(table, "no_valid_replica", block, prev, t - prev, "handle " + handleOf.get(block));
                        } else if (owners > 0 && valid > 1) {
                            shared++;
                            sharedNs += t - prev;
                            sink.row(table, "owner_not_exclusive", block, prev, t - prev,
                                    "handle " + handleOf.get(block) + ": " + owners + " owner(s), " + valid
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
            from = to;
        }
        sink.info("starpu.check.no_valid_replica.count", Long.toString(gaps));
        sink.info("starpu.check.no_valid_replica.ns", Long.toString(gapNs));
        sink.info("starpu.check.owner_not_exclusive.count", Long.toString(shared));
        sink.info("starpu.check.owner_not_exclusive.ns", Long.toString(sharedNs));

        long notLanding = 0;
        long alreadyValid = 0;
        for (int x = 0; x < transferCount * 6; x += 6) {
            long block = transfers[x];
            long start = transfers[x + 2];
            long end = transfers[x + 3];
            long id = transfers[x + 4];
            // The intervals of (block, destination node) are a run of the sorted columns, ordered by start.
            int lo = rs.lowerBound(block, transfers[x + 5]);
            int runEnd = rs.lowerBound(block, transfers[x + 5] + 1);
            int found = -1;
            int l = lo;
            int h = runEnd - 1;
            while (l <= h) {
                int mid = (l + h) >>> 1;
                if (rs.ts(mid) <= end) {
                    found = mid;
                    l = mid + 1;
                } else {
                    h = mid - 1;
                }
            }
            // Intervals of one (block, node) never overlap: only the latest one starting by the end can hold it,
            // or the one before when the latest starts exactly at the end.
            int hit = -1;
            for (int k = found; k >= lo && k >= found - 1; k--) {
                if (rs.ts(k) <= end && end <= rs.ts(k) + rs.dur(k)) {
                    hit = k;
                    break;
                }
            }
            if (hit < 0) {
                notLanding++;
                sink.row(table, "transfer_not_landing", block, start, end - start,
                        "transfer " + id + " of handle " + handleOf.get(block)
                                + ": block not valid on the destination when the copy ends");
            } else if (rs.ts(hit) < start) {
                alreadyValid++;
                sink.row(table, "transfer_to_valid_replica", block, start, end - start,
                        "transfer " + id + " of handle " + handleOf.get(block)
                                + ": destination replica already valid before the copy started");
            }
        }
        sink.info("starpu.check.transfer_not_landing.count", Long.toString(notLanding));
        sink.info("starpu.check.transfer_to_valid_replica.count", Long.toString(alreadyValid));
    }
}
