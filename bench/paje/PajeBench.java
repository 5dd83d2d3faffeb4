import java.nio.file.Files;
import java.nio.file.Path;
import org.hetscope.formats.paje.PajeFormat;
import org.hetscope.model.CounterSample;
import org.hetscope.model.Device;
import org.hetscope.model.Entity;
import org.hetscope.model.Flow;
import org.hetscope.model.Instant;
import org.hetscope.model.KernelCounter;
import org.hetscope.model.KernelLaunch;
import org.hetscope.model.MemoryBlock;
import org.hetscope.model.MemoryNode;
import org.hetscope.model.Progress;
import org.hetscope.model.Residency;
import org.hetscope.model.Slice;
import org.hetscope.model.Task;
import org.hetscope.model.TaskAccess;
import org.hetscope.model.TaskDependency;
import org.hetscope.model.TraceProcess;
import org.hetscope.model.TraceSink;
import org.hetscope.model.TraceThread;
import org.hetscope.model.Track;
import org.hetscope.model.Transfer;
import org.hetscope.store.StoreWriter;

/**
 * Times hetscope's Paje/StarPU reader on one file. Mode "model": the whole model is built (every record is
 * constructed and handed to a sink that counts it); mode "import": the full import into a DuckDB store.
 * usage: java -cp ... PajeBench.java model|import FILE [STORE]
 */
public class PajeBench {
    /** Counts every record it receives; keeps nothing. */
    static final class CountingSink implements TraceSink {
        final long[] ids = new long[Entity.values().length];
        long records;
        long rows;
        public long newId(Entity e) { return ++ids[e.ordinal()]; }
        public void process(TraceProcess p) { records++; }
        public void thread(TraceThread t) { records++; }
        public void device(Device d) { records++; }
        public void track(Track t) { records++; }
        public void slice(Slice s) { records++; }
        public void instant(Instant i) { records++; }
        public void counter(CounterSample c) { records++; }
        public void flow(Flow f) { records++; }
        public void kernel(KernelLaunch k) { records++; }
        public void kernelCounter(KernelCounter c) { records++; }
        public void transfer(Transfer t) { records++; }
        public void memoryNode(MemoryNode n) { records++; }
        public void memoryBlock(MemoryBlock b) { records++; }
        public void residency(Residency r) { records++; }
        public void task(Task t) { records++; }
        public void taskAccess(TaskAccess a) { records++; }
        public void taskDependency(TaskDependency d) { records++; }
        public void defineTable(org.hetscope.model.TableSpec table) {}
        public void row(org.hetscope.model.TableSpec table, Object... values) { rows++; }
        public void info(String key, String value) {}
        public void skipped(org.hetscope.model.SkipReason reason, String detail, String where, long count) {
            System.err.println("skipped " + count + " x " + reason.id() + (detail == null ? "" : ": " + detail)
                    + " @ " + where);
        }
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[1]);
        double mb = Files.size(file) / 1e6;
        long t0 = System.nanoTime();
        if (args[0].equals("model")) {
            CountingSink s = new CountingSink();
            new PajeFormat().read(file, s, Progress.NONE);
            double sec = (System.nanoTime() - t0) / 1e9;
            System.out.printf("model: %.1f MB in %.2f s = %.1f MB/s; %d records, %d extra-table rows%n", mb, sec,
                    mb / sec, s.records, s.rows);
        } else {
            Path store = Path.of(args.length > 2 ? args[2] : file + ".hets");
            Files.deleteIfExists(store);
            StoreWriter w = StoreWriter.create(store);
            new PajeFormat().read(file, w, Progress.NONE);
            w.commit();
            double sec = (System.nanoTime() - t0) / 1e9;
            System.out.printf("import: %.1f MB in %.2f s = %.1f MB/s; store %.1f MB%n", mb, sec, mb / sec,
                    Files.size(store) / 1e6);
        }
    }
}
