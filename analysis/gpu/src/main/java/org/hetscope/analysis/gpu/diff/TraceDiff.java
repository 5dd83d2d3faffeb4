package org.hetscope.analysis.gpu.diff;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import org.hetscope.store.Store;
import org.hetscope.store.Table;

/**
 * What changed from run A to run B: the standard library's figures of two stores side by side (docs/stdlib.md,
 * "hetscope diff" in docs/cli.md). Per (category, name), the figures of {@code hs_slice_stats}, the change of the
 * total and a Mann-Whitney U test on the two runs' durations ({@code hs_slice_durations}); per iteration
 * ({@code hs_iterations}) and per device ({@code hs_device_utilisation}) the figures of both runs. Nothing is
 * recomputed here but the differences and the test.
 */
public final class TraceDiff {
    /** The status of an operation row. */
    public static final String ADDED = "added";
    public static final String REMOVED = "removed";
    public static final String SLOWER = "slower";
    public static final String FASTER = "faster";
    public static final String SAME = "same";

    private final Store a;
    private final Store b;
    private final double alpha;

    /**
     * @param alpha significance level: an operation of both runs is "slower" or "faster" when the test's p-value
     *              is below it, else "same"
     */
    public TraceDiff(Store a, Store b, double alpha) {
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("the significance level must lie between 0 and 1, not " + alpha);
        }
        this.a = a;
        this.b = b;
        this.alpha = alpha;
    }

    record Key(String category, String name) {
    }

    /** count, total_ns, mean_ns, p50_ns, p95_ns of one (category, name) of one run. */
    record Figures(long count, long total, Object mean, Object p50, Object p95) {
    }

    static Map<Key, Figures> figures(Store s) {
        Map<Key, Figures> out = new HashMap<>();
        for (Object[] r : s.query(null, "SELECT category, name, count, total_ns, mean_ns, p50_ns, p95_ns"
                + " FROM hs_slice_stats").rows()) {
            out.put(new Key((String) r[0], (String) r[1]), new Figures(((Number) r[2]).longValue(),
                    r[3] == null ? 0 : ((Number) r[3]).longValue(), r[4], r[5], r[6]));
        }
        return out;
    }

    /** Every (category, name)'s durations, from the library's samples view. */
    static Map<Key, long[]> durations(Store s) {
        Map<Key, long[]> out = new HashMap<>();
        String sql = "SELECT category, name, dur_ns FROM hs_slice_durations WHERE dur_ns IS NOT NULL"
                + " ORDER BY category, name";
        try (PreparedStatement ps = s.connection().prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            Key cur = null;
            long[] buf = new long[16];
            int n = 0;
            while (rs.next()) {
                Key k = new Key(rs.getString(1), rs.getString(2));
                if (!k.equals(cur)) {
                    if (cur != null) {
                        out.put(cur, Arrays.copyOf(buf, n));
                    }
                    cur = k;
                    n = 0;
                }
                if (n == buf.length) {
                    buf = Arrays.copyOf(buf, n * 2);
                }
                buf[n++] = rs.getLong(3);
            }
            if (cur != null) {
                out.put(cur, Arrays.copyOf(buf, n));
            }
        } catch (SQLException e) {
            throw s.failure(e);
        }
        return out;
    }

    /**
     * One row per (category, name) of either run, the largest absolute change of the total first. Columns:
     * category, name, status (added, removed, slower, faster, same), a_count, b_count, a_total_ns, b_total_ns,
     * change_ns (B - A), change_pct (of A's total), change_share_pct (of the sum of absolute changes of the
     * category), a/b mean_ns, p50_ns, p95_ns, u (Mann-Whitney U of A against B) and p_value.
     */
    public Table operations() {
        Map<Key, Figures> fa = figures(a);
        Map<Key, Figures> fb = figures(b);
        Map<Key, long[]> da = durations(a);
        Map<Key, long[]> db = durations(b);
        TreeSet<Key> keys = new TreeSet<>(Comparator.comparing(Key::category).thenComparing(Key::name));
        keys.addAll(fa.keySet());
        keys.addAll(fb.keySet());
        Map<String, Long> absoluteChange = new HashMap<>();
        for (Key k : keys) {
            absoluteChange.merge(k.category(), Math.abs(total(fb.get(k)) - total(fa.get(k))), Long::sum);
        }
        record Row(Key key, long change, Object[] cells) {
        }
        List<Row> rows = new ArrayList<>();
        for (Key k : keys) {
            Figures x = fa.get(k);
            Figures y = fb.get(k);
            long change = total(y) - total(x);
            long sum = absoluteChange.get(k.category());
            Double changePct = x == null || x.total() == 0 ? null : 100.0 * change / x.total();
            Double share = sum == 0 ? 0.0 : 100.0 * change / sum;
            String status;
            Double u = null;
            Double p = null;
            if (x == null) {
                status = ADDED;
            } else if (y == null) {
                status = REMOVED;
            } else {
                long[] sa = da.get(k);
                long[] sb = db.get(k);
                if (sa == null || sb == null) {
                    status = SAME; // durations all unknown: nothing to test
                } else {
                    MannWhitney.Result t = MannWhitney.test(sa, sb);
                    u = t.u();
                    p = t.pValue();
                    // U of A above its mean: A's durations tend to be the longer, B got faster
                    status = t.pValue() >= alpha ? SAME : t.u() > t.n1() * (double) t.n2() / 2 ? FASTER : SLOWER;
                }
            }
            rows.add(new Row(k, change, new Object[] {k.category(), k.name(), status,
                    x == null ? 0L : x.count(), y == null ? 0L : y.count(), x == null ? null : x.total(),
                    y == null ? null : y.total(), change, changePct, share,
                    x == null ? null : x.mean(), y == null ? null : y.mean(), x == null ? null : x.p50(),
                    y == null ? null : y.p50(), x == null ? null : x.p95(), y == null ? null : y.p95(), u, p}));
        }
        rows.sort(Comparator.comparingLong((Row r) -> -Math.abs(r.change()))
                .thenComparing(r -> r.key().category()).thenComparing(r -> r.key().name()));
        List<Object[]> cells = new ArrayList<>(rows.size());
        rows.forEach(r -> cells.add(r.cells()));
        return new Table("operations", List.of("category", "name", "status", "a_count", "b_count", "a_total_ns",
                "b_total_ns", "change_ns", "change_pct", "change_share_pct", "a_mean_ns", "b_mean_ns", "a_p50_ns",
                "b_p50_ns", "a_p95_ns", "b_p95_ns", "u", "p_value"), cells);
    }

    private static long total(Figures f) {
        return f == null ? 0 : f.total();
    }

    /**
     * Per iteration (ProfilerStep#N) and side (host: the step on the CPU; device: the span of its GPU work) of
     * either run: each run's summed duration of the step's slices, the change and its part of A's. Empty when neither run marks iterations.
     */
    public Table iterations() {
        Map<List<Object>, Long> ia = iterationTimes(a);
        Map<List<Object>, Long> ib = iterationTimes(b);
        TreeSet<List<Object>> keys = new TreeSet<>(Comparator.comparing((List<Object> k) -> (Long) k.get(0))
                .thenComparing(k -> (String) k.get(1)));
        keys.addAll(ia.keySet());
        keys.addAll(ib.keySet());
        List<Object[]> rows = new ArrayList<>();
        for (List<Object> k : keys) {
            Long x = ia.get(k);
            Long y = ib.get(k);
            Long change = x == null || y == null ? null : y - x;
            Double pct = change == null || x == 0 ? null : 100.0 * change / x;
            rows.add(new Object[] {k.get(0), k.get(1), x, y, change, pct});
        }
        return new Table("iterations", List.of("iteration", "side", "a_dur_ns", "b_dur_ns", "change_ns",
                "change_pct"), rows);
    }

    private static Map<List<Object>, Long> iterationTimes(Store s) {
        Map<List<Object>, Long> out = new LinkedHashMap<>();
        for (Object[] r : s.query(null, "SELECT iteration, side, dur_ns FROM hs_iterations").rows()) {
            out.put(List.of(r[0], r[1]), r[2] == null ? null : ((Number) r[2]).longValue());
        }
        return out;
    }

    /**
     * Per device of either run (matched by its label, "NVIDIA A100 #0"), over each run's default utilisation
     * window: window, busy and idle time of both runs, and the changes of busy and idle time.
     */
    public Table utilisation() {
        Map<String, Object[]> ua = deviceFigures(a);
        Map<String, Object[]> ub = deviceFigures(b);
        TreeMap<String, Boolean> devices = new TreeMap<>();
        ua.keySet().forEach(d -> devices.put(d, true));
        ub.keySet().forEach(d -> devices.put(d, true));
        List<Object[]> rows = new ArrayList<>();
        for (String d : devices.keySet()) {
            Object[] x = ua.getOrDefault(d, new Object[5]);
            Object[] y = ub.getOrDefault(d, new Object[5]);
            rows.add(new Object[] {d, x[0], y[0], x[1], y[1], x[2], y[2], difference(x[1], y[1]), x[3], y[3],
                    x[4], y[4], difference(x[3], y[3])});
        }
        return new Table("utilisation per device", List.of("device", "a_window_ns", "b_window_ns", "a_busy_ns",
                "b_busy_ns", "a_busy_pct", "b_busy_pct", "busy_change_ns", "a_idle_ns", "b_idle_ns", "a_idle_pct",
                "b_idle_pct", "idle_change_ns"), rows);
    }

    private static Long difference(Object x, Object y) {
        return x == null || y == null ? null : ((Number) y).longValue() - ((Number) x).longValue();
    }

    /** window_ns, busy_ns, busy_pct, idle_ns, idle_pct per device label. */
    private static Map<String, Object[]> deviceFigures(Store s) {
        Map<String, Object[]> out = new LinkedHashMap<>();
        for (Object[] r : s.query(null, "SELECT device, window_ns, busy_ns, busy_pct, idle_ns, idle_pct"
                + " FROM hs_device_utilisation WHERE level = 'device'").rows()) {
            String label = Objects.toString(r[0]);
            // two devices of one label (one GPU model in two processes) stay apart by their order
            String key = label;
            for (int i = 2; out.containsKey(key); i++) {
                key = label + " (" + i + ")";
            }
            out.put(key, Arrays.copyOfRange(r, 1, 6));
        }
        return out;
    }
}
