import java.nio.file.Path;
import java.util.*;
import org.hetscope.store.Store;
import org.hetscope.web.TraceView;

/**
 * Times TraceView.window (in process, no HTTP) for medium windows of 48 tracks at 1,920 px, 10 per width from span/2
 * to span/64, once per budget of the finer cache level held in memory (0: read from the cache file). Tracks are a
 * fixed screenful (zooming in and out over the same tracks) or a random run each time.
 * Usage (classpath as bench/web/run.sh builds it): java -Xmx6g -cp CP bench/web/MediumZoomProbe.java STORE fixed|random 0,16000000
 */
public class MediumZoomProbe {
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
            SplittableRandom r = new SplittableRandom(5);
            Map<Integer, List<Double>> ms = new TreeMap<>();
            List<Long> fixed = tr.subList(100, 148);
            for (int i = 0; i < 60; i++) {
                int sh = 1 + (i % 6);
                long w = span >> sh;
                long t0 = r.nextLong(span - w);
                int from = r.nextInt(tr.size() - 48);
                List<Long> ids = randomTracks ? tr.subList(from, from + 48) : fixed;
                long s = System.nanoTime();
                v.window(ids, t0, t0 + w, 1920, null);
                ms.computeIfAbsent(sh, k -> new ArrayList<>()).add((System.nanoTime() - s) / 1e6);
            }
            for (var e : ms.entrySet()) {
                List<Double> l = e.getValue();
                System.out.printf("span/%d: %s%n", 1 << e.getKey(), l.stream().map(x -> String.format("%.0f", x)).toList());
            }
            v.close();
        }
    }
}
