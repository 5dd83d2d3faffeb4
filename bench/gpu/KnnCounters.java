import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.hetscope.capture.kernels.Suite;
import org.hetscope.capture.kernels.SuiteKernel;
import org.hetscope.capture.kernels.instrument.CounterPlan;
import org.hetscope.capture.kernels.run.CounterReport;
import org.hetscope.capture.kernels.run.CounterResult;
import org.hetscope.capture.kernels.run.KernelRunner;
import org.hetscope.capture.kernels.run.OpenClSession;

/**
 * Kernel counters on the kNN kernel (Bourgoin et al.'s Sarek example): the counters of one launch, checked against
 * the kernel's arithmetic (SET work-items compare DATA values each), and the device time of the counted launch
 * against the plain one (median of REPS alternating pairs after two discarded ones).
 * Usage: java -cp CLASSPATH -Dhetscope.root=ROOT KnnCounters SET DATA GLOBAL LOCAL REPS
 */
public class KnnCounters {
    public static void main(String[] a) {
        int set = Integer.parseInt(a[0]);
        int data = Integer.parseInt(a[1]);
        int global = Integer.parseInt(a[2]);
        int local = Integer.parseInt(a[3]);
        int reps = Integer.parseInt(a[4]);
        SuiteKernel k = Suite.knn(set, data, global, local);
        try (OpenClSession session = OpenClSession.open()) {
            KernelRunner runner = new KernelRunner(session, k.file().toString(), k.source(), k.kernel());
            List<Long> plain = new ArrayList<>();
            List<Long> counted = new ArrayList<>();
            CounterResult last = null;
            for (int i = 0; i < reps + 2; i++) {
                long p = runner.runPlain(k.args().get(), k.range()).duration();
                last = runner.count(k.args().get(), k.range(), CounterPlan.Mode.ATOMIC);
                if (i >= 2) {
                    plain.add(p);
                    counted.add(last.timing().duration());
                }
            }
            System.out.printf(Locale.ROOT, "device: %s / %s%n%n", session.deviceName(), session.version());
            System.out.printf(Locale.ROOT, "kNN set=%d data=%d global=%d local=%d, %d pairs: plain %.3f ms, counted"
                    + " %.3f ms (median), ratio %.2f%n%n", set, data, global, local, reps, median(plain) / 1e6,
                    median(counted) / 1e6, median(counted) / median(plain));
            System.out.println("| counter | construct | line | value | expected |");
            System.out.println("|---|---|---|---|---|");
            int bad = 0;
            for (CounterReport.Row r : CounterReport.rows(last)) {
                Long expected = switch (r.kind() + ":" + r.construct()) {
                    case "visits:while" -> (long) set * data;
                    case "visits:if" -> (long) set;
                    case "visits:else" -> (long) global - set;
                    case "load:null" -> 2L * set * data;
                    case "store:null" -> (long) set;
                    default -> null;
                };
                if (expected != null && expected != r.value()) {
                    bad++;
                }
                System.out.printf(Locale.ROOT, "| %s | %s | %d | %d | %s |%n", r.label(), r.construct(), r.line(),
                        r.value(), expected == null ? "" : expected.toString());
            }
            System.out.println();
            System.out.println(bad == 0 ? "counters: all match the kernel's arithmetic"
                    : "counters: " + bad + " differ from the kernel's arithmetic");
            if (bad != 0) {
                System.exit(1);
            }
        }
    }

    static double median(List<Long> v) {
        long[] s = v.stream().mapToLong(Long::longValue).sorted().toArray();
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }

    static String dims(long[] v) {
        return Arrays.toString(v);
    }
}
