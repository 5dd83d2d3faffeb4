import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.hetscope.analysis.mining.itemsets.Eclat;
import org.hetscope.analysis.mining.itemsets.Lcm;
import org.hetscope.analysis.mining.itemsets.MinSupport;
import org.hetscope.analysis.mining.itemsets.TransactionDatabase;

/**
 * Times closed (LCM) and all frequent (Eclat) itemset mining on a generated database, one size and shape per JVM,
 * single-threaded, timed in thread CPU time. Baseline of the same run: one pass counting every item of the database (the least any miner
 * must do). Prints one CSV line: shape,transactions,avg_items,min_support,baseline_ms,closed_ms,closed_count,
 * frequent_ms,frequent_count,heap_peak_mb,rss_peak_mb.
 *
 * Shapes (both ~20 items per transaction, 200 planted patterns of 3-8 items, Zipf-skewed noise):
 *   sparse: 10 000 items; dense: 120 items.
 */
public class MiningBench {
    public static void main(String[] args) throws Exception {
        String shape = args[0];
        int n = Integer.parseInt(args[1]);
        MinSupport min = MinSupport.parse(args.length > 2 ? args[2] : "1%");
        int vocabulary = shape.equals("dense") ? 120 : 10_000;
        TransactionDatabase db = generate(n, vocabulary, 20, 42);
        int minCount = min.count(db.size());
        long total = 0;
        for (int t = 0; t < db.size(); t++) {
            total += db.length(t);
        }
        // Warm-up on a slice so the JIT has compiled the hot loops before the timed runs.
        TransactionDatabase warm = generate(Math.min(n, 50_000), vocabulary, 20, 7);
        Lcm.mine(warm, min.count(warm.size()), (i, s, c) -> { });
        Eclat.mine(warm, min.count(warm.size()), (i, s, c) -> { });

        // Thread CPU time, not wall time: the shared build machines run other jobs at the same time.
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long base = Long.MAX_VALUE;
        for (int rep = 0; rep < 3; rep++) {
            long t0 = cpu.getCurrentThreadCpuTime();
            int[] counts = db.itemCounts();
            base = Math.min(base, cpu.getCurrentThreadCpuTime() - t0);
            if (counts.length == 0) {
                throw new IllegalStateException();
            }
        }
        long t0 = cpu.getCurrentThreadCpuTime();
        long closed = Lcm.mine(db, minCount, (i, s, c) -> { });
        long closedNs = cpu.getCurrentThreadCpuTime() - t0;
        t0 = cpu.getCurrentThreadCpuTime();
        long frequent = Eclat.mine(db, minCount, (i, s, c) -> { });
        long frequentNs = cpu.getCurrentThreadCpuTime() - t0;
        long heap = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                heap += p.getPeakUsage().getUsed();
            }
        }
        long rss = 0;
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) {
                rss = Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
            }
        }
        System.out.printf("%s,%d,%.1f,%d,%.1f,%.1f,%d,%.1f,%d,%d,%d%n", shape, n, (double) total / n, minCount,
                base / 1e6, closedNs / 1e6, closed, frequentNs / 1e6, frequent, heap >> 20, rss);
    }

    /** ~avgItems items per transaction: one planted pattern (p = 0.6) plus Zipf-distributed noise items. */
    static TransactionDatabase generate(int n, int vocabulary, int avgItems, long seed) {
        Random rnd = new Random(seed);
        int[][] patterns = new int[200][];
        for (int p = 0; p < patterns.length; p++) {
            patterns[p] = new int[3 + rnd.nextInt(6)];
            for (int k = 0; k < patterns[p].length; k++) {
                patterns[p][k] = rnd.nextInt(vocabulary);
            }
        }
        double[] cdf = new double[vocabulary];
        double sum = 0;
        for (int i = 0; i < vocabulary; i++) {
            sum += 1.0 / Math.pow(i + 1, 0.8);
            cdf[i] = sum;
        }
        TransactionDatabase.Builder b = TransactionDatabase.builder();
        for (int i = 0; i < vocabulary; i++) {
            b.dictionary().id(Integer.toString(i));
        }
        int[] buf = new int[4 * avgItems];
        for (int t = 0; t < n; t++) {
            int k = 0;
            if (rnd.nextDouble() < 0.6) {
                // Patterns are picked with a skew too, so a few of them are frequent at 1 %.
                int[] p = patterns[(int) Math.min(patterns.length - 1, Math.abs(rnd.nextGaussian()) * 25)];
                for (int x : p) {
                    buf[k++] = x;
                }
            }
            int target = Math.max(1, avgItems - 4 + rnd.nextInt(9));
            while (k < target) {
                double u = rnd.nextDouble() * sum;
                int lo = 0;
                int hi = vocabulary - 1;
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (cdf[mid] < u) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                buf[k++] = lo;
            }
            b.addIds(buf, k);
        }
        return b.build();
    }
}
