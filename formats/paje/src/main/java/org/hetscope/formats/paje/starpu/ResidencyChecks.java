package org.hetscope.formats.paje.starpu;

import java.util.HashMap;
import java.util.Map;
import org.hetscope.model.TraceSink;

/**
 * Checks the residency built from a real trace against what MSI coherence promises, and records every place where
 * the trace says otherwise instead of hiding it: instants where a block has no valid replica, an owner that is not
 * the only valid replica, and transfers whose block is not valid on the destination when they end. Each case is a
 * row of {@code starpu_anomaly}; counts and total durations go to trace_info.
 */
final class ResidencyChecks implements java.io.Closeable {
    private final TraceSink sink;
    private final org.hetscope.model.TableSpec table;
    private final Map<Long, String> handleOf = new HashMap<>();

    ResidencyChecks(TraceSink sink, org.hetscope.model.TableSpec table, Map<String, Long> blocks) {
        this.sink = sink;
        this.table = table;
        blocks.forEach((h, id) -> handleOf.put(id, h));
    }

    /** Transfers to check, by block and then in the order the copies were built: block, node id, start, end, id. */
    private final SortedLongRecords transfers = new SortedLongRecords("transfer checks", 5, 1,
            SortedLongRecords.budget(5));
    private final long[] transfer = new long[5];

    /** A transfer whose landing is checked: the block must be valid on the destination when the copy ends. */
    void transfer(long block, long start, long end, long transferId, long dstNodeId) {
        transfer[0] = block;
        transfer[1] = dstNodeId;
        transfer[2] = start;
        transfer[3] = end;
        transfer[4] = transferId;
        transfers.add(transfer);
    }

    // One block's intervals, sorted by (node, start): what the sweep and the landing checks look at.
    private long[] node = new long[64];
    private long[] ts = new long[64];
    private long[] dur = new long[64];
    private boolean[] owner = new boolean[64];
    private long gaps;
    private long gapNs;
    private long shared;
    private long sharedNs;
    private long notLanding;
    private long alreadyValid;

    /**
     * Hands every interval to the sink, in (block, node, start) order, and checks them block by block: the sweep
     * over each block's intervals, then the landing of each transfer of that block.
     */
    void check(Residencies residencies) {
        SortedLongRecords.Cursor r = residencies.cursor();
        SortedLongRecords.Cursor t = transfers.cursor();
        boolean moreR = r.next();
        boolean moreT = t.next();
        while (moreR || moreT) {
            long block = !moreT || moreR && r.get(Residencies.BLOCK) < t.get(0) ? r.get(Residencies.BLOCK) : t.get(0);
            int n = 0;
            while (moreR && r.get(Residencies.BLOCK) == block) {
                sink.residency(Residencies.record(r));
                if (n == node.length) {
                    int cap = n * 2;
                    node = java.util.Arrays.copyOf(node, cap);
                    ts = java.util.Arrays.copyOf(ts, cap);
                    dur = java.util.Arrays.copyOf(dur, cap);
                    owner = java.util.Arrays.copyOf(owner, cap);
                }
                node[n] = r.get(Residencies.NODE);
                ts[n] = r.get(Residencies.TS);
                dur[n] = r.get(Residencies.DUR);
                owner[n] = r.get(Residencies.OWNER) == 1;
                n++;
                moreR = r.next();
            }
            if (n > 0) {
                sweep(block, n);
            }
            while (moreT && t.get(0) == block) {
                land(block, n, t.get(1), t.get(2), t.get(3), t.get(4));
                moreT = t.next();
            }
        }
        sink.info("starpu.check.no_valid_replica.count", Long.toString(gaps));
        sink.info("starpu.check.no_valid_replica.ns", Long.toString(gapNs));
        sink.info("starpu.check.owner_not_exclusive.count", Long.toString(shared));
        sink.info("starpu.check.owner_not_exclusive.ns", Long.toString(sharedNs));
        sink.info("starpu.check.transfer_not_landing.count", Long.toString(notLanding));
        sink.info("starpu.check.transfer_to_valid_replica.count", Long.toString(alreadyValid));
    }

    @Override
    public void close() throws java.io.IOException {
        transfers.close();
    }

    /** Sweeps the boundaries of one block's n intervals: valid replicas and owners on each elementary segment. */
    private void sweep(long block, int count) {
        long[] at = new long[count * 2];
        int[] dv = new int[count * 2];
        int[] dow = new int[count * 2];
        int n = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            first = Math.min(first, ts[i]);
            last = Math.max(last, ts[i] + dur[i]);
            if (dur[i] == 0) {
                continue;
            }
            int o = owner[i] ? 1 : 0;
            at[n] = ts[i];
            dv[n] = 1;
            dow[n++] = o;
            at[n] = ts[i] + dur[i];
            dv[n] = -1;
            dow[n++] = -o;
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
    }

    private int firstNodeAtLeast(long value, int n) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (node[mid] < value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Checks one transfer of a block against the block's n intervals held in the columns. */
    private void land(long block, int n, long dstNode, long start, long end, long id) {
        // The intervals of (block, destination node) are a run of the columns, ordered by start.
        int lo = firstNodeAtLeast(dstNode, n);
        int runEnd = dstNode == Long.MAX_VALUE ? n : firstNodeAtLeast(dstNode + 1, n);
        int found = -1;
        int l = lo;
        int h = runEnd - 1;
        while (l <= h) {
            int mid = (l + h) >>> 1;
            if (ts[mid] <= end) {
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
            if (ts[k] <= end && end <= ts[k] + dur[k]) {
                hit = k;
                break;
            }
        }
        if (hit < 0) {
            notLanding++;
            sink.row(table, "transfer_not_landing", block, start, end - start, "transfer " + id + " of handle "
                    + handleOf.get(block) + ": block not valid on the destination when the copy ends");
        } else if (ts[hit] < start) {
            alreadyValid++;
            sink.row(table, "transfer_to_valid_replica", block, start, end - start, "transfer " + id
                    + " of handle " + handleOf.get(block)
                    + ": destination replica already valid before the copy started");
        }
    }
}
