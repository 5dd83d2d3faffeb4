import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.hetscope.capture.kernels.Suite;
import org.hetscope.capture.kernels.SuiteKernel;
import org.hetscope.capture.kernels.instrument.CounterPlan;
import org.hetscope.capture.kernels.run.KernelArgument;
import org.hetscope.capture.kernels.run.KernelRunner;
import org.hetscope.capture.kernels.run.OpenClSession;
import org.hetscope.capture.kernels.run.TraceOptions;
import org.hetscope.capture.kernels.run.TraceResult;

/**
 * Overhead of kernel instrumentation (docs/seeds/gpu-kernel-instrumentation.md section 4): per kernel and mode,
 * median and IQR of device time (OpenCL profiling events) over REPS launches alternating plain/instrumented
 * after WARMUP discarded pairs; trace sizes and records with and without the CFG reduction.
 * Usage: java -cp CLASSPATH -Dhetscope.root=REPO KernelBench.java [SCALE|large] [REPS] [all|two-phase] [NAME,...]
 * SCALE multiplies the test sizes (kNN always at the paper's sizes); "large" takes {@code Suite.large()}, where
 * every kernel runs for 0.1 ms or more; "two-phase" measures only the three two-phase modes; NAME,... keeps only
 * the kernels so named (bench/gpu/run.sh's dry run).
 */
public class KernelBench {
    static final int WARMUP = 2;

    record Stat(double median, double q1, double q3) {
        static Stat of(List<Long> v) {
            long[] a = v.stream().mapToLong(Long::longValue).sorted().toArray();
            return new Stat(q(a, 0.5), q(a, 0.25), q(a, 0.75));
        }

        static double q(long[] a, double p) {
            double pos = p * (a.length - 1);
            int lo = (int) Math.floor(pos);
            int hi = (int) Math.ceil(pos);
            return a[lo] + (a[hi] - a[lo]) * (pos - lo);
        }
    }

    interface Variant {
        long[] run(List<KernelArgument> args); // {kernel ns of the compared part, total ns}
    }

    static Supplier<List<KernelArgument>> cached(Supplier<List<KernelArgument>> s) {
        List<KernelArgument> base = s.get();
        return () -> {
            List<KernelArgument> out = new ArrayList<>();
            for (KernelArgument a : base) {
                out.add(a instanceof KernelArgument.Host h ? new KernelArgument.Host(h.bytes().clone()) : a);
            }
            return out;
        };
    }

    public static void main(String[] argv) {
        String size = argv.length > 0 ? argv[0] : "4";
        int reps = argv.length > 1 ? Integer.parseInt(argv[1]) : 20;
        boolean onlyTwoPhase = argv.length > 2 && argv[2].equals("two-phase");
        List<SuiteKernel> kernels;
        if (size.equals("large")) {
            kernels = Suite.large();
        } else {
            kernels = new ArrayList<>(Suite.all(Integer.parseInt(size)));
            kernels.set(kernels.size() - 2, Suite.knn(5000, 784, 5120, 256));
        }
        if (argv.length > 3) {
            List<String> keep = List.of(argv[3].split(","));
            kernels = kernels.stream().filter(k -> keep.contains(k.name())).toList();
            if (kernels.isEmpty()) {
                throw new IllegalArgumentException("no kernel named in " + keep);
            }
        }
        List<String> rows = new ArrayList<>();
        List<Double> twoPhaseRecord = new ArrayList<>();
        List<Double> twoPhaseReduced = new ArrayList<>();
        List<Double> tripCut = new ArrayList<>();
        List<Double> twoPhaseTotal = new ArrayList<>();
        List<Double> counterRatios = new ArrayList<>();
        List<Double> sharedRatios = new ArrayList<>();
        List<Double> subRatios = new ArrayList<>();
        List<Double> recordCut = new ArrayList<>();
        List<Double> byteCut = new ArrayList<>();
        try (OpenClSession session = OpenClSession.open()) {
            System.err.println("device: " + session.deviceName() + " / " + session.version());
            for (SuiteKernel k : kernels) {
                KernelRunner runner = new KernelRunner(session, k.file().toString(), k.source(), k.kernel());
                Supplier<List<KernelArgument>> args = cached(k.args());
                String[] modes = {"counters", "two-phase naive", "two-phase reduced", "two-phase trip counts",
                    "shared naive", "shared reduced", "shared trip counts", "sub-buffer naive", "sub-buffer reduced",
                    "sub-buffer trip counts"};
                TraceResult[] last = new TraceResult[modes.length];
                for (int m = 0; m < modes.length; m++) {
                    if (onlyTwoPhase && (m < 1 || m > 3)) {
                        continue;
                    }
                    int mode = m;
                    Variant v;
                    if (m == 0) {
                        v = a -> {
                            long t = runner.count(a, k.range(), CounterPlan.Mode.ATOMIC).timing().duration();
                            return new long[] {t, t};
                        };
                    } else {
                        TraceOptions.Strategy s = m <= 3 ? TraceOptions.Strategy.TWO_PHASE
                                : m <= 6 ? TraceOptions.Strategy.SHARED : TraceOptions.Strategy.SUBBUFFER;
                        int points = (m - 1) % 3;
                        v = a -> {
                            TraceOptions opt = TraceOptions.of(s, points > 0);
                            if (points == 2) {
                                opt = opt.withTripCounts();
                            }
                            TraceResult exact = last[1 + points];
                            if (exact != null && s != TraceOptions.Strategy.TWO_PHASE) {
                                long chunks = 0;
                                for (int[] r : exact.records()) {
                                    chunks += (r.length + 63) / 64;
                                }
                                opt = opt.withCapacity(Math.max(1, exact.totalRecords()))
                                        .withChunks(64, Math.max(1, chunks));
                            }
                            TraceResult r = runner.trace(a, k.range(), opt);
                            if (!r.valid() || !r.failures().isEmpty()) {
                                throw new IllegalStateException(k.name() + " " + modes[mode] + " invalid trace");
                            }
                            last[mode] = r;
                            return new long[] {r.recordNanos(), r.kernelNanos() + r.hostNanos()};
                        };
                    }
                    List<Long> plain = new ArrayList<>();
                    List<Long> part = new ArrayList<>();
                    List<Long> total = new ArrayList<>();
                    for (int i = 0; i < WARMUP + reps; i++) {
                        long p = runner.runPlain(args.get(), k.range()).duration();
                        long[] t = v.run(args.get());
                        if (i >= WARMUP) {
                            plain.add(p);
                            part.add(t[0]);
                            total.add(t[1]);
                        }
                    }
                    Stat sp = Stat.of(plain);
                    Stat si = Stat.of(part);
                    Stat st = Stat.of(total);
                    double ratio = si.median() / sp.median();
                    double ratioTotal = st.median() / sp.median();
                    String sizes;
                    if (m > 0) {
                        TraceResult r = last[m];
                        sizes = String.format(Locale.ROOT, "%d | %d | %d", r.plan().points().sites(), r.totalRecords(),
                                r.bytes());
                    } else {
                        sizes = "- | - | -";
                    }
                    rows.add(String.format(Locale.ROOT, "| %s | %s | %.3f | %.2f (%.2f-%.2f) | %s | %s |", k.name(),
                            modes[m], sp.median() / 1e6, ratio, si.q1() / sp.median(), si.q3() / sp.median(),
                            m >= 1 && m <= 3 ? String.format(Locale.ROOT, "%.2f", ratioTotal) : "-", sizes));
                    switch (m) {
                        case 0 -> counterRatios.add(ratio);
                        case 2 -> twoPhaseReduced.add(ratio);
                        case 3 -> {
                            twoPhaseRecord.add(ratio);
                            twoPhaseTotal.add(ratioTotal);
                        }
                        case 6 -> sharedRatios.add(ratio);
                        case 9 -> subRatios.add(ratio);
                        default -> { }
                    }
                    System.err.println(rows.getLast());
                }
                recordCut.add(1 - last[2].totalRecords() / (double) Math.max(1, last[1].totalRecords()));
                byteCut.add(1 - last[2].bytes() / (double) last[1].bytes());
                tripCut.add(1 - last[3].totalRecords() / (double) Math.max(1, last[1].totalRecords()));
                int mismatches = 0;
                for (int p = 0; p < last[1].producers(); p++) {
                    if (!Arrays.equals(last[1].paths()[p], last[2].paths()[p])
                            || !Arrays.equals(last[1].paths()[p], last[3].paths()[p])) {
                        mismatches++;
                    }
                }
                rows.add(String.format(Locale.ROOT, "| %s | reduction | | reduced: records -%.1f %%, bytes -%.1f %%;"
                        + " trip counts: records -%.1f %%; %d of %d work-item paths differ | | | | |", k.name(),
                        100 * recordCut.getLast(), 100 * byteCut.getLast(), 100 * tripCut.getLast(), mismatches,
                        last[1].producers()));
            }
        }
        System.out.println("| kernel | mode | plain ms (median) | instrumented/plain: median (IQR) | two-phase total/plain"
                + " | static sites | records | trace bytes |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        rows.forEach(System.out::println);
        System.out.println();
        System.out.printf(Locale.ROOT, "median over kernels: counters %.2fx; two-phase recording pass: reduced %.2fx,"
                        + " trip counts %.2fx (whole two-phase protocol with trip counts %.2fx); shared (trip counts)"
                        + " %.2fx; sub-buffer (trip counts) %.2fx; the reduction cuts records by %.1f %% and trace"
                        + " bytes by %.1f %%, trip counts cut records by %.1f %%%n", median(counterRatios),
                median(twoPhaseReduced), median(twoPhaseRecord), median(twoPhaseTotal), median(sharedRatios),
                median(subRatios), 100 * median(recordCut), 100 * median(byteCut), 100 * median(tripCut));
    }

    static double median(List<Double> v) {
        if (v.isEmpty()) {
            return Double.NaN;
        }
        double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }
}
