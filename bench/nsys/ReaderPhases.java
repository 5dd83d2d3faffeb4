import java.nio.file.Path;
import org.hetscope.formats.nsys.NsysFormat;
import org.hetscope.model.*;
import org.hetscope.store.StoreWriter;

/**
 * Splits the import time of an nsys export into decoding (into a sink that drops everything) and writing the
 * store (StoreWriter plus commit). Run: java -cp hetscope.jar bench/nsys/ReaderPhases.java EXPORT.sqlite STORE
 */
public class ReaderPhases {
    public static void main(String[] args) throws Exception {
        Path in = Path.of(args[0]);
        long t0 = System.nanoTime();
        CollectingSink drop = new CollectingSink() {
            long n;
            @Override public void slice(Slice s) { n++; }
            @Override public void kernel(KernelLaunch k) { }
            @Override public void flow(Flow f) { }
            @Override public void transfer(Transfer t) { }
        };
        new NsysFormat().read(in, drop, Progress.NONE);
        long t1 = System.nanoTime();
        StoreWriter w = StoreWriter.create(Path.of(args[1]));
        new NsysFormat().read(in, w, Progress.NONE);
        long t2 = System.nanoTime();
        w.commit();
        long t3 = System.nanoTime();
        System.out.printf("decode only %.2f s, decode+append %.2f s, commit %.2f s%n", (t1 - t0) / 1e9,
                (t2 - t1) / 1e9, (t3 - t2) / 1e9);
    }
}
