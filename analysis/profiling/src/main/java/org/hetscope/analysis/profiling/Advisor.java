package org.hetscope.analysis.profiling;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
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
    private final Integer warpSize;
    private final List<Advice> advice = new ArrayList<>();

    public Advisor(Store store) {
        this(store, null);
    }

    /**
     * @param warpSize the warp/wavefront size given by the user (--warp-size or a device profile), replacing the
     *     trace's for every device; null to use the trace's, which may not know it (a rocprof results.csv
     *     without a wave_size column)
     */
    public Advisor(Store store, Integer warpSize) {
        if (warpSize != null && warpSize <= 0) {
            throw new IllegalArgumentException("the warp size must be positive, got " + warpSize);
        }
        this.store = store;
        this.warpSize = warpSize;
    }

    /** Upper bound on active lanes when a work-group of {@code wg} threads runs in waves of {@code wave}. */
    public static double activeLaneBound(long wg, int wave) {
        long waves = (wg + wave - 1) / wave;
        return (double) wg / (waves * (double) wave);
    }

    public List<Advice> run() {
        advice.clear();
        ProfileData data = ProfileData.load(store);
        workGroups();
        valu();
        perDevice();
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

    /** The SQL for a dispatch's warp size: the user's when given, else the device's (null when unknown). */
    private String waveSql() {
        return warpSize == null ? "d.warp_size" : "CAST(" + warpSize + " AS INTEGER)";
    }

    private static String waveWord(int wave) {
        return wave == 64 ? "wavefront" : "warp";
    }

    /**
     * Work-groups that are not a multiple of the warp/wavefront size. Where the size is unknown (not in the trace
     * and not given) nothing is claimed either way: one item per device says so and how to give it.
     */
    private void workGroups() {
        Table t = store.query("SELECT s.name, k.block_x * k.block_y * k.block_z AS wg, " + waveSql() + " AS wave, "
                + "count(*), k.device_id FROM kernel k JOIN slice s ON s.id = k.slice_id LEFT JOIN device d "
                + "ON d.id = k.device_id WHERE k.block_x IS NOT NULL GROUP BY 1, 2, 3, 5 ORDER BY 4 DESC, 1, 2, 5");
        Map<String, long[]> grouped = new LinkedHashMap<>();
        Map<Long, TreeMap<Long, Long>> unknown = new TreeMap<>(); // device -> work-group size -> dispatches
        for (Object[] r : t.rows()) {
            long wg = ((Number) r[1]).longValue();
            Long dev = r[4] == null ? -1L : ((Number) r[4]).longValue();
            if (r[2] == null || ((Number) r[2]).intValue() <= 0) {
                if (wg > 0) {
                    unknown.computeIfAbsent(dev, k -> new TreeMap<>()).merge(wg, ((Number) r[3]).longValue(),
                            Long::sum);
                }
                continue;
            }
            int wave = ((Number) r[2]).intValue();
            if (wg <= 0 || wg % wave == 0) {
                continue;
            }
            grouped.computeIfAbsent(r[0] + "\0" + wg + "\0" + wave, k -> new long[] {wg, wave, 0})[2] +=
                    ((Number) r[3]).longValue();
        }
        for (var e : grouped.entrySet()) {
            String name = e.getKey().substring(0, e.getKey().indexOf('\0'));
            long wg = e.getValue()[0];
            int wave = (int) e.getValue()[1];
            double bound = activeLaneBound(wg, wave);
            advice.add(new Advice("workgroup-size", "warning", name, "work-group size " + wg
                    + " is not a multiple of the " + waveWord(wave) + " size " + wave + ": at most " + pct(bound)
                    + " of the SIMD lanes can be active; use a multiple of " + wave,
                    e.getValue()[2] + " dispatches with work-group " + wg + ", " + ((wg + wave - 1) / wave)
                            + " waves of " + wave + " lanes per group"));
        }
        if (unknown.isEmpty()) {
            return;
        }
        Map<Long, String> labels = org.hetscope.analysis.gpu.Utilisation.deviceLabels(store);
        for (var e : unknown.entrySet()) {
            long dispatches = e.getValue().values().stream().mapToLong(Long::longValue).sum();
            advice.add(new Advice("warp-size-unknown", "info", labels.getOrDefault(e.getKey(),
                    e.getKey() < 0 ? "device unknown" : "device " + e.getKey()), "the warp/wavefront size of "
                    + "this device is not in the trace: whether its work-groups fill whole warps/wavefronts (and "
                    + "so the cause of a low VALU utilisation) is not judged; give it with --warp-size N or "
                    + "warpSize=N in a --device-profile file", dispatches + " dispatches with work-group sizes "
                    + e.getValue().keySet()));
        }
    }

    /**
     * Low VALU utilisation, judged per dispatch: the dispatches of a kernel below the threshold, grouped by
     * work-group and warp size (the likely cause), so that slow dispatches of one configuration are not hidden
     * by fast ones of another in a mean over the kernel name.
     */
    private void valu() {
        Table t = store.query(null, "SELECT s.name, k.block_x * k.block_y * k.block_z AS wg, " + waveSql()
                + " AS wave, count(*) FILTER (WHERE c.value < ?) AS low, min(c.value), "
                + "avg(c.value) FILTER (WHERE c.value < ?), sum(count(*)) OVER (PARTITION BY s.name) AS of_name, "
                + "sum(sum(c.value)) OVER (PARTITION BY s.name) AS sum_of_name "
                + "FROM kernel_counter c JOIN slice s ON s.id = c.slice_id LEFT JOIN kernel k ON k.slice_id = "
                + "c.slice_id LEFT JOIN device d ON d.id = k.device_id WHERE lower(c.name) = 'valuutilization' "
                + "AND c.value IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3", LOW_VALU_PERCENT, LOW_VALU_PERCENT);
        for (Object[] r : t.rows()) {
            long low = ((Number) r[3]).longValue();
            if (low == 0) {
                continue;
            }
            String kernel = (String) r[0];
            Long wg = r[1] == null ? null : ((Number) r[1]).longValue();
            Integer wave = r[2] == null || ((Number) r[2]).intValue() <= 0 ? null : ((Number) r[2]).intValue();
            String cause;
            if (wg == null || wg <= 0) {
                cause = "not judged: the trace has no work-group size for these dispatches";
            } else if (wave == null) {
                cause = "not judged: the warp/wavefront size is unknown (not in the trace; give --warp-size), so "
                        + "whether work-group " + wg + " fills whole warps is unknown";
            } else if (wg % wave != 0) {
                cause = "the work-group size " + wg + " (lane bound " + pct(activeLaneBound(wg, wave)) + ")";
            } else {
                cause = "thread divergence (the work-group size " + wg + " is a multiple of the " + waveWord(wave)
                        + " size " + wave + ")";
            }
            long ofName = ((Number) r[6]).longValue();
            double meanOfName = ((Number) r[7]).doubleValue() / ofName;
            advice.add(new Advice("low-valu-utilisation", "warning", kernel, String.format(Locale.ROOT,
                    "VALU utilisation below %.0f%% in %d dispatches (work-group %s); likely cause: %s",
                    LOW_VALU_PERCENT, low, wg == null ? "unknown" : wg.toString(), cause),
                    String.format(Locale.ROOT, "VALUUtilization per dispatch: %d of the %d dispatches of this "
                            + "kernel are below %.0f%%, min %.1f%%, mean of those %.1f%% (mean over all %d: %.1f%%)",
                            low, ofName, LOW_VALU_PERCENT, ((Number) r[4]).doubleValue(),
                            ((Number) r[5]).doubleValue(), ofName, meanOfName)));
        }
    }

    /**
     * Idle, transfer-bound and serialised devices, from the standard library's utilisation of each device over
     * the default window ({@code hs_device_utilisation}: from the first to the last device activity) and its
     * device activity ({@code hs_device_activity}), so that advise states the busy, idle and concurrency figures
     * {@code hetscope gpu} shows. Devices without any activity get no advice.
     */
    private void perDevice() {
        Table t = store.query(null, """
                SELECT u.device, d.kind, u.window_ns, u.busy_ns, u.compute_ns, u.copy_ns, u.overlap_ns, u.idle_gaps,
                       u.longest_idle_ns, u.mean_concurrency, u.max_concurrency, a.computes, a.copies, a.units,
                       a.compute_units
                FROM hs_device_utilisation u JOIN hs_device d ON d.device_id = u.device_id
                JOIN (SELECT device_id, count(*) FILTER (WHERE class = 'compute') AS computes,
                             count(*) FILTER (WHERE class = 'copy') AS copies,
                             count(DISTINCT unit_track_id) AS units,
                             count(DISTINCT unit_track_id) FILTER (WHERE class = 'compute') AS compute_units
                      FROM hs_device_activity GROUP BY device_id) a ON a.device_id = u.device_id
                WHERE u.level = 'device'
                ORDER BY d.ordinal, u.device_id""");
        for (Object[] r : t.rows()) {
            String dev = (String) r[0];
            String what = "GPU".equalsIgnoreCase((String) r[1]) ? "the GPU" : "the device";
            long window = num(r[2]);
            long busy = num(r[3]);
            long computeBusy = num(r[4]);
            long copyBusy = num(r[5]);
            long overlap = num(r[6]);
            long computes = num(r[11]);
            long copies = num(r[12]);
            long units = num(r[13]);
            long computeUnits = num(r[14]);
            if (window <= 0) {
                continue;
            }
            double busyShare = (double) busy / window;
            if (busyShare < IDLE_SHARE) {
                advice.add(new Advice("gpu-idle", "warning", dev, what + " is idle " + pct(1 - busyShare)
                        + " of the run: the host does not feed it enough work", "busy " + ms(busy) + " of "
                        + ms(window) + " (kernels " + ms(computeBusy) + ", copies " + ms(copyBusy) + "), "
                        + num(r[7]) + " idle gaps, longest " + ms(num(r[8]))));
            }
            if (copyBusy > computeBusy) {
                advice.add(new Advice("transfer-bound", "warning", dev, "memory transfers take longer than the "
                        + "kernels: reduce or batch transfers, keep data on the device",
                        "copy busy " + ms(copyBusy) + " > kernel busy " + ms(computeBusy) + " over "
                                + copies + " copies and " + computes + " kernels"));
            }
            if (computes > 0 && copies > 0 && overlap == 0 && copyBusy > 0.05 * busy) {
                advice.add(new Advice("serialized-streams", "info", dev, "copies never overlap kernels"
                        + (units <= 1 ? " (all work is on one stream)" : "")
                        + ": asynchronous copies on another stream could hide " + ms(Math.min(copyBusy,
                        computeBusy)), "copy busy " + ms(copyBusy) + ", kernel busy " + ms(computeBusy)
                        + ", overlap 0 ns, " + units + " stream(s)"));
            }
            if (computeUnits >= 2 && r[10] != null && num(r[10]) <= 1 && computeBusy > 0) {
                advice.add(new Advice("serialized-streams", "info", dev, "kernels on " + computeUnits
                        + " streams never run at the same time: the streams are serialised (implicit "
                        + "synchronisation, the null stream, or a profiler)", "mean concurrency "
                        + String.format(Locale.ROOT, "%.3f", ((Number) r[9]).doubleValue()) + " over " + computes
                        + " kernels"));
            }
        }
    }

    /**
     * The median as every hetscope table defines it (docs/stdlib.md, {@code p50_ns}): nearest rank, the value at
     * 1-based rank ceil(n / 2) of the sorted values, so a duration that occurred.
     */
    static long median(List<Long> values) {
        long[] v = values.stream().mapToLong(Long::longValue).sorted().toArray();
        return v[(int) ((v.length + 1L) / 2 - 1)];
    }

    private static long num(Object o) {
        return o == null ? 0 : ((Number) o).longValue();
    }

    private void launchBound(ProfileData data) {
        Map<String, List<Span>> byStream = new LinkedHashMap<>();
        for (Span a : data.activities) {
            if (a.isKernel()) {
                byStream.computeIfAbsent(a.device() + "/" + a.stream(), k -> new ArrayList<>()).add(a);
            }
        }
        List<Long> durations = new ArrayList<>();
        List<Long> gaps = new ArrayList<>();
        long shorter = 0;
        long counted = 0;
        for (List<Span> ks : byStream.values()) {
            long prevEnd = Long.MIN_VALUE;
            for (Span k : ks) {
                durations.add(k.dur());
                if (prevEnd != Long.MIN_VALUE) {
                    long gap = Math.max(0, k.ts() - prevEnd);
                    gaps.add(gap);
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
        long medianDur = median(durations);
        if (counted >= LAUNCH_BOUND_MIN_KERNELS && shorter >= LAUNCH_BOUND_SHARE * counted) {
            long medianGap = median(gaps);
            advice.add(new Advice("launch-bound", "warning", "all streams", shorter + " of " + counted
                    + " kernels are shorter than the idle gap before them: the run is bound by launch overhead; "
                    + "fuse kernels or use graphs", String.format(Locale.ROOT,
                    "median kernel %d ns, median gap %d ns, %d kernels", medianDur, medianGap,
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
        // the devices' busy time as `gpu` shows it (hs_device_utilisation), summed over devices: the device
        // time the host's runtime calls are weighed against
        Long busy = store.scalarLong("SELECT CAST(sum(busy_ns) AS BIGINT) FROM hs_device_utilisation "
                + "WHERE level = 'device'");
        long gpu = busy == null ? 0 : busy;
        if (calls > 0 && runtime > gpu) {
            advice.add(new Advice("runtime-bound-host", "warning", "host", "the host spends longer in allocation, "
                    + "free and blocking copy calls than the GPU is busy", calls + " calls take " + ms(runtime)
                    + ", GPU busy " + ms(gpu)));
        }
    }

}
