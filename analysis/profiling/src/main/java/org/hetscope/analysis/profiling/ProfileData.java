package org.hetscope.analysis.profiling;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hetscope.store.Store;
import org.hetscope.store.StoreException;

/** Loads the host calls and GPU activities of a store as {@link Span}s, in (ts, id) order. */
public final class ProfileData {
    /**
     * The stream a call's arguments name (Kineto's {@code "stream": 7}, {@code "wait_on_stream"}), matched by DuckDB
     * (RE2) in the query, so that neither its sort nor Java holds every call's argument text (most of the memory of
     * flows on large Kineto traces); a number past 64 bits reads as no stream instead of failing the command.
     */
    private static final String STREAM_ARG_SQL = "\"(?:stream|wait_on_stream)\"\\s*:\\s*(-?\\d+)";

    public final List<Span> calls = new ArrayList<>();
    public final List<Span> activities = new ArrayList<>();
    /** Synchronisation records the tracer put on device tracks (CUPTI SYNCHRONIZATION, Kineto cuda_sync). */
    public final List<Span> deviceSyncs = new ArrayList<>();
    /**
     * Ids of the host calls made inside a collective communication op (a slice named after NCCL/RCCL around it,
     * such as PyTorch's {@code nccl:all_reduce}); looked up only when some activity is a collective kernel.
     */
    public final Set<Long> collectiveLaunches = new HashSet<>();

    private static final String PROFILED = "s.category IN ('api', 'sync', 'kernel', 'memcpy', 'memset')";
    private static final String HOST_TRACK = "coalesce(t.kind, '') NOT IN ('stream', 'queue', 'device')";

    /**
     * Whether the store has any host call {@link #load} would return: every arrow starts at one, so without them
     * the linking analyses have nothing to do and need not load the (possibly millions of) device activities.
     */
    public static boolean hasHostCalls(Store store) {
        return store.scalarLong("SELECT count(*) FROM (SELECT 1 FROM slice s JOIN track t ON t.id = s.track_id WHERE "
                + PROFILED + " AND " + HOST_TRACK + " LIMIT 1)") > 0;
    }

    public static ProfileData load(Store store) {
        ProfileData d = new ProfileData();
        // Arguments are read only where a stream may hide in them (host calls, device rows of unknown stream):
        // on stores of millions of kernels they would otherwise be most of what is held in memory.
        String sql = "SELECT s.id, s.ts, s.dur, s.name, s.category, s.correlation_id,"
                + " CASE WHEN " + HOST_TRACK + " OR t.stream IS NULL THEN TRY_CAST(regexp_extract(s.args, '"
                + STREAM_ARG_SQL + "', 1) AS BIGINT) END,"
                + " t.kind, COALESCE(t.process_id, p.process_id), COALESCE(t.device_id, p.device_id), t.stream,"
                + " s.track_id FROM slice s JOIN track t ON t.id = s.track_id LEFT JOIN track p ON p.id = t.parent_id"
                + " WHERE " + PROFILED + " ORDER BY s.ts, s.id";
        Map<String, String> names = new HashMap<>();
        try (PreparedStatement ps = store.connection().prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String kind = rs.getString(8);
                boolean host = !"stream".equals(kind) && !"queue".equals(kind) && !"device".equals(kind);
                Long stream = longOrNull(rs, 11);
                if (host || stream == null) {
                    Long fromArgs = longOrNull(rs, 7);
                    stream = fromArgs != null ? fromArgs : stream;
                }
                // names and categories repeat across millions of rows: one String each
                String name = names.computeIfAbsent(rs.getString(4), n -> n);
                String category = names.computeIfAbsent(rs.getString(5), n -> n);
                Span s = new Span(rs.getLong(1), rs.getLong(2), rs.getLong(3), name, category,
                        longOrNull(rs, 6), longOrNull(rs, 9), host ? null : longOrNull(rs, 10), stream,
                        rs.getLong(12), host, null); // the args only gave the stream
                if (host) {
                    d.calls.add(s);
                } else if (s.isActivity()) {
                    d.activities.add(s);
                } else if ("sync".equals(s.category())) {
                    d.deviceSyncs.add(s);
                }
            }
        } catch (SQLException e) {
            throw new StoreException("cannot load slices: " + e.getMessage(), e);
        }
        // each distinct kernel name is lower-cased once, not once per kernel of a store of millions
        Map<String, Boolean> collectiveName = new HashMap<>();
        if (d.activities.stream().anyMatch(a -> a.isKernel()
                && collectiveName.computeIfAbsent(a.name(), n -> FlowMatcher.isCollective(a)))) {
            loadCollectiveLaunches(store, d);
        }
        return d;
    }

    /**
     * The host calls that lie inside a slice named after NCCL or RCCL on their own track or on its parent (Kineto
     * puts the runtime calls on an api track below the thread track of the ops that made them). The op slices of a
     * track are merged into disjoint intervals, so each call is one binary search: O((calls + ops) log ops).
     */
    private static void loadCollectiveLaunches(Store store, ProfileData d) {
        Map<Long, long[]> opsByTrack = new HashMap<>();
        Map<Long, Long> parent = new HashMap<>();
        String ops = "SELECT track_id, ts, ts + dur FROM slice WHERE category NOT IN ('kernel', 'memcpy', 'memset')"
                + " AND (lower(name) LIKE '%nccl%' OR lower(name) LIKE '%rccl%') ORDER BY track_id, ts";
        try (Statement st = store.connection().createStatement()) {
            try (ResultSet rs = st.executeQuery(ops)) {
                long track = Long.MIN_VALUE;
                long[] merged = new long[0];
                int n = 0;
                while (rs.next()) {
                    if (rs.getLong(1) != track) {
                        if (n > 0) {
                            opsByTrack.put(track, Arrays.copyOf(merged, n));
                        }
                        track = rs.getLong(1);
                        merged = new long[8];
                        n = 0;
                    }
                    long start = rs.getLong(2);
                    long end = rs.getLong(3);
                    if (n > 0 && start <= merged[n - 1]) {
                        merged[n - 1] = Math.max(merged[n - 1], end);
                        continue;
                    }
                    if (n + 2 > merged.length) {
                        merged = Arrays.copyOf(merged, merged.length * 2);
                    }
                    merged[n++] = start;
                    merged[n++] = end;
                }
                if (n > 0) {
                    opsByTrack.put(track, Arrays.copyOf(merged, n));
                }
            }
            if (opsByTrack.isEmpty()) {
                return;
            }
            try (ResultSet rs = st.executeQuery("SELECT id, parent_id FROM track WHERE parent_id IS NOT NULL")) {
                while (rs.next()) {
                    parent.put(rs.getLong(1), rs.getLong(2));
                }
            }
        } catch (SQLException e) {
            throw new StoreException("cannot load the communication ops of host calls: " + e.getMessage(), e);
        }
        for (Span c : d.calls) {
            if (inside(opsByTrack.get(c.trackId()), c) || inside(opsByTrack.get(parent.get(c.trackId())), c)) {
                d.collectiveLaunches.add(c.id());
            }
        }
    }

    /** Whether the call lies within one of the merged intervals (start, end pairs in start order). */
    private static boolean inside(long[] merged, Span c) {
        if (merged == null) {
            return false;
        }
        int lo = 0;
        int hi = merged.length / 2 - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (merged[2 * mid] <= c.ts()) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found >= 0 && c.end() <= merged[2 * found + 1];
    }

    static Long longOrNull(ResultSet rs, int column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }

    static final Comparator<Span> BY_TIME = Comparator.comparingLong(Span::ts).thenComparingLong(Span::id);
}
