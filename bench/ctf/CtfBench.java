import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hetscope.formats.ctf.CtfTrace;
import org.hetscope.formats.ctf.mapping.CtfTraceFormat;
import org.hetscope.model.Progress;
import org.hetscope.store.StoreWriter;

/**
 * Times hetscope on a CTF trace: {@code count} decodes every field of every event (as {@code hetscope ctf count}),
 * {@code import} writes the model into a store file (as {@code hetscope import}). Prints one line:
 * mode, events, seconds, events/s, peak heap MiB. {@code bench/ctf/run.sh} times the commands themselves; this
 * driver stays for the splits they do not give ({@code map}: decode and mapping without a store; the decoder's
 * heap). Run it on the built jar: {@code java -cp cli/target/hetscope.jar bench/ctf/CtfBench.java map DIR}.
 */
public class CtfBench {
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path trace = Path.of(args[1]);
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : Runtime.getRuntime().availableProcessors();
        long t0 = System.nanoTime();
        long events;
        if (mode.equals("count")) {
            try (CtfTrace t = CtfTrace.open(trace)) {
                events = t.count(threads).stream().mapToLong(CtfTrace.ClassCount::events).sum();
            }
        } else if (mode.equals("map")) {
            // the model mapping without a store: records are built and dropped
            CtfTraceFormat format = new CtfTraceFormat();
            format.read(trace, new DroppingSink(), Progress.NONE);
            events = format.events();
        } else {
            Path out = Files.createTempFile("ctf-bench-", ".duckdb");
            Files.deleteIfExists(out);
            StoreWriter w = StoreWriter.create(out);
            CtfTraceFormat format = new CtfTraceFormat();
            format.read(trace, w, Progress.NONE);
            long t1 = System.nanoTime();
            w.commit();
            System.err.printf("read %.3f s, commit %.3f s%n", (t1 - t0) / 1e9, (System.nanoTime() - t1) / 1e9);
            events = format.events();
            Files.deleteIfExists(out);
        }
        double s = (System.nanoTime() - t0) / 1e9;
        long peak = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                peak += p.getPeakUsage().getUsed();
            }
        }
        System.out.printf("%s %d %.3f %.0f %.1f%n", mode, events, s, events / s, peak / 1048576.0);
    }

    /** A sink that hands out ids and drops every record. */
    static final class DroppingSink implements org.hetscope.model.TraceSink {
        private final long[] ids = new long[org.hetscope.model.Entity.values().length];

        @Override public long newId(org.hetscope.model.Entity e) { return ++ids[e.ordinal()]; }
        @Override public void process(org.hetscope.model.TraceProcess p) {}
        @Override public void thread(org.hetscope.model.TraceThread t) {}
        @Override public void device(org.hetscope.model.Device d) {}
        @Override public void track(org.hetscope.model.Track t) {}
        @Override public void slice(org.hetscope.model.Slice s) {}
        @Override public void instant(org.hetscope.model.Instant i) {}
        @Override public void counter(org.hetscope.model.CounterSample c) {}
        @Override public void flow(org.hetscope.model.Flow f) {}
        @Override public void kernel(org.hetscope.model.KernelLaunch k) {}
        @Override public void kernelCounter(org.hetscope.model.KernelCounter c) {}
        @Override public void transfer(org.hetscope.model.Transfer t) {}
        @Override public void memoryNode(org.hetscope.model.MemoryNode n) {}
        @Override public void memoryBlock(org.hetscope.model.MemoryBlock b) {}
        @Override public void residency(org.hetscope.model.Residency r) {}
        @Override public void task(org.hetscope.model.Task t) {}
        @Override public void taskAccess(org.hetscope.model.TaskAccess a) {}
        @Override public void taskDependency(org.hetscope.model.TaskDependency d) {}
        @Override public void defineTable(org.hetscope.model.TableSpec table) {}
        @Override public void row(org.hetscope.model.TableSpec table, Object... values) {}
        @Override public void info(String key, String value) {}
        @Override public void skipped(org.hetscope.model.SkipReason reason, String detail, String where, long count) {}
    }
}
