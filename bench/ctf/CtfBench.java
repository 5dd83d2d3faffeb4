import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hetscope.formats.ctf.CtfTrace;
import org.hetscope.formats.ctf.mapping.CtfTraceFormat;
import org.hetscope.model.Progress;
import org.hetscope.model.TraceSink;
import org.hetscope.store.StoreWriter;
import java.lang.reflect.Proxy;

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
            long[] seen = new long[1];
            // a proxy sink that notes the reader's event count on its way to the store
            TraceSink sink = (TraceSink) Proxy.newProxyInstance(TraceSink.class.getClassLoader(),
                    new Class<?>[] {TraceSink.class}, (proxy, m, a) -> {
                        if (m.getName().equals("info") && "ctf.events".equals(a[0])) {
                            seen[0] = Long.parseLong((String) a[1]);
                        }
                        try {
                            return m.invoke(w, a);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            new CtfTraceFormat().read(trace, sink, Progress.NONE);
            w.commit();
            events = seen[0];
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
