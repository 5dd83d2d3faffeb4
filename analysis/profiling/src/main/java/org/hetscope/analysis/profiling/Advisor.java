package org.hetscope.analysis.profiling;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.hetscope.analysis.gpu.Busy;
import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * Performance advice with the evidence behind it (spec §2.6 and issue 5): work-groups that are not a multiple
 * of the warp/wavefront, low VALU utilisation, launch-bound runs of short kernels, an idle GPU, transfers that
 * dominate, pageable host memory in copies, copies and kernels (or streams) that never overlap, traces
 * serialised by the profiler, and hosts bound by runtime calls.
 */
public final class Advisor {
    /** One piece of advice; {@code evidence} names the kernels/intervals and the numbers. */
    public record Advice(String rule, String severity, String subject, String advice, String evidence) {}

    /** Thresholds of the rules (hetscope rules where the spec does not fix them). */
    public static final double LOW_VALU_PERCENT = 50;
    public static final double IDLE_SHARE = 0.5;
    public static final double LAUNCH_BOUND_SHARE = 0.5;
    public static final int LAUNCH_BOUND_MIN_KERNELS = 10;

    private final Store store;
    private final List<Advice> advice = new ArrayList<>();

    public Advisor(Store store) {
        this.store = store;
    }

    /** Upper bound on active lanes when a work-group of {@code wg} threads runs in waves of {@code wave}. */
    public static double activeLaneBound(long wg, int wave) {
        long waves = (wg + wave - 1) / wave;
        return (double) wg / (waves * (double) wave);
    }

    public List<Advice> run() {
        advice.clear();
        ProfileData data = ProfileData.load(store);
        Map<String, Double> wgBound = workGroups();
        valu(wgBound);
        perDevice(data);
        launchBound(data);
        pageable();
        serialisedByProfiler();
        runtimeBound(data);
        return advice;
    }

    public Table table() {
        Table.Builder t = Table.builder("Advice", "rule", "severity", "subject", "advice", "evidence");
        for (Advice a : run()) {
            t.row(a.rule(), a.severity(), a.subject(), a.advice(), a.evidence());
        }
        return t.build();
    }

    private static String ms(long ns) {
        return String.format(Locale.ROOT, "%.3f ms", ns / 1e6);
    }

    private static String pct(double share) {
        return String.format(Locale.ROOT, "%.1f%%", share * 100);
    }

    /** Kernel name to the lane bound, for the kernels the work-group rule flags. */
    private Map<String, Double> workGroups() {
        Map<String, Double> flagged = new LinkedHashMap<>();
        Table t = store.query("SELECT s.name, k.block_x * k.block_y * k.block_z AS wg, d.warp_size, count(*) "
                + "FROM kernel k JOIN slice s ON s.id = k.slice_id JOIN device d ON d.id = k.device_id "
                + "WHERE d.warp_size > 0 AND k.block_x IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 4 DESC, 1");
        for (Object[] r : t.rows()) {
            long wg = ((Number) r[1]).longValue();
            int wave = ((Number) r[2]).intValue();
            if (wg <= 0 || wg % wave == 0) {
                continue;
            }
            double bound = activeLaneBound(wg, wave);
            flagged.merge((String) r[0], bound, Math::min);
            advice.add(new Advice("workgroup-size", "warning", (String) r[0], "work-group size " + wg
                    + " is not a multiple of the " + (wave == 64 ? "wavefront" : "warp") + " size " + wave
                    + ": at most " + pct(bound) + " of the SIMD lanes can be active; use a multiple of " + wave,
                    r[3] + " dispatches with work-group " + wg + ", " + ((wg + wave - 1) / wave) + " waves of "
                            + wave + " lanes per group"));
        }
        return flagged;
    }

    private void valu(Map<String, Double> wgBound) {
        Table t = store.query("SELECT s.name, avg(c.value), count(*) FROM kernel_counter c JOIN slice s "
                + "ON s.id = c.slice_id WHERE lower(c.name) = 'valuutilization' GROUP BY 1 ORDER BY 1");
        for (Object[] r : t.rows()) {
            double v = ((Number) r[1]).doubleValue();
            if (v >= LOW_VALU_PERCENT) {
                continue;
            }
            String kernel = (String) r[0];
            Double bound = wgBound.get(kernel);
            String cause = bound != null ? "the work-group size (lane bound " + pct(bound) + ")"
                    : "thread divergence (the work-group size is a multiple of the wavefront)";
            advice.add(new Advice("low-valu-utilisation", "warning", kernel, String.format(Locale.ROOT,
                    "VALU utilisation %.1f%% is below %.0f%%; likely cause: %s", v, LOW_VALU_PERCENT, cause),
                    "mean VALUUtilization over " + r[2] + " dispatches"));
        }
    }

    private void perDevice(ProfileData data) {
        long t0 = Long.MAX_VALUE;
        long t1 = Long.MIN_VALUE;
        for (Span s : data.calls) {
            t0 = Math.min(t0, s.ts());
            t1 = Math.max(t1, s.end());
        }
        for (Span s : data.activities) {
            t0 = Math.min(t0, s.ts());
            t1 = Math.max(t1, s.end());
        }
        if (t0 >= t1) {
            return;
        }
        Map<Long, List<Span>> byDevice = new TreeMap<>();
        data.activities.forEach(a -> byDevice.computeIfAbsent(a.device() == null ? -1L : a.device(),
                k -> new ArrayList<>()).add(a));
        // named as in `hetscope gpu`, not by the store's internal id
        Map<Long, String> labels = org.hetscope.analysis.gpu.Utilisation.deviceLabels(store);
        for (Map.Entry<Long, List<Span>> e : byDevice.entrySet()) {
            List<Span> kernels = e.getValue().stream().filter(Span::isKernel).toList();
            List<Span> copies = e.getValue().stream().filter(s -> !s.isKernel()).toList();
            Busy b = Busy.of(starts(kernels), ends(kernels), starts(copies), ends(copies), t0, t1);
            String dev = labels.getOrDefault(e.getKey(), e.getKey() < 0 ? "device unknown" : "device " + e.getKey());
            double busyShare = (double) b.busy() / b.window();
            if (busyShare < IDLE_SHARE) {
                advice.add(new Advice("gpu-idle", "warning", dev, "the GPU is idle " + pct(1 - busyShare)
                        + " of the run: the host does not feed it enough work", "busy " + ms(b.busy()) + " of "
                        + ms(b.window()) + " (kernels " + ms(b.kernelBusy()) + ", copies " + ms(b.copyBusy())
                        + "), " + b.idleGaps() + " idle gaps, longest " + ms(b.longestIdleGap())));
            }
            if (b.copyBusy() > b.kernelBusy()) {
                advice.add(new Advice("transfer-bound", "warning", dev, "memory transfers take longer than the "
                        + "kernels: reduce or batch transfers, keep data on the device",
                        "copy busy " + ms(b.copyBusy()) + " > kernel busy " + ms(b.kernelBusy()) + " over "
                                + copies.size() + " copies and " + kernels.size() + " kernels"));
            }
            if (!kernels.isEmpty() && !copies.isEmpty() && b.overlap() == 0 && b.copyBusy() > 0.05 * b.busy()) {
                long streams = e.getValue().stream().map(Span::stream).distinct().count();
                advice.add(new Advice("serialized-streams", "info", dev, "copies never overlap kernels"
                        + (streams <= 1 ? " (all work is on one stream)" : "")
                        + ": asynchronous copies on another stream could hide " + ms(Math.min(b.copyBusy(),
                        b.kernelBusy())), "copy busy " + ms(b.copyBusy()) + ", kernel busy " + ms(b.kernelBusy())
                        + ", overlap 0 ns, " + streams + " stream(s)"));
            }
            long kernelStreams = kernels.stream().map(Span::stream).distinct().count();
            if (kernelStreams >= 2 && b.concurrency().length <= 2 && b.kernelBusy() > 0) {
                advice.add(new Advice("serialized-streams", "info", dev, "kernels on " + kernelStreams
                        + " streams never run at the same time: the streams are serialised (implicit "
                        + "synchronisation, the null stream, or a profiler)", "mean concurrency "
                        + String.format(Locale.ROOT, "%.3f", b.meanConcurrency()) + " over " + kernels.size()
                        + " kernels"));
            }
        }
    }

    private void launchBound(ProfileData data) {
        Map<String, List<Span>> byStream = new LinkedHashMap<>();
        for (Span a : data.activities) {
            if (a.isKernel()) {
                byStream.computeIfAbsent(a.device() + "/" + a.stream(), k -> new ArrayList<>()).add(a);
            }
        }
        List<Double> durations = new ArrayList<>();
        List<Double> gaps = new ArrayList<>();
        long shorter = 0;
        long counted = 0;
        for (List<Span> ks : byStream.values()) {
            long prevEnd = Long.MIN_VALUE;
            for (Span k : ks) {
                durations.add((double) k.dur());
                if (prevEnd != Long.MIN_VALUE) {
                    long gap = Math.max(0, k.ts() - prevEnd);
                    gaps.add((double) gap);
                    counted++;
                    if (k.dur() < gap) {
                        shorter++;
                    }
                }
                prevEnd = Math.max(prevEnd, k.end());
            }
        }
        if (durations.isEmpty()) {
            return;
        }
        double medianDur = Statistics.median(durations.stream().mapToDouble(Double::doubleValue).toArray());
        if (counted >= LAUNCH_BOUND_MIN_KERNELS && shorter >= LAUNCH_BOUND_SHARE * counted) {
            double medianGap = Statistics.median(gaps.stream().mapToDouble(Double::doubleValue).toArray());
            advice.add(new Advice("launch-bound", "warning", "all streams", shorter + " of " + counted
                    + " kernels are shorter than the idle gap before them: the run is bound by launch overhead; "
                    + "fuse kernels or use graphs", String.format(Locale.ROOT,
                    "median kernel %.0f ns, median gap %.0f ns, %d kernels", medianDur, medianGap,
                    durations.size())));
        }
    }

    private void pageable() {
        Table t = store.query("SELECT count(*), COALESCE(sum(tr.bytes), 0), COALESCE(sum(s.dur), 0) FROM slice s "
                + "LEFT JOIN transfer tr ON tr.slice_id = s.id WHERE s.category = 'memcpy' "
                + "AND s.args LIKE '%Pageable%'");
        long n = ((Number) t.rows().get(0)[0]).longValue();
        if (n > 0) {
            long bytes = ((Number) t.rows().get(0)[1]).longValue();
            long dur = ((Number) t.rows().get(0)[2]).longValue();
            advice.add(new Advice("pageable-memory", "warning", "memory copies", n + " copies use pageable host "
                    + "memory: they are staged and synchronous; pin the host buffers (cudaMallocHost/hipHostMalloc)",
                    bytes + " bytes in " + ms(dur)));
        }
    }

    private void serialisedByProfiler() {
        Table t = store.query("SELECT count(*) FROM trace_info WHERE key = 'serialized_by_profiler' "
                + "AND value = 'true'");
        Long counted = store.scalarLong("SELECT count(*) FROM kernel_counter");
        if (((Number) t.rows().get(0)[0]).longValue() > 0 || counted != null && counted > 0) {
            advice.add(new Advice("profiler-serialised", "warning", "trace", "kernels carry hardware counters: the "
                    + "profiler ran them one at a time, so concurrency and idle time do not reflect the real run",
                    counted + " counter values"));
        }
    }

    private void runtimeBound(ProfileData data) {
        long runtime = 0;
        long calls = 0;
        for (Span c : data.calls) {
            String n = c.name().toLowerCase(Locale.ROOT);
            if (n.contains("malloc") || n.contains("free") || n.contains("memcpy") && !n.contains("async")) {
                runtime += c.dur();
                calls++;
            }
        }
        long gpu = 0;
        List<Span> acts = data.activities;
        if (!acts.isEmpty()) {
            Busy b = Busy.of(starts(acts.stream().filter(Span::isKernel).toList()),
                    ends(acts.stream().filter(Span::isKernel).toList()),
                    starts(acts.stream().filter(s -> !s.isKernel()).toList()),
                    ends(acts.stream().filter(s -> !s.isKernel()).toList()), Long.MIN_VALUE / 4, Long.MAX_VALUE / 4);
            gpu = b.busy();
        }
        if (calls > 0 && runtime > gpu) {
            advice.add(new Advice("runtime-bound-host", "warning", "host", "the host spends longer in allocation, "
                    + "free and blocking copy calls than the GPU is busy", calls + " calls take " + ms(runtime)
                    + ", GPU busy " + ms(gpu)));
        }
    }

    private static long[] starts(List<Span> s) {
        return s.stream().mapToLong(Span::ts).toArray();
    }

    private static long[] ends(List<Span> s) {
        return s.stream().mapToLong(Span::end).toArray();
    }
}
