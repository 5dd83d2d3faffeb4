import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import org.hetscope.formats.nsys.NsysFormat;
import org.hetscope.model.*;
import org.hetscope.store.StoreWriter;

/**
 * Splits the import time of an nsys export into decoding (into a sink that drops everything) and writing the
 * store (StoreWriter plus commit); wall and CPU time of the main thread. Without STORE only the decoding runs.
 * -Dhetscope.sqlite.scanner=false decodes through sqlite-jdbc instead of the file scanner (the "before").
 * Run: java --enable-native-access=ALL-UNNAMED -cp hetscope.jar bench/nsys/ReaderPhases.java EXPORT.sqlite [STORE]
 */
public class ReaderPhases {
    public static void main(String[] args) throws Exception {
        Path in = Path.of(args[0]);
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long t0 = System.nanoTime();
        long c0 = cpu.getCurrentThreadCpuTime();
        CollectingSink drop = new CollectingSink() {
            long n;
            @Override public void slice(Slice s) { n++; }
            @Override public void kernel(KernelLaunch k) { }
            @Override public void flow(Flow f) { }
            @Override public void transfer(Transfer t) { }
            @Override public void instant(Instant i) { }
        };
        new NsysFormat().read(in, drop, Progress.NONE);
        long t1 = System.nanoTime();
        long c1 = cpu.getCurrentThreadCpuTime();
        System.out.printf("scanner %s: decode only %.2f s (main thread CPU %.2f s)%n",
                System.getProperty("hetscope.sqlite.scanner", "true"), (t1 - t0) / 1e9, (c1 - c0) / 1e9);
        if (args.length < 2) {
            return;
        }
        StoreWriter w = StoreWriter.create(Path.of(args[1]));
        new NsysFormat().read(in, w, Progress.NONE);
        long t2 = System.nanoTime();
        long c2 = cpu.getCurrentThreadCpuTime();
        w.commit();
        long t3 = System.nanoTime();
        long c3 = cpu.getCurrentThreadCpuTime();
        System.out.printf("decode+append %.2f s (CPU %.2f s), commit %.2f s (CPU %.2f s)%n", (t2 - t1) / 1e9,
                (c2 - c1) / 1e9, (t3 - t2) / 1e9, (c3 - c2) / 1e9);
    }
}
