package org.hetscope.analysis.gpu;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.hetscope.store.Store;
import org.hetscope.store.StoreException;
import org.hetscope.store.Table;

/**
 * GPU utilisation per device and per stream over a window: busy and idle time, the split between kernels and
 * memory operations, their overlap, idle gaps and kernel concurrency. The window defaults to the trace's span.
 */
public final class Utilisation {
    private final Store store;

    public Utilisation(Store store) {
        this.store = store;
    }

    /** How a device (table alias {@code d}) is named in the analyses' tables: its name and ordinal. */
    private static final String DEVICE_LABEL = "coalesce(d.name, 'device ' || d.ordinal) || ' #' || d.ordinal";

    /** Each device's label as the utilisation tables show it ("NVIDIA A100-SXM4-80GB #0"), by device id. */
    public static java.util.Map<Long, String> deviceLabels(Store store) {
        java.util.Map<Long, String> labels = new java.util.HashMap<>();
        for (Object[] r : store.query(null, "SELECT d.id, " + DEVICE_LABEL + " FROM device d").rows()) {
            labels.put((Long) r[0], (String) r[1]);
        }
        return labels;
    }

    /** The trace's span [first start, last end) over all slices. */
    public long[] traceSpan() {
        Table t = store.query(null, "SELECT min(ts), max(ts + dur) FROM slice");
        Object a = t.rows().get(0)[0];
        Object b = t.rows().get(0)[1];
        return a == null ? new long[] {0, 0} : new long[] {(Long) a, (Long) b};
    }

    /** One row per device (and, with {@code perStream}, per stream) over [w0, w1). */
    public Table table(long w0, long w1, boolean perStream) {
        List<String> cols = new ArrayList<>(List.of(perStream ? "device,stream" : "device", "window_ns", "busy_ns",
                "busy_pct", "kernel_ns", "copy_ns", "overlap_ns", "idle_ns", "idle_pct", "idle_gaps",
                "longest_idle_ns", "mean_concurrency", "concurrency_ns"));
        if (perStream) {
            cols.set(0, "device");
            cols.add(1, "stream");
        }
        Table.Builder out = Table.builder(perStream ? "utilisation per stream" : "utilisation per device",
                cols.toArray(String[]::new));
        String groupSql = perStream
                ? "SELECT d.id, " + DEVICE_LABEL + ", st.id, st.name"
                        + " FROM device d JOIN track dt ON dt.device_id = d.id AND dt.kind = 'device'"
                        + " JOIN track st ON st.parent_id = dt.id"
                        // a track of synchronisation records only (Nsight's CUPTI SYNCHRONIZATION row) is no stream
                        + " WHERE st.id NOT IN (SELECT track_id FROM slice GROUP BY track_id"
                        + " HAVING bool_and(category = 'sync'))"
                        + " ORDER BY d.ordinal, st.sort_index, st.id"
                : "SELECT d.id, " + DEVICE_LABEL + ", NULL, NULL FROM device d ORDER BY d.ordinal";
        for (Object[] g : store.query(null, groupSql).rows()) {
            long device = (Long) g[0];
            Long stream = (Long) g[2];
            Busy b = busy(device, stream, w0, w1);
            List<Object> row = new ArrayList<>();
            row.add(g[1]);
            if (perStream) {
                row.add(g[3]);
            }
            row.add(b.window());
            row.add(b.busy());
            row.add(pct(b.busy(), b.window()));
            row.add(b.kernelBusy());
            row.add(b.copyBusy());
            row.add(b.overlap());
            row.add(b.idle());
            row.add(pct(b.idle(), b.window()));
            row.add(b.idleGaps());
            row.add(b.longestIdleGap());
            row.add(b.meanConcurrency());
            StringBuilder hist = new StringBuilder();
            for (int k = 0; k < b.concurrency().length; k++) {
                if (k > 0) {
                    hist.append(' ');
                }
                hist.append(k).append(':').append(b.concurrency()[k]);
            }
            row.add(hist.toString());
            out.row(row.toArray());
        }
        return out.build();
    }

    private static Double pct(long part, long whole) {
        return whole == 0 ? null : part * 100.0 / whole;
    }

    /** Busy figures of one device, or of one of its stream tracks when {@code streamTrack} is not null. */
    public Busy busy(long deviceId, Long streamTrack, long w0, long w1) {
        String sql = "SELECT s.ts, s.ts + s.dur, s.category FROM slice s JOIN track st ON st.id = s.track_id"
                + " JOIN track dt ON dt.id = st.parent_id"
                + " WHERE dt.device_id = ? AND s.category IN ('kernel', 'memcpy', 'memset')"
                + (streamTrack == null ? "" : " AND st.id = ?")
                + " AND s.ts < ? AND s.ts + s.dur > ?";
        LongList ks = new LongList();
        LongList ke = new LongList();
        LongList cs = new LongList();
        LongList ce = new LongList();
        try (PreparedStatement ps = store.connection().prepareStatement(sql)) {
            int i = 1;
            ps.setLong(i++, deviceId);
            if (streamTrack != null) {
                ps.setLong(i++, streamTrack);
            }
            ps.setLong(i++, w1);
            ps.setLong(i, w0);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if ("kernel".equals(rs.getString(3))) {
                        ks.add(rs.getLong(1));
                        ke.add(rs.getLong(2));
                    } else {
                        cs.add(rs.getLong(1));
                        ce.add(rs.getLong(2));
                    }
                }
            }
        } catch (SQLException e) {
            throw new StoreException("reading GPU activity", e);
        }
        return Busy.of(ks.toArray(), ke.toArray(), cs.toArray(), ce.toArray(), w0, w1);
    }

    /** A growable list of longs. */
    private static final class LongList {
        private long[] v = new long[64];
        private int n;

        void add(long x) {
            if (n == v.length) {
                v = java.util.Arrays.copyOf(v, n * 2);
            }
            v[n++] = x;
        }

        long[] toArray() {
            return java.util.Arrays.copyOf(v, n);
        }
    }
}
