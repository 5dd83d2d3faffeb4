package org.hetscope.analysis.memory;

import java.util.Map;
import java.util.TreeMap;
import org.hetscope.store.Table;

/**
 * Where each block lives over time: its residency intervals per memory node, and their aggregation into fixed
 * time bins. Bins are anchored at trace time 0, {@code [k·w, (k+1)·w)}; the value is
 * {@code 100 × (time present in the bin) / w} (the last bin too is divided by its nominal width). Shared
 * replicas count on every node, so the sum over nodes of one bin may exceed 100 %.
 */
public final class ResidencyAnalysis {
    /** The thesis's bin width: 20 ms. */
    public static final long DEFAULT_BIN_NS = 20_000_000L;

    private ResidencyAnalysis() {}

    public static Table intervals(MemoryTrace m, Long blockId) {
        Table.Builder t = Table.builder("Residency intervals", "block", "handle", "node", "state", "ts", "end_ts",
                "dur_ns");
        for (MemoryTrace.Interval iv : m.residency) {
            if (blockId != null && iv.blockId() != blockId) {
                continue;
            }
            MemoryTrace.Block b = m.blocks.get(iv.blockId());
            t.row(b.label(), b.handle(), m.nodeName(iv.nodeId()), iv.state(), iv.ts(), iv.end(),
                    iv.end() - iv.ts());
        }
        return t.build();
    }

    /** One row per (block, node, bin) with some presence. */
    public static Table bins(MemoryTrace m, long width, Long blockId) {
        if (width <= 0) {
            throw new IllegalArgumentException("bin width must be positive, got " + width);
        }
        // (block, node) -> bin index -> ns present
        Map<Long, Map<Long, TreeMap<Long, Long>>> acc = new TreeMap<>();
        for (MemoryTrace.Interval iv : m.residency) {
            if (blockId != null && iv.blockId() != blockId) {
                continue;
            }
            TreeMap<Long, Long> bins = acc.computeIfAbsent(iv.blockId(), k -> new TreeMap<>())
                    .computeIfAbsent(iv.nodeId(), k -> new TreeMap<>());
            for (long k = Math.floorDiv(iv.ts(), width); k * width < iv.end(); k++) {
                long ns = Intervals.overlap(iv.ts(), iv.end(), k * width, (k + 1) * width);
                if (ns > 0) {
                    bins.merge(k, ns, Long::sum);
                }
            }
        }
        Table.Builder t = Table.builder("Residency per " + width + " ns bin", "block", "handle", "node",
                "bin_start_ts", "bin_end_ts", "present_ns", "percent");
        for (var b : acc.entrySet()) {
            MemoryTrace.Block block = m.blocks.get(b.getKey());
            for (var n : b.getValue().entrySet()) {
                for (var k : n.getValue().entrySet()) {
                    t.row(block.label(), block.handle(), m.nodeName(n.getKey()), k.getKey() * width,
                            (k.getKey() + 1) * width, k.getValue(), 100.0 * k.getValue() / width);
                }
            }
        }
        return t.build();
    }
}
