import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.hetscope.store.Store;
import org.hetscope.web.AccessPolicy;
import org.hetscope.web.TraceServer;
import org.hetscope.web.TraceView;

/**
 * Latency of the window API over HTTP for a 1,920 px viewport, widest and narrow zoom, cold and warm, against a
 * baseline: a plain count/sum over the same rows in the same DuckDB (the cost of just reading them).
 *
 * cold = first request after opening the store afresh (new DuckDB instance, empty buffer pool; the OS page cache
 * is not dropped). warm = later requests with other windows and other track sets of the same zoom, once the slices
 * the server holds in memory are loaded.
 *
 * Usage: java -cp CLASSPATH WindowBench.java STORE [REPEATS] [FIRST_DRAW_SCRIPT]
 */
public class WindowBench {
    static final int PX = 1920;
    static final int VISIBLE_TRACKS = 48; // rows a 1080p screen shows at 21 px per stream row
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final StringBuilder COLD_SAMPLES = new StringBuilder();

    record Shot(long t0, long t1, List<Long> tracks) {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        long t = System.nanoTime();
        TraceView probe = new TraceView("bench", Store.open(file));
        double openMs = (System.nanoTime() - t) / 1e6;
        if (probe.levelOfDetail() != null) {
            System.out.println("zoom cache levels: " + probe.levelOfDetail().sizes());
        }
        long span = probe.span();
        List<Long> sliceTracks = probe.tracks().stream().filter(x -> x.slices() > 0).map(TraceView.TrackInfo::id)
                .toList();
        long slices = probe.tracks().stream().mapToLong(TraceView.TrackInfo::slices).sum();
        probe.close();
        System.out.printf(Locale.ROOT, "store %s: %,d slices on %d tracks, span %d ns; opening (track tree, and zoom cache when missing) %.0f ms%n",
                file, slices, sliceTracks.size(), span, openMs);
        SplittableRandom rnd = new SplittableRandom(11);
        java.util.function.Supplier<List<Long>> screen = () -> {
            int from = rnd.nextInt(Math.max(1, sliceTracks.size() - VISIBLE_TRACKS));
            return sliceTracks.subList(from, Math.min(sliceTracks.size(), from + VISIBLE_TRACKS));
        };
        java.util.function.Supplier<Shot> widest = () -> new Shot(0, span, screen.get());
        java.util.function.Supplier<Shot> narrow = () -> {
            long w = Math.max(1000, span / 1000);
            long a = rnd.nextLong(Math.max(1, span - w));
            return new Shot(a, a + w, screen.get());
        };
        // What zooming in from the whole trace goes through (span/2 to span/64): between the zoom cache's levels.
        java.util.function.Supplier<Shot> medium = () -> {
            long w = Math.max(1000, span >> (1 + rnd.nextInt(6)));
            long a = rnd.nextLong(Math.max(1, span - w));
            return new Shot(a, a + w, screen.get());
        };
        java.util.function.Supplier<Shot> widestAll = () -> new Shot(0, span, sliceTracks);

        System.out.println("| case | cold p50 | cold p95 | warm p50 | warm p95 | baseline warm p50 | warm p50 / baseline | items per response |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        // -Dbench.cases=medium runs one case
        String cases = System.getProperty("bench.cases", "widest,medium,narrow");
        if (cases.contains("widest")) {
            run("widest, " + VISIBLE_TRACKS + " visible tracks", file, widest, repeats);
        }
        if (cases.contains("medium")) {
            run("medium (span/2 to span/64), " + VISIBLE_TRACKS + " tracks", file, medium, repeats);
        }
        if (cases.contains("narrow")) {
            run("narrow (span/1000), " + VISIBLE_TRACKS + " tracks", file, narrow, repeats);
        }
        if (Boolean.getBoolean("bench.allTracks")) {
            run("widest, all " + sliceTracks.size() + " tracks", file, widestAll, Math.max(3, repeats / 20));
        }

        // The very first cold sample is also the first request this JVM serves (classes loaded, code not compiled).
        System.out.print(COLD_SAMPLES);
        System.out.print(HELD);
        if (args.length > 2) {
            firstDraw(file, Path.of(args[2]));
        }
    }

    static void run(String name, Path file, java.util.function.Supplier<Shot> shots, int repeats) throws Exception {
        int coldRuns = Math.max(3, Math.min(10, repeats / 10));
        double[] cold = new double[coldRuns];
        for (int i = 0; i < coldRuns; i++) {
            try (TraceServer s = server(file)) {
                cold[i] = request(s.port(), shots.get())[0];
            }
        }
        double[] warm = new double[repeats];
        double[] base = new double[repeats];
        long items = 0;
        try (TraceServer s = server(file)) {
            request(s.port(), shots.get());
            // Warm: after the slices that fit the budget are held in memory (loaded in the background after the
            // first window; until then windows read DuckDB as cold ones do).
            long w0 = System.nanoTime();
            lastView.awaitSlicesInMemory(600_000);
            HELD.append(String.format(Locale.ROOT, "%s: %,d slices held in memory, %.1f s after the first window%n",
                    name, lastView.slicesInMemory(), (System.nanoTime() - w0) / 1e9));
            Store raw = Store.open(file);
            for (int i = 0; i < repeats; i++) {
                Shot shot = shots.get();
                double[] r = request(s.port(), shot);
                warm[i] = r[0];
                items += (long) r[1];
                long origin = originOf(raw);
                long b0 = System.nanoTime();
                raw.query(null, "SELECT count(*), sum(dur) FROM slice WHERE track_id IN ("
                        + shot.tracks().stream().map(String::valueOf).collect(Collectors.joining(","))
                        + ") AND ts < ? AND ts + dur >= ?", origin + shot.t1(), origin + shot.t0());
                base[i] = (System.nanoTime() - b0) / 1e6;
            }
            raw.close();
        }
        System.out.printf(Locale.ROOT, "| %s | %.1f ms | %.1f ms | %.1f ms | %.1f ms | %.1f ms | %.2f | %d |%n", name,
                pct(cold, 50), pct(cold, 95), pct(warm, 50), pct(warm, 95), pct(base, 50),
                pct(warm, 50) / pct(base, 50), items / repeats);
        COLD_SAMPLES.append(String.format(Locale.ROOT, "cold samples, %s, in order: %s ms%n", name,
                Arrays.stream(cold).mapToObj(v -> String.format(Locale.ROOT, "%.1f", v))
                        .collect(Collectors.joining(", "))));
    }

    static Long origin;

    static long originOf(Store s) {
        if (origin == null) {
            origin = s.scalarLong("SELECT min(ts) FROM slice");
        }
        return origin;
    }

    static TraceView lastView;
    static final StringBuilder HELD = new StringBuilder();

    static TraceServer server(Path file) throws Exception {
        lastView = new TraceView("bench", Store.open(file));
        TraceServer s = new TraceServer(List.of(lastView), new AccessPolicy(null));
        s.start("127.0.0.1", 0);
        return s;
    }

    /** Milliseconds for one window request over HTTP, and the number of items it returned. */
    static double[] request(int port, Shot s) throws Exception {
        String uri = "http://127.0.0.1:" + port + "/api/t/0/window?t0=" + s.t0() + "&t1=" + s.t1() + "&px=" + PX
                + "&tracks=" + s.tracks().stream().map(String::valueOf).collect(Collectors.joining(","));
        long t = System.nanoTime();
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(uri)).build(),
                HttpResponse.BodyHandlers.ofString());
        double ms = (System.nanoTime() - t) / 1e6;
        if (r.statusCode() != 200) {
            throw new IllegalStateException(r.statusCode() + " " + r.body());
        }
        int items = r.body().split("\\],\\[", -1).length;
        return new double[] {ms, items};
    }

    static double pct(double[] v, double p) {
        double[] s = v.clone();
        Arrays.sort(s);
        int i = (int) Math.ceil(p / 100.0 * s.length) - 1;
        return s[Math.max(0, Math.min(s.length - 1, i))];
    }

    /** Opens the page in Chromium, then reloads it three times, and reports when the first timeline was drawn. */
    static void firstDraw(Path file, Path script) throws Exception {
        try (TraceServer s = server(file)) {
            // The page is opened once the server holds the slices in memory, as a server that has run for a
            // minute does (it starts loading them at its first window).
            request(s.port(), new Shot(0, lastView.span(), lastView.tracks().stream().filter(x -> x.slices() > 0)
                    .map(TraceView.TrackInfo::id).limit(VISIBLE_TRACKS).toList()));
            lastView.awaitSlicesInMemory(600_000);
            Process p = new ProcessBuilder("node", script.toAbsolutePath().toString(),
                    "http://127.0.0.1:" + s.port() + "/").inheritIO().start();
            if (p.waitFor() != 0) {
                System.out.println("first-draw script failed");
            }
        }
    }
}
