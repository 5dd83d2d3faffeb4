package org.hetscope.web;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.hetscope.formats.paje.PajeTables;
import org.hetscope.store.Store;
import org.hetscope.store.TableRow;
import org.hetscope.store.Table;

/**
 * The read side of the web timeline for one store: track tree, aggregated windows, flows, counters and the details
 * of one slice. Times going out are nanoseconds relative to the trace origin (the earliest event), so that the
 * browser's doubles hold them exactly; the origin itself goes out as text.
 *
 * <p>DuckDB connections are not meant for concurrent statements, so queries on one connection are serialised:
 * windows and flows on a connection of their own, everything else on the store's.
 */
public final class TraceView implements AutoCloseable {
    /** Caps that keep one request cheap; larger asks are refused with a message, not truncated silently. */
    public static final int MAX_PIXELS = 16_384;
    public static final int MAX_TRACKS_PER_REQUEST = 5_000;
    public static final int MAX_FLOWS = 5_000;

    private final String name;
    private final Store store;
    private final long origin;
    private final long end;
    private final List<TrackInfo> tracks;
    private final Map<Long, TrackInfo> trackById;
    /** The row each slice is drawn in (sub-lanes on device tracks, as the CLI's lane tree). */
    private final DrawnLanes drawn;

    /** A node of the track tree with what the page needs to lay it out. */
    public record TrackInfo(long id, Long parentId, String kind, String name, int sortIndex, String unit,
                            Long deviceId, Long processId, Long threadId, Long stream, long slices, int lanes,
                            long counterSamples, long instants) {
    }

    /**
     * Stores with at least this many slices get a zoom cache ({@link LevelOfDetail}). Without it the whole-trace
     * window groups every slice of the visible tracks in DuckDB: ~50,000 rows already take longer than a 50 ms
     * redraw, while building the cache for a store this small takes well under a second.
     */
    public static final long LOD_MIN_SLICES = Long.getLong("hetscope.web.lodMinSlices", 100_000L);

    private final LevelOfDetail lod;
    /** {@link #declaredColours()}: the store does not change while it is served. */
    private final Map<String, String> declaredColours;
    /**
     * Whether the store has any flow: without, the flows the page asks for with every window are answered without a
     * query (which would wait for the window's lock).
     */
    private final boolean anyFlows;
    private final SliceWindow slices;
    /** Single slices held in memory, or null without a zoom cache. */
    private final ResidentSlices held;
    /** A second connection to the store for windows and flows, so that they never queue behind other queries. */
    private final java.sql.Connection windowConnection;

    public TraceView(String name, Store store) {
        this(name, store, LOD_MIN_SLICES);
    }

    /** @param lodMinSlices the slice count from which zoomed-out windows read a pre-aggregated cache */
    public TraceView(String name, Store store, long lodMinSlices) {
        this(name, store, lodMinSlices, LevelOfDetail.DEFAULT, ResidentLevel.defaultBudgetRows(),
                ResidentLevel.defaultFineBudgetRows(), ResidentSlices.defaultBudget());
    }

    /** As below, with the finer levels read from the cache file. */
    TraceView(String name, Store store, long lodMinSlices, LevelOfDetail.Settings lodSettings, long residentRows) {
        this(name, store, lodMinSlices, lodSettings, residentRows, 0);
    }

    /**
     * @param lodSettings how the zoom cache is cut
     * @param residentRows most rows of the cache's coarsest level held in memory
     * @param residentFineRows most rows of each finer level held in memory; 0: read them from the cache file
     */
    TraceView(String name, Store store, long lodMinSlices, LevelOfDetail.Settings lodSettings, long residentRows,
              long residentFineRows) {
        this(name, store, lodMinSlices, lodSettings, residentRows, residentFineRows, 0);
    }

    /**
     * @param residentSlices most single slices held in memory once {@link #holdSlicesInMemory} is called
     *     ({@link ResidentSlices}); 0: none
     */
    TraceView(String name, Store store, long lodMinSlices, LevelOfDetail.Settings lodSettings, long residentRows,
              long residentFineRows, long residentSlices) {
        this.name = name;
        this.store = store;
        // The trace's bounds as the standard library defines them (docs/stdlib.md), as info and the report show.
        Table bounds = store.query(null, "SELECT start_ns, end_ns FROM hs_trace_bounds");
        Object[] b = bounds.rows().get(0);
        this.origin = b[0] == null ? 0 : (Long) b[0];
        this.end = b[1] == null ? 0 : (Long) b[1];
        List<TrackInfo> loaded = loadTracks();
        Map<Long, String> kinds = new HashMap<>();
        for (TrackInfo t : loaded) {
            // With every depth 0 no two slices of a track overlap: each sub-lane is 0 too, nothing to place.
            if (t.lanes() > 1) {
                kinds.put(t.id(), t.kind());
            }
        }
        this.drawn = DrawnLanes.compute(store.connection(), kinds);
        // A sub-laned track has as many rows as its sub-lanes, whatever its deepest nesting.
        this.tracks = loaded.stream().map(t -> drawn.rows(t.id()) == null || t.slices() == 0 ? t
                : new TrackInfo(t.id(), t.parentId(), t.kind(), t.name(), t.sortIndex(), t.unit(), t.deviceId(),
                        t.processId(), t.threadId(), t.stream(), t.slices(), drawn.rows(t.id()),
                        t.counterSamples(), t.instants())).toList();
        this.trackById = tracks.stream().collect(Collectors.toMap(TrackInfo::id, t -> t, (a, c) -> a,
                LinkedHashMap::new));
        Map<Long, Long> perTrack = new HashMap<>();
        for (TrackInfo t : tracks) {
            if (t.slices() > 0) {
                perTrack.put(t.id(), t.slices());
            }
        }
        long slices = perTrack.values().stream().mapToLong(Long::longValue).sum();
        LevelOfDetail cache = null;
        List<ResidentLevel> inMemory = new ArrayList<>();
        if (slices > 0 && slices >= lodMinSlices) {
            try {
                cache = LevelOfDetail.open(store.file(), origin, span(), slices, perTrack.size(), lodSettings,
                        drawn);
                ResidentLevel coarse = new ResidentLevel(cache, residentRows);
                coarse.preload(perTrack.keySet().stream().sorted().toList());
                inMemory.add(coarse);
                // Finer levels, when given a budget, load the tracks asked for on first use (a medium zoom reads
                // most of a track's buckets, slow to read from the cache file again and again).
                for (LevelOfDetail.Level l : cache.levels()) {
                    if (residentFineRows > 0 && !l.equals(coarse.level())) {
                        inMemory.add(new ResidentLevel(cache, l, residentFineRows));
                    }
                }
            } catch (IOException e) {
                System.err.println("hetscope: " + e.getMessage() + "; zoomed-out views read the store directly");
            }
        }
        this.lod = cache;
        // Read once: the page asks for them before its first draw, and under the view's lock that request would
        // wait for the previous page's statistics queries (seconds on a reload of a large store).
        this.declaredColours = readDeclaredColours();
        Long flowCount = store.scalarLong("SELECT count(*) FROM (SELECT 1 FROM flow LIMIT 1)");
        this.anyFlows = flowCount == null || flowCount > 0;
        this.windowConnection = store.newConnection();
        if (drawn.any()) {
            try {
                drawn.write(windowConnection, DrawnLanes.TABLE, true);
            } catch (java.sql.SQLException e) {
                throw new org.hetscope.store.StoreException("cannot keep the sub-lanes: " + e.getMessage(), e);
            }
        }
        this.held = cache == null ? null : new ResidentSlices(cache, residentSlices, perTrack);
        this.slices = new SliceWindow(windowConnection, origin, cache, inMemory, held, perTrack,
                drawn.slicesAsDrawn("slice", DrawnLanes.TABLE));
    }

    /**
     * Lets this view hold the single slices of the tracks it is asked for in memory, loaded in the background
     * (all of them when they fit the budget); a server calls it, a one-off report does not.
     */
    public void holdSlicesInMemory() {
        if (held != null) {
            held.enable();
        }
    }

    /** Waits until the slices being loaded into memory are held (benchmarks, tests). */
    public void awaitSlicesInMemory(long timeoutMs) throws InterruptedException {
        if (held != null) {
            held.awaitLoaded(timeoutMs);
        }
    }

    /** Single slices held in memory now. */
    public long slicesInMemory() {
        return held == null ? 0 : held.slicesHeld();
    }

    /** Rows of a cache level held in memory now (0 when that level is read from the cache file). */
    long rowsInMemory(LevelOfDetail.Level level) {
        return slices.rowsInMemory(level);
    }

    /** The zoom cache, or null when the store is small or the cache could not be built. */
    public LevelOfDetail levelOfDetail() {
        return lod;
    }

    private List<TrackInfo> loadTracks() {
        Table t = store.query(null, """
                SELECT t.id, t.parent_id, t.kind, t.name, t.sort_index, t.unit, t.device_id, t.process_id,
                       t.thread_id, t.stream, coalesce(s.n, 0), coalesce(s.lanes, 0), coalesce(c.n, 0),
                       coalesce(i.n, 0)
                FROM track t
                LEFT JOIN (SELECT track_id, count(*) n, max(depth) + 1 lanes FROM slice GROUP BY track_id) s
                  ON s.track_id = t.id
                LEFT JOIN (SELECT track_id, count(*) n FROM counter GROUP BY track_id) c ON c.track_id = t.id
                LEFT JOIN (SELECT track_id, count(*) n FROM instant GROUP BY track_id) i ON i.track_id = t.id
                ORDER BY t.sort_index, t.id""");
        List<TrackInfo> out = new ArrayList<>();
        for (Object[] r : t.rows()) {
            out.add(new TrackInfo((Long) r[0], (Long) r[1], (String) r[2], (String) r[3],
                    r[4] == null ? 0 : ((Long) r[4]).intValue(), (String) r[5], (Long) r[6], (Long) r[7],
                    (Long) r[8], (Long) r[9], (Long) r[10], ((Long) r[11]).intValue(), (Long) r[12], (Long) r[13]));
        }
        return out;
    }

    public String name() {
        return name;
    }

    public Store store() {
        return store;
    }

    /** The earliest event time (absolute ns); all times the API returns are relative to it. */
    public long origin() {
        return origin;
    }

    /** The length of the trace from its origin to its last event end. */
    public long span() {
        return Math.max(1, end - origin);
    }

    public List<TrackInfo> tracks() {
        return tracks;
    }

    /** The tracks in the order of the track tree: each parent followed by its children (depth first). */
    public List<TrackInfo> treeOrder() {
        Map<Long, List<TrackInfo>> children = new LinkedHashMap<>();
        List<TrackInfo> roots = new ArrayList<>();
        for (TrackInfo t : tracks) {
            if (t.parentId() != null && trackById.containsKey(t.parentId())) {
                children.computeIfAbsent(t.parentId(), k -> new ArrayList<>()).add(t);
            } else {
                roots.add(t);
            }
        }
        List<TrackInfo> out = new ArrayList<>(tracks.size());
        java.util.ArrayDeque<TrackInfo> stack = new java.util.ArrayDeque<>();
        for (int i = roots.size() - 1; i >= 0; i--) {
            stack.push(roots.get(i));
        }
        while (!stack.isEmpty()) {
            TrackInfo t = stack.pop();
            out.add(t);
            List<TrackInfo> kids = children.getOrDefault(t.id(), List.of());
            for (int i = kids.size() - 1; i >= 0; i--) {
                stack.push(kids.get(i));
            }
        }
        return out;
    }

    public TrackInfo track(long id) {
        return trackById.get(id);
    }

    /**
     * The slices of the given tracks in [t0, t1) aggregated to at most {@code pixels} items per track.
     *
     * @param t0 window start relative to the origin
     * @param t1 window end relative to the origin
     * @param highlight a slice name whose occurrences are counted per item, or null
     */
    public Map<Long, List<WindowItem>> window(List<Long> trackIds, long t0, long t1, int pixels, String highlight) {
        checkWindow(t0, t1, pixels);
        checkTracks(trackIds);
        // Not under this view's lock: a window must not wait for a statistics query of the same page.
        synchronized (slices) {
            return slices.window(trackIds, t0, t1, pixels, highlight);
        }
    }

    /**
     * Instant events of the tracks in the window, at most one per pixel column and track: the first instant of
     * each column with how many share it, as {@code [ts, count, id, name]} (ts relative to the origin).
     */
    public synchronized Map<String, Object> instants(List<Long> trackIds, long t0, long t1, int pixels) {
        checkWindow(t0, t1, pixels);
        checkTracks(trackIds);
        Map<String, Object> out = new LinkedHashMap<>();
        List<Map<String, Object>> perTrack = new ArrayList<>();
        out.put("t0", t0);
        out.put("t1", t1);
        out.put("px", pixels);
        out.put("tracks", perTrack);
        if (trackIds.isEmpty()) {
            return out;
        }
        long a = origin + t0;
        long b = origin + t1;
        Table t = store.query(null, "SELECT track_id, min(ts), count(*), arg_min(id, ts), arg_min(name, ts), arg_min(category, ts) "
                + "FROM instant WHERE track_id IN (" + idList(trackIds) + ") AND ts >= ? AND ts <= ? "
                // The window's end is included: a trace often ends on an instant (Kineto's "Record Window End").
                + "GROUP BY track_id, least(CAST(floor(CAST(ts - ? AS DOUBLE) * ? / ?) AS BIGINT), ?) ORDER BY 1, 2",
                a, b, a, (long) pixels, t1 - t0, (long) pixels - 1);
        Map<Long, List<Object[]>> byTrack = new LinkedHashMap<>();
        for (Object[] r : t.rows()) {
            byTrack.computeIfAbsent((Long) r[0], k -> new ArrayList<>())
                    .add(new Object[] {(Long) r[1] - origin, r[2], r[3], r[4], r[5]});
        }
        byTrack.forEach((track, items) -> perTrack.add(Map.of("track", track, "items", items)));
        return out;
    }

    /** One instant event's row, its time relative to the origin and its track's name. */
    public synchronized Map<String, Object> instant(long id) {
        Table t = store.query(null, "SELECT id, track_id, ts, name, category, source_category, args "
                + "FROM instant WHERE id = ?", id);
        if (t.size() == 0) {
            throw new BadQueryException("no instant with id " + id);
        }
        Map<String, Object> out = firstRow(t);
        long ts = (Long) out.get("ts");
        out.put("ts", ts - origin);
        out.put("absolute_ts", Long.toString(ts));
        TrackInfo track = trackById.get((Long) out.get("track_id"));
        out.put("track_name", track == null ? null : track.name());
        return out;
    }

    /**
     * Colours the trace itself declares for entity values (Paje's {@code "r g b"} in 0..1), as CSS colours by value
     * name. Empty for traces without them.
     */
    public Map<String, String> declaredColours() {
        return declaredColours;
    }

    private Map<String, String> readDeclaredColours() {
        Map<String, String> out = new LinkedHashMap<>();
        // A name can be declared under several types (StarPU repeats each codelet per scheduling context, all in
        // one colour): the declaration whose alias is the name itself is the value's own (StarPU's worker state).
        PajeTables.EntityValue v = PajeTables.ENTITY_VALUE;
        for (TableRow r : store.rows(v, "WHERE color IS NOT NULL ORDER BY alias = name DESC, type, alias")) {
            String css = cssColour(r.get(v.color));
            if (r.get(v.name) != null && css != null) {
                out.putIfAbsent(r.get(v.name), css);
            }
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    /** {@code "0.0 .7 1.0"} -> {@code rgb(0, 179, 255)}; null when not three numbers in 0..1. */
    static String cssColour(String paje) {
        String[] p = paje.trim().replace("\"", "").split("[\\s,]+");
        if (p.length != 3) {
            return null;
        }
        int[] c = new int[3];
        for (int i = 0; i < 3; i++) {
            double v;
            try {
                v = Double.parseDouble(p[i]);
            } catch (NumberFormatException e) {
                return null;
            }
            if (!(v >= 0 && v <= 1)) {
                return null;
            }
            c[i] = (int) Math.round(v * 255);
        }
        return "rgb(" + c[0] + ", " + c[1] + ", " + c[2] + ")";
    }

    /** Counter samples of one track in the window, at most one min/max/last group per pixel. */
    public synchronized Map<String, Object> counter(long trackId, long t0, long t1, int pixels) {
        checkWindow(t0, t1, pixels);
        checkTracks(List.of(trackId));
        long a = origin + t0;
        long b = origin + t1;
        long span = t1 - t0;
        Long before = null;
        Double beforeValue = null;
        Table prev = store.query(null, "SELECT ts, value FROM counter WHERE track_id = ? AND ts < ? "
                + "ORDER BY ts DESC LIMIT 1", trackId, a);
        if (prev.size() == 1) {
            before = (Long) prev.rows().get(0)[0] - origin;
            beforeValue = (Double) prev.rows().get(0)[1];
        }
        Table t = store.query(null, """
                SELECT min(ts), min(value), max(value), arg_max(value, ts), arg_min(value, ts), count(*)
                FROM counter WHERE track_id = ? AND ts >= ? AND ts < ?
                GROUP BY CAST(floor(CAST(ts - ? AS DOUBLE) * ? / ?) AS BIGINT) ORDER BY 1""",
                trackId, a, b, a, (long) pixels, span);
        List<Object[]> points = new ArrayList<>();
        for (Object[] r : t.rows()) {
            points.add(new Object[] {(Long) r[0] - origin, r[4], r[1], r[2], r[3], r[5]});
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("track", trackId);
        out.put("before", before == null ? null : new Object[] {before, beforeValue});
        out.put("columns", List.of("ts", "first", "min", "max", "last", "count"));
        out.put("points", points);
        Table range = store.query(null, "SELECT min(value), max(value) FROM counter WHERE track_id = ?", trackId);
        out.put("min", range.rows().get(0)[0]);
        out.put("max", range.rows().get(0)[1]);
        return out;
    }

    /** Flows with at least one end in the window, capped at {@link #MAX_FLOWS}. */
    public Map<String, Object> flows(long t0, long t1) {
        checkWindow(t0, t1, 1);
        if (!anyFlows) {
            Map<String, Object> none = new LinkedHashMap<>();
            none.put("flows", List.of());
            none.put("truncated", false);
            return none;
        }
        long a = origin + t0;
        long b = origin + t1;
        Columns t;
        // The page asks for flows together with each window: same connection and lock as the window.
        synchronized (slices) {
            t = Columns.read(windowConnection, """
                    SELECT f.id, f.kind, f.rule, f.from_slice_id, s.track_id, s.ts, s.dur, s.depth,
                           f.to_slice_id, d.track_id, d.ts, d.dur, d.depth
                    FROM flow f JOIN slice s ON s.id = f.from_slice_id JOIN slice d ON d.id = f.to_slice_id
                    WHERE (s.ts < ? AND s.ts + s.dur >= ?) OR (d.ts < ? AND d.ts + d.dur >= ?)
                    ORDER BY s.ts LIMIT ?""", b, a, b, a, (long) MAX_FLOWS + 1);
        }
        List<Map<String, Object>> flows = new ArrayList<>();
        for (int i = 0; i < Math.min(t.rows(), MAX_FLOWS); i++) {
            Object[] r = new Object[13];
            for (int c = 0; c < r.length; c++) {
                r[c] = c == 1 || c == 2 ? t.texts(c)[i] : (Object) t.longs(c)[i];
            }
            flows.add(flowJson(r));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("flows", flows);
        out.put("truncated", t.rows() > MAX_FLOWS);
        return out;
    }

    private Map<String, Object> flowJson(Object[] r) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("id", r[0]);
        f.put("kind", r[1]);
        f.put("rule", r[2]);
        // "depth" is the row the end is drawn in, where the arrow starts or ends.
        f.put("from", Map.of("slice", r[3], "track", r[4], "ts", (Long) r[5] - origin, "dur", r[6], "depth",
                (long) drawn.laneOf((Long) r[3], ((Number) r[7]).intValue())));
        f.put("to", Map.of("slice", r[8], "track", r[9], "ts", (Long) r[10] - origin, "dur", r[11], "depth",
                (long) drawn.laneOf((Long) r[8], ((Number) r[12]).intValue())));
        return f;
    }

    /** Everything known about one slice: its row, arguments, kernel/transfer attributes, flow partners and how
     * its duration compares with the other slices of the same name. */
    public synchronized Map<String, Object> slice(long id) {
        Table t = store.query(null, "SELECT id, track_id, ts, dur, name, category, source_category, depth, "
                + "parent_id, correlation_id, args FROM slice WHERE id = ?", id);
        if (t.size() == 0) {
            throw new BadQueryException("no slice with id " + id);
        }
        Object[] r = t.rows().get(0);
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < t.columns().size(); i++) {
            out.put(t.columns().get(i), r[i]);
        }
        long ts = (Long) r[2];
        long dur = (Long) r[3];
        out.put("ts", ts - origin);
        out.put("absolute_ts", Long.toString(ts));
        out.put("lane", r[7] == null ? null : drawn.laneOf(id, ((Number) r[7]).intValue()));
        TrackInfo track = trackById.get((Long) r[1]);
        out.put("track_name", track == null ? null : track.name());
        out.put("kernel", firstRow(store.query(null, "SELECT * FROM kernel WHERE slice_id = ?", id)));
        // The kernel's device_id is the store's row id, not the trace's own numbering (often in args): name the row.
        out.put("kernel_device", firstRow(store.query(null, "SELECT d.id, d.kind, d.ordinal, d.name FROM kernel k "
                + "JOIN device d ON d.id = k.device_id WHERE k.slice_id = ?", id)));
        out.put("transfer", firstRow(store.query(null, "SELECT * FROM transfer WHERE slice_id = ?", id)));
        Table counters = store.query(null, "SELECT name, value FROM kernel_counter WHERE slice_id = ? ORDER BY name",
                id);
        out.put("counters", counters.rows());
        Table flows = store.query(null, """
                SELECT f.id, f.kind, f.rule, f.from_slice_id, s.track_id, s.ts, s.dur, s.depth,
                       f.to_slice_id, d.track_id, d.ts, d.dur, d.depth, s.name, d.name
                FROM flow f JOIN slice s ON s.id = f.from_slice_id JOIN slice d ON d.id = f.to_slice_id
                WHERE f.from_slice_id = ? OR f.to_slice_id = ? LIMIT 1000""", id, id);
        List<Map<String, Object>> partners = new ArrayList<>();
        for (Object[] f : flows.rows()) {
            Map<String, Object> j = flowJson(f);
            boolean outgoing = ((Long) f[3]) == id;
            j.put("direction", outgoing ? "out" : "in");
            j.put("partner_name", outgoing ? f[14] : f[13]);
            partners.add(j);
        }
        out.put("flows", partners);
        // Compared only with the slices of the same name and category (a kernel with kernels, not with the NVTX
        // ranges or worker states of that name), with the figures of hs_slice_stats, as 'hetscope stats' shows.
        Table stats = store.query(null, """
                SELECT s.count, s.total_ns, s.mean_ns, s.min_ns, s.max_ns, s.p50_ns, s.stddev_ns, p.percentile_pct
                FROM hs_slice_figures s, hs_slice_percentile(?, ?, ?) p
                WHERE s.category = ? AND s.name = ?""", r[5], r[4], dur, r[5], r[4]);
        Map<String, Object> st = new LinkedHashMap<>();
        Object[] s = stats.size() == 0 ? new Object[] {0L, null, null, null, null, null, null, null}
                : stats.rows().get(0);
        st.put("category", r[5]);
        st.put("count", s[0]);
        st.put("total", s[1]);
        st.put("mean", s[2]);
        st.put("min", s[3]);
        st.put("max", s[4]);
        st.put("median", s[5]);
        st.put("stddev", s[6]);
        st.put("percentile", s[7]);
        out.put("name_stats", st);
        return out;
    }

    private static Map<String, Object> firstRow(Table t) {
        if (t.size() == 0) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < t.columns().size(); i++) {
            m.put(t.columns().get(i), t.rows().get(0)[i]);
        }
        return m;
    }

    /** Start and duration of the slices of one name (a reservoir sample of at most {@code max}), by start. */
    public synchronized Map<String, Object> durations(String sliceName, int max) {
        return durations(sliceName, null, max);
    }

    /**
     * Start and duration of the slices of one name and, when {@code category} is not null, one category (a
     * reservoir sample of at most {@code max}), by start.
     */
    public synchronized Map<String, Object> durations(String sliceName, String category, int max) {
        if (sliceName == null || sliceName.length() > 10_000) {
            throw new BadQueryException("durations needs a 'name' of at most 10000 characters");
        }
        if (max < 1 || max > 100_000) {
            throw new BadQueryException("max=" + max + " outside 1..100000");
        }
        Table t = category == null
                ? store.query(null, "SELECT ts, dur FROM (SELECT ts, dur FROM slice WHERE name = ?) "
                        + "USING SAMPLE reservoir(" + max + " ROWS) REPEATABLE (7) ORDER BY ts", sliceName)
                : store.query(null, "SELECT ts, dur FROM (SELECT ts, dur FROM slice WHERE name = ? AND category = ?) "
                        + "USING SAMPLE reservoir(" + max + " ROWS) REPEATABLE (7) ORDER BY ts", sliceName, category);
        long[] ts = new long[t.size()];
        long[] dur = new long[t.size()];
        for (int i = 0; i < t.size(); i++) {
            ts[i] = (Long) t.rows().get(i)[0] - origin;
            dur[i] = (Long) t.rows().get(i)[1];
        }
        return Map.of("ts", ts, "dur", dur);
    }

    /** Slice names containing {@code text} (case-insensitive), most frequent first. */
    public synchronized Table search(String text, int limit) {
        if (text == null || text.isBlank()) {
            throw new BadQueryException("search needs a non-empty 'q'");
        }
        if (text.length() > 500) {
            throw new BadQueryException("search text longer than 500 characters");
        }
        return store.query("names", """
                SELECT name, category, count(*) AS count, sum(dur) AS total_ns, min(id) AS first_id
                FROM slice WHERE contains(lower(name), lower(?))
                GROUP BY name, category ORDER BY count DESC, name, category LIMIT ?""", text, (long) limit);
    }

    /** What a selected time range of some tracks contains: names by busy time inside the range. */
    public synchronized Table range(List<Long> trackIds, long t0, long t1) {
        checkWindow(t0, t1, 1);
        checkTracks(trackIds);
        if (trackIds.isEmpty()) {
            throw new BadQueryException("range needs at least one track");
        }
        long a = origin + t0;
        long b = origin + t1;
        return store.query("selection", """
                SELECT name, category, count(*) AS count,
                       sum(greatest(0, least(ts + dur, ?) - greatest(ts, ?))) AS busy_ns
                FROM slice WHERE track_id IN (%s) AND ts < ? AND ts + dur >= ?
                GROUP BY name, category ORDER BY busy_ns DESC, name, category LIMIT 200""".formatted(idList(trackIds)),
                b, a, b, a);
    }

    void checkWindow(long t0, long t1, int pixels) {
        if (t1 <= t0) {
            throw new BadQueryException("window end t1=" + t1 + " must be after its start t0=" + t0);
        }
        if (pixels < 1 || pixels > MAX_PIXELS) {
            throw new BadQueryException("px=" + pixels + " outside 1.." + MAX_PIXELS);
        }
        // Windows far outside the trace are mistakes; and origin + t must stay inside a long.
        long limit = span() > Long.MAX_VALUE / 1000 ? Long.MAX_VALUE / 4 : span() * 1000 + 1_000_000_000L;
        if (t0 < -limit || t1 > limit) {
            throw new BadQueryException("window [" + t0 + ", " + t1 + ") lies far outside the trace");
        }
        try {
            Math.addExact(origin, t0);
            Math.addExact(origin, t1);
            Math.subtractExact(t1, t0);
        } catch (ArithmeticException e) {
            throw new BadQueryException("window [" + t0 + ", " + t1 + ") cannot be represented in nanoseconds");
        }
    }

    void checkTracks(List<Long> trackIds) {
        if (trackIds.size() > MAX_TRACKS_PER_REQUEST) {
            throw new BadQueryException(trackIds.size() + " tracks in one request; at most "
                    + MAX_TRACKS_PER_REQUEST);
        }
        for (Long id : trackIds) {
            if (!trackById.containsKey(id)) {
                throw new BadQueryException("no track with id " + id);
            }
        }
    }

    private static String idList(List<Long> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    @Override
    public void close() {
        if (held != null) {
            held.close();
        }
        synchronized (slices) {
            if (lod != null) {
                lod.close();
            }
            try {
                windowConnection.close();
            } catch (java.sql.SQLException ignored) {
                // read side only
            }
        }
        store.close();
    }
}
