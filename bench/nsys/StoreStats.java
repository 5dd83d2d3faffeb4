import java.nio.file.Path;
import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * Times the per-kernel statistics query on an imported store inside one JVM (open excluded), three runs.
 * Run: java -cp hetscope.jar bench/nsys/StoreStats.java STORE
 */
public class StoreStats {
    public static void main(String[] args) throws Exception {
        try (Store store = Store.open(Path.of(args[0]))) {
            for (int i = 0; i < 3; i++) {
                long t0 = System.nanoTime();
                Table t = store.query("stats", "SELECT name, count(*), sum(dur) FROM slice WHERE category = 'kernel' "
                        + "GROUP BY 1");
                long t1 = System.nanoTime();
                System.out.printf("run %d: %d groups in %.3f s%n", i + 1, t.size(), (t1 - t0) / 1e9);
            }
        }
    }
}
