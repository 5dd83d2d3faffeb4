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
 * mode, events, seconds, events/s, peak heap MiB.
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
}
