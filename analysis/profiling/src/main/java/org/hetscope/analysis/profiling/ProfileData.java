package org.hetscope.analysis.profiling;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hetscope.store.Store;
import org.hetscope.store.StoreException;

/** Loads the host calls and GPU activities of a store as {@link Span}s, in (ts, id) order. */
public final class ProfileData {
    private static final Pattern STREAM_ARG = Pattern.compile("\"(?:stream|wait_on_stream)\"\\s*:\\s*(-?\\d+)");

    public final List<Span> calls = new ArrayList<>();
    public final List<Span> activities = new ArrayList<>();
    /** Synchronisation records the tracer put on device tracks (CUPTI SYNCHRONIZATION, Kineto cuda_sync). */
    public final List<Span> deviceSyncs = new ArrayList<>();

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
                + " CASE WHEN " + HOST_TRACK + " OR t.stream IS NULL THEN s.args END,"
                + " t.kind, COALESCE(t.process_id, p.process_id), COALESCE(t.device_id, p.device_id), t.stream,"
                + " s.track_id FROM slice s JOIN track t ON t.id = s.track_id LEFT JOIN track p ON p.id = t.parent_id"
                + " WHERE " + PROFILED + " ORDER BY s.ts, s.id";
        Map<String, String> names = new HashMap<>();
        try (PreparedStatement ps = store.connection().prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String kind = rs.getString(8);
                boolean host = !"stream".equals(kind) && !"queue".equals(kind) && !"device".equals(kind);
                String args = rs.getString(7);
                Long stream = longOrNull(rs, 11);
                if (host || stream == null) {
                    Long fromArgs = streamArg(args);
                    stream = fromArgs != null ? fromArgs : stream;
                }
                // names and categories repeat across millions of rows: one String each
                String name = names.computeIfAbsent(rs.getString(4), n -> n);
                String category = names.computeIfAbsent(rs.getString(5), n -> n);
                Span s = new Span(rs.getLong(1), rs.getLong(2), rs.getLong(3), name, category,
                        longOrNull(rs, 6), longOrNull(rs, 9), host ? null : longOrNull(rs, 10), stream,
                        rs.getLong(12), host, args);
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
        return d;
    }

    static Long streamArg(String args) {
        if (args == null) {
            return null;
        }
        Matcher m = STREAM_ARG.matcher(args);
        return m.find() ? Long.parseLong(m.group(1)) : null;
    }

    static Long longOrNull(ResultSet rs, int column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }

    static final Comparator<Span> BY_TIME = Comparator.comparingLong(Span::ts).thenComparingLong(Span::id);
}
