import java.nio.file.Path;
import java.util.*;
import org.hetscope.store.Store;
import org.hetscope.web.TraceView;

/**
 * Times TraceView.window (in process, no HTTP) for medium windows of 48 tracks at 1,920 px, 10 per width from span/2
 * to span/64, once per budget of the finer cache level held in memory (0: read from the cache file). Tracks are a
 * fixed screenful (zooming in and out over the same tracks) or a random run each time.
 * With -Dprobe.held=true the single slices are held in memory first, as a server holds them (ResidentSlices).
 * Usage (classpath as bench/web/run.sh builds it): java -Xmx6g -cp CP bench/web/MediumZoomProbe.java STORE fixed|random 0,16000000
 */
public class MediumZoomProbe {
    static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();
    public static void main(String[] a) throws Exception {
        Path file = Path.of(a[0]);
        boolean randomTracks = a[1].equals("random");
        for (String fine : a[2].split(",")) {
            System.setProperty("hetscope.web.residentFineRows", fine);
            long t = System.nanoTime();
            TraceView v = new TraceView("p", Store.open(file));
            System.out.printf("fineRows=%s open %.0f ms%n", fine, (System.nanoTime() - t) / 1e6);
            List<Long> tr = v.tracks().stream().filter(x -> x.slices() > 0).map(TraceView.TrackInfo::id).toList();
            long span = v.span();
            if (Boolean.getBoolean("probe.held")) {
                // as a server does: single slices held in memory, loaded in the background after the first window
                v.holdSlicesInMemory();
                v.window(tr.subList(0, 48), 0, span, 1920, null);
                long h = System.nanoTime();
                v.awaitSlicesInMemory(600_000);
                System.out.printf("%,d slices held in %.1f s%n", v.slicesInMemory(), (System.nanoTime() - h) / 1e9);
            }
            SplittableRandom r = new SplittableRandom(5);
            Map<Integer, List<Double>> ms = new TreeMap<>();
            Map<Integer, List<String>> json = new TreeMap<>();
            Map<Integer, List<Double>> cpu = new TreeMap<>();
            List<Long> fixed = tr.subList(100, 148);
            for (int i = 0; i < 60; i++) {
                int sh = 1 + (i % 6);
                long w = span >> sh;
                long t0 = r.nextLong(span - w);
                int from = r.nextInt(tr.size() - 48);
                List<Long> ids = randomTracks ? tr.subList(from, from + 48) : fixed;
                long s = System.nanoTime();
                long c = CPU.getCurrentThreadCpuTime();
                var answer = v.window(ids, t0, t0 + w, 1920, null);
                long j = System.nanoTime();
                long jc = CPU.getCurrentThreadCpuTime();
                int bytes = org.hetscope.web.WindowJson.write(t0, t0 + w, 1920, answer).length;
                ms.computeIfAbsent(sh, k -> new ArrayList<>()).add((j - s) / 1e6);
                cpu.computeIfAbsent(sh, k -> new ArrayList<>()).add((jc - c) / 1e6);
                json.computeIfAbsent(sh, k -> new ArrayList<>()).add(String.format("%.0f/%dk",
                        (CPU.getCurrentThreadCpuTime() - jc) / 1e6, bytes / 1000));
            }
            for (var e : ms.entrySet()) {
                List<Double> l = e.getValue();
                System.out.printf("span/%d: wall %s ms, thread CPU %s ms; JSON thread CPU ms/size %s%n", 1 << e.getKey(),
                        l.stream().map(x -> String.format("%.0f", x)).toList(),
                        cpu.get(e.getKey()).stream().map(x -> String.format("%.0f", x)).toList(), json.get(e.getKey()));
            }
            v.close();
        }
    }
}
