package org.hetscope.analysis.profiling;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.hetscope.store.Table;

/**
 * Roofline points per kernel dispatch (spec §2.7): arithmetic intensity {@code AI = flops / bytes}, achieved
 * {@code perf = flops / duration}, {@code attainable = min(peakFlops, AI * peakBandwidth)}, memory-bound when AI
 * is below the ridge {@code peakFlops / peakBandwidth}, and {@code efficiency = perf / attainable}. A dispatch
 * without both counters gets no point.
 */
public final class Roofline {
    /** One dispatch on the roofline. */
    public record Point(long sliceId, String kernel, double flops, double bytes, long durationNs, double intensity,
                        double performance, double attainable, String bound, double efficiency) {}

    private final double peakFlops;
    private final double peakBandwidth;

    public Roofline(double peakFlops, double peakBandwidth) {
        if (!(peakFlops > 0) || !(peakBandwidth > 0)) {
            throw new IllegalArgumentException("roofline needs positive peak FLOP/s and bandwidth (got " + peakFlops
                    + ", " + peakBandwidth + ")");
        }
        this.peakFlops = peakFlops;
        this.peakBandwidth = peakBandwidth;
    }

    public double ridge() {
        return peakFlops / peakBandwidth;
    }

    public Point point(long sliceId, String kernel, double flops, double bytes, long durationNs) {
        double ai = flops / bytes;
        double perf = flops / (durationNs / 1e9);
        double attainable = Math.min(peakFlops, ai * peakBandwidth);
        return new Point(sliceId, kernel, flops, bytes, durationNs, ai, perf, attainable,
                ai < ridge() ? "memory" : "compute", perf / attainable);
    }

    /** Points for every counted dispatch of {@code counters}; flops/bytes are counter names or expressions. */
    public List<Point> points(KernelCounters counters, String flopsExpr, String bytesExpr) {
        Set<String> known = new java.util.LinkedHashSet<>(counters.counterNames());
        CounterExpression f = CounterExpression.parse("flops", flopsExpr, known);
        CounterExpression b = CounterExpression.parse("bytes", bytesExpr, known);
        List<Point> out = new ArrayList<>();
        for (KernelCounters.Dispatch d : counters.dispatches()) {
            double flops = f.evaluate(d.values(), w -> { });
            double bytes = b.evaluate(d.values(), w -> { });
            long dur = d.end() - d.ts();
            if (Double.isNaN(flops) || Double.isNaN(bytes) || bytes <= 0 || dur <= 0) {
                continue;
            }
            out.add(point(d.sliceId(), d.kernel(), flops, bytes, dur));
        }
        return out;
    }

    public Table table(List<Point> points) {
        Table.Builder t = Table.builder("Roofline (peak " + peakFlops + " FLOP/s, " + peakBandwidth + " B/s, ridge "
                + ridge() + " FLOP/B)", "slice_id", "kernel", "flops", "bytes", "dur_ns", "intensity_flop_per_byte",
                "perf_flops", "attainable_flops", "bound", "efficiency");
        for (Point p : points) {
            t.row(p.sliceId(), p.kernel(), p.flops(), p.bytes(), p.durationNs(), p.intensity(), p.performance(),
                    p.attainable(), p.bound(), p.efficiency());
        }
        return t.build();
    }
}
