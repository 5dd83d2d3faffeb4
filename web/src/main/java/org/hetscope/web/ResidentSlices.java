package org.hetscope.web;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The single slices of tracks held in memory, one set of primitive arrays per track (24 bytes a slice), so that
 * windows too narrow for the zoom cache's buckets (medium zooms at 100M slices read up to ~300,000 slices of a
 * screenful of tracks) are answered without a query.
 *
 * <p>Loading never blocks a request: tracks are read from the cache's time-ordered copy by a background thread
 * (starting a moment after the window that asked, and between its queries waiting until no window is being
 * answered), and until a track is held its windows are read from DuckDB as before. When every slice fits the budget, all
 * tracks are loaded in one pass over the copy after the first window; otherwise the tracks asked for are loaded,
 * and the least recently used ones dropped beyond the budget. A track with a slice longer than an {@code int} of
 * nanoseconds (2.1 s) is never held. The budget bounds the slices held by all stores of a server together.
 */
final class ResidentSlices implements AutoCloseable {
    /** Bytes a held slice costs: start, duration, id, name code. */
    static final int BYTES_PER_SLICE = 8 + 4 + 8 + 4;
    /** Tracks loaded per query when loading the tracks asked for. */
    private static final int BATCH = 32;
    /** Slabs of the time-ordered copy read per query when loading every track (~1.6M slices at 100M). */
    private static final int SLABS_PER_READ = 16;

    /**
     * One track's slices sorted by lane then start; lane k holds indexes [from[k], from[k + 1]).
     *
     * @param maxDur the longest slice of each lane
     */
    record Track(int[] depths, int[] from, long[] maxDur, long[] ts, int[] dur, long[] id, int[] code) {
        int size() {
            return ts.length;
        }

        /** The first index of lane k whose start is at least t. */
        int firstAtOrAfter(int k, long t) {
            int lo = from[k];
            int hi = from[k + 1];
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (ts[mid] < t) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
    }

    /** Slices held by every instance (a server of several stores shares one heap): what the budget bounds. */
    private static final java.util.concurrent.atomic.AtomicLong HELD_EVERYWHERE =
            new java.util.concurrent.atomic.AtomicLong();

    private final LevelOfDetail lod;
    private final long budget;
    private final Map<Long, Long> slicesPerTrack;
    private final long total;
    private final LinkedHashMap<Long, Track> held = new LinkedHashMap<>(64, 0.75f, true);
    private final Set<Long> neverHeld = new HashSet<>();
    private final ArrayDeque<Long> queue = new ArrayDeque<>();
    private final Set<Long> queued = new HashSet<>();
    private long slicesHeld;
    private boolean loadAll;
    private boolean allLoaded;
    private Thread loader;
    private volatile boolean closed;
    private volatile boolean enabled;

    /**
     * @param budget most slices held at once; 0 holds none
     * @param slicesPerTrack slice count of every track that has slices
     */
    ResidentSlices(LevelOfDetail lod, long budget, Map<Long, Long> slicesPerTrack) {
        this.lod = lod;
        this.budget = Math.max(0, budget);
        this.slicesPerTrack = slicesPerTrack;
        this.total = slicesPerTrack.values().stream().mapToLong(Long::longValue).sum();
        this.loadAll = budget > 0 && total <= budget;
    }

    /**
     * The default budget, {@code hetscope.web.residentSlices}, else a quarter of the heap: with the launcher's
     * heap of half the machine's memory, 100M slices (2.4 GB) are held on a machine of 20 GB or more.
     */
    static long defaultBudget() {
        long configured = Long.getLong("hetscope.web.residentSlices", -1);
        return configured >= 0 ? configured : Runtime.getRuntime().maxMemory() / 4 / BYTES_PER_SLICE;
    }

    /**
     * Lets windows load and use held slices. Only a server enables it: a report or plot asks for a few windows
     * and would pay for loading slices it never reads again.
     */
    void enable() {
        enabled = true;
    }

    /**
     * The held tracks among these; the others are queued for loading (unless every track is being loaded anyway).
     */
    synchronized Map<Long, Track> take(List<Long> trackIds) {
        if (budget == 0 || closed || !enabled) {
            return Map.of();
        }
        Map<Long, Track> out = new HashMap<>();
        boolean wanted = false;
        for (Long id : trackIds) {
            Track t = held.get(id);
            if (t != null) {
                out.put(id, t);
            } else if (!loadAll && !neverHeld.contains(id) && queued.add(id)) {
                // Asked for now: ahead of tracks asked for earlier.
                queue.addFirst(id);
                wanted = true;
            }
        }
        if (wanted || (loadAll && !allLoaded)) {
            startLoader();
        }
        return out;
    }

    synchronized long slicesHeld() {
        return slicesHeld;
    }

    /** Waits until the background loader has nothing left to do (for benchmarks and tests). */
    void awaitLoaded(long timeoutMs) throws InterruptedException {
        long until = System.currentTimeMillis() + timeoutMs;
        synchronized (this) {
            while (loader != null && !closed && System.currentTimeMillis() < until) {
                wait(Math.max(1, until - System.currentTimeMillis()));
            }
        }
    }

    private void startLoader() {
        if (loader == null) {
            loader = Thread.ofPlatform().daemon().name("hetscope-resident-slices").start(this::load);
        }
    }

    /** The loader waits this long after being asked, so that the request that asked is answered first. */
    private static final long START_DELAY_MS = 250;
    /** Between its queries the loader waits until no window has been asked for during this long. */
    private static final long QUIET_NS = 50_000_000;

    /** Windows being answered now, and when the last one ended: the loader yields to them. */
    private final java.util.concurrent.atomic.AtomicInteger answering = new java.util.concurrent.atomic.AtomicInteger();
    private volatile long lastAnswered = System.nanoTime();

    /** A window is being answered (its DuckDB reads must not share the cores with the loader's). */
    void answering() {
        answering.incrementAndGet();
    }

    void answered() {
        lastAnswered = System.nanoTime();
        answering.decrementAndGet();
    }

    /** Waits until no window is being answered and none was for {@link #QUIET_NS}. */
    private void yieldToWindows() throws InterruptedException {
        while (!closed && (answering.get() > 0 || System.nanoTime() - lastAnswered < QUIET_NS)) {
            Thread.sleep(10);
        }
    }

    private void load() {
        try {
            Thread.sleep(START_DELAY_MS);
            loadQueued();
        } catch (InterruptedException e) {
            // closing
        } catch (SQLException | RuntimeException e) {
            if (!closed) {
                System.err.println("hetscope: cannot hold slices in memory (" + e.getMessage()
                        + "); windows read them from the zoom cache");
            }
        } finally {
            synchronized (this) {
                loader = null;
                if (!queue.isEmpty() && !closed) {
                    startLoader();
                }
                notifyAll();
            }
        }
    }

    private void loadQueued() throws SQLException, InterruptedException {
        try (Connection c = lod.newConnection()) {
            boolean all;
            synchronized (this) {
                all = loadAll && !allLoaded;
            }
            if (all) {
                loadEveryTrack(c);
            }
            while (true) {
                List<Long> batch = new ArrayList<>();
                synchronized (this) {
                    while (!queue.isEmpty() && batch.size() < BATCH && !closed) {
                        batch.add(queue.pollFirst());
                    }
                    if (batch.isEmpty()) {
                        return;
                    }
                }
                yieldToWindows();
                Columns rows = Columns.read(c, "SELECT track_id, depth, id, ts, dur, code FROM lod_slices WHERE "
                        + SliceWindow.tracksWhere(batch));
                Map<Long, Builder> built = new HashMap<>();
                for (Long id : batch) {
                    built.put(id, new Builder(slicesPerTrack.getOrDefault(id, 0L)));
                }
                add(built, rows);
                synchronized (this) {
                    for (Long id : batch) {
                        queued.remove(id);
                    }
                    publish(built, batch);
                }
            }
        }
    }

    /** One pass over the time-ordered copy, a few slabs per query, then every track published at once. */
    private void loadEveryTrack(Connection c) throws InterruptedException {
        // The arrays (2.8 GB at 100M slices) are allocated and zeroed only once no window is being answered.
        yieldToWindows();
        synchronized (this) {
            if (HELD_EVERYWHERE.get() + total > budget) {
                // Other stores of this server hold slices already: load the tracks asked for instead.
                loadAll = false;
                return;
            }
        }
        Map<Long, Builder> built = new HashMap<>();
        for (Map.Entry<Long, Long> e : slicesPerTrack.entrySet()) {
            built.put(e.getKey(), new Builder(e.getValue()));
        }
        for (long s0 = 0; s0 < lod.slabs(); s0 += SLABS_PER_READ) {
            yieldToWindows();
            if (closed) {
                return;
            }
            add(built, Columns.read(c, "SELECT track_id, depth, id, ts, dur, code FROM lod_slices WHERE s BETWEEN "
                    + s0 + " AND " + (s0 + SLABS_PER_READ - 1)));
        }
        synchronized (this) {
            publish(built, built.keySet().stream().sorted().toList());
            allLoaded = true;
        }
    }

    /** Appends rows (track_id, depth, id, ts, dur, code; each track's rows in time order) to their builders. */
    private static void add(Map<Long, Builder> built, Columns rows) {
        long[] track = rows.longs(0);
        long[] depth = rows.longs(1);
        long[] id = rows.longs(2);
        long[] ts = rows.longs(3);
        long[] dur = rows.longs(4);
        long[] code = rows.longs(5);
        Builder b = null;
        long bTrack = Long.MIN_VALUE;
        for (int i = 0; i < rows.rows(); i++) {
            if (b == null || track[i] != bTrack) {
                bTrack = track[i];
                b = built.get(bTrack);
            }
            if (b != null) {
                b.add(depth[i], id[i], ts[i], dur[i], code[i]);
            }
        }
    }

    private void publish(Map<Long, Builder> built, List<Long> order) {
        if (closed) {
            return;
        }
        for (Long id : order) {
            Builder b = built.get(id);
            Track t = b == null ? null : b.build();
            if (t == null || t.size() > budget) {
                neverHeld.add(id);
                continue;
            }
            Track previous = held.put(id, t);
            long added = t.size() - (previous == null ? 0 : previous.size());
            slicesHeld += added;
            HELD_EVERYWHERE.addAndGet(added);
        }
        var it = held.entrySet().iterator();
        while (HELD_EVERYWHERE.get() > budget && it.hasNext()) {
            Map.Entry<Long, Track> e = it.next();
            slicesHeld -= e.getValue().size();
            HELD_EVERYWHERE.addAndGet(-e.getValue().size());
            it.remove();
        }
    }

    /** A track's slices as they arrive, in time order per lane; checked and sorted by lane when built. */
    private static final class Builder {
        long[] ts;
        int[] dur;
        long[] id;
        int[] code;
        int[] depth;
        int n;
        boolean fits = true;

        Builder(long expected) {
            int cap = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(16, expected));
            ts = new long[cap];
            dur = new int[cap];
            id = new long[cap];
            code = new int[cap];
            depth = new int[cap];
        }

        void add(long depthValue, long idValue, long tsValue, long durValue, long codeValue) {
            if (!fits) {
                return;
            }
            if (durValue > Integer.MAX_VALUE || durValue < 0 || depthValue > Integer.MAX_VALUE
                    || codeValue > Integer.MAX_VALUE) {
                fits = false;
                ts = null;
                dur = null;
                id = null;
                code = null;
                depth = null;
                return;
            }
            if (n == ts.length) {
                int cap = (int) Math.min(Integer.MAX_VALUE - 16, 2L * n);
                ts = Arrays.copyOf(ts, cap);
                dur = Arrays.copyOf(dur, cap);
                id = Arrays.copyOf(id, cap);
                code = Arrays.copyOf(code, cap);
                depth = Arrays.copyOf(depth, cap);
            }
            ts[n] = tsValue;
            dur[n] = (int) durValue;
            id[n] = idValue;
            code[n] = (int) codeValue;
            depth[n] = (int) depthValue;
            n++;
        }

        Track build() {
            if (!fits) {
                return null;
            }
            // Stable order by (lane, start): a permutation sorted by lane, start and arrival.
            boolean ordered = true;
            for (int i = 1; i < n && ordered; i++) {
                ordered = depth[i - 1] < depth[i] || (depth[i - 1] == depth[i] && ts[i - 1] <= ts[i]);
            }
            long[] outTs = ts;
            int[] outDur = dur;
            long[] outId = id;
            int[] outCode = code;
            int[] outDepth = depth;
            if (!ordered) {
                Integer[] perm = new Integer[n];
                for (int i = 0; i < n; i++) {
                    perm[i] = i;
                }
                Arrays.sort(perm, (x, y) -> depth[x] != depth[y] ? Integer.compare(depth[x], depth[y])
                        : ts[x] != ts[y] ? Long.compare(ts[x], ts[y]) : Integer.compare(x, y));
                outTs = new long[n];
                outDur = new int[n];
                outId = new long[n];
                outCode = new int[n];
                outDepth = new int[n];
                for (int i = 0; i < n; i++) {
                    int p = perm[i];
                    outTs[i] = ts[p];
                    outDur[i] = dur[p];
                    outId[i] = id[p];
                    outCode[i] = code[p];
                    outDepth[i] = depth[p];
                }
            } else if (n != ts.length) {
                outTs = Arrays.copyOf(ts, n);
                outDur = Arrays.copyOf(dur, n);
                outId = Arrays.copyOf(id, n);
                outCode = Arrays.copyOf(code, n);
            }
            int lanes = 0;
            for (int i = 0; i < n; i++) {
                if (i == 0 || outDepth[i] != outDepth[i - 1]) {
                    lanes++;
                }
            }
            int[] depths = new int[lanes];
            int[] from = new int[lanes + 1];
            long[] maxDur = new long[lanes];
            int k = -1;
            for (int i = 0; i < n; i++) {
                if (i == 0 || outDepth[i] != outDepth[i - 1]) {
                    k++;
                    depths[k] = outDepth[i];
                    from[k] = i;
                }
                maxDur[k] = Math.max(maxDur[k], outDur[i]);
            }
            from[lanes] = n;
            ts = null;
            depth = null;
            return new Track(depths, from, maxDur, outTs, outDur, outId, outCode);
        }
    }

    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            closed = true;
            queue.clear();
            held.clear();
            HELD_EVERYWHERE.addAndGet(-slicesHeld);
            slicesHeld = 0;
            t = loader;
            notifyAll();
        }
        if (t != null) {
            t.interrupt();
            try {
                // The loader stops after its current query (a few slabs or one batch of tracks).
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
