package org.hetscope.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The utilisation sweep of the standard library against brute force: random kernels and copies on a few devices
 * and streams (touching, nested, overlapping, zero-length, crossing the window), every nanosecond of the window
 * counted one by one.
 */
class StandardLibraryTest {
    record Activity(long device, long track, long ts, long end, boolean compute) {
    }

    @Test
    void utilisationAndConcurrencyEqualANanosecondByNanosecondCount() throws Exception {
        Random random = new Random(24);
        for (int round = 0; round < 20; round++) {
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
                schema(c);
                List<Activity> acts = new ArrayList<>();
                int devices = 1 + random.nextInt(3);
                exec(c, "INSERT INTO device (id, kind, ordinal, name) SELECT i, 'GPU', i - 1, 'G' FROM range(1, "
                        + (devices + 2) + ") t(i)"); // one more device than has work: it must be listed idle
                long trackId = 100;
                long sliceId = 1;
                try (PreparedStatement track = c.prepareStatement(
                        "INSERT INTO track (id, parent_id, kind, name, device_id) VALUES (?, ?, ?, ?, ?)");
                     PreparedStatement slice = c.prepareStatement(
                        "INSERT INTO slice (id, track_id, ts, dur, name, category) VALUES (?, ?, ?, ?, 'x', ?)")) {
                    for (long d = 1; d <= devices; d++) {
                        track.setLong(1, d);
                        track.setObject(2, null);
                        track.setString(3, "device");
                        track.setString(4, "dev");
                        track.setLong(5, d);
                        track.execute();
                        for (int s = 0; s < 1 + random.nextInt(3); s++) {
                            long t = trackId++;
                            track.setLong(1, t);
                            track.setLong(2, d);
                            track.setString(3, "stream");
                            track.setString(4, "s" + t);
                            track.setObject(5, null); // the device comes from the parent device track
                            track.execute();
                            for (int k = 0; k < random.nextInt(25); k++) {
                                long ts = random.nextInt(400);
                                long dur = random.nextInt(6) == 0 ? 0 : 1 + random.nextInt(60);
                                String cat = switch (random.nextInt(4)) {
                                    case 0 -> "memcpy";
                                    case 1 -> "memset";
                                    case 2 -> "task";
                                    default -> "kernel";
                                };
                                slice.setLong(1, sliceId++);
                                slice.setLong(2, t);
                                slice.setLong(3, ts);
                                slice.setLong(4, dur);
                                slice.setString(5, cat);
                                slice.execute();
                                acts.add(new Activity(d, t, ts, ts + dur, cat.equals("kernel") || cat.equals("task")));
                            }
                        }
                    }
                }
                assertEquals(List.of(), StandardLibrary.install(c));
                long w0 = random.nextInt(100) - 20;
                long w1 = w0 + random.nextInt(450);
                check(c, acts, w0, w1);
            }
        }
    }

    private static void check(Connection c, List<Activity> acts, long w0, long w1) throws Exception {
        Table util = query(c, "SELECT * FROM hs_utilisation(" + w0 + ", " + w1 + ")");
        Table conc = query(c, "SELECT * FROM hs_concurrency(" + w0 + ", " + w1 + ")");
        Map<String, Integer> rows = new HashMap<>();
        for (int r = 0; r < util.size(); r++) {
            rows.put(util.get(r, "device_id") + "/" + util.get(r, "unit_track_id"), r);
        }
        Map<String, Long> concurrency = new HashMap<>();
        for (int r = 0; r < conc.size(); r++) {
            concurrency.put(conc.get(r, "device_id") + "/" + conc.get(r, "unit_track_id") + "/"
                    + conc.get(r, "concurrency"), (Long) conc.get(r, "dur_ns"));
        }
        Map<String, List<Activity>> groups = new HashMap<>();
        long deviceCount = query(c, "SELECT count(*) FROM device").rows().get(0)[0] instanceof Long n ? n : 0;
        for (long d = 1; d <= deviceCount; d++) {
            groups.put(d + "/null", new ArrayList<>());
        }
        for (Activity a : acts) {
            groups.get(a.device() + "/null").add(a);
            groups.computeIfAbsent(a.device() + "/" + a.track(), k -> new ArrayList<>()).add(a);
        }
        assertEquals(groups.size(), util.size(), "one row per device and per stream with work");
        for (var g : groups.entrySet()) {
            Integer r = rows.get(g.getKey());
            assertTrue(r != null, g.getKey() + " missing in " + rows.keySet());
            long busy = 0;
            long compute = 0;
            long copy = 0;
            long overlap = 0;
            long computeTime = 0;
            long gaps = 0;
            long longest = 0;
            long gap = 0;
            Map<Integer, Long> hist = new HashMap<>();
            for (long t = w0; t < w1; t++) {
                int k = 0;
                int cp = 0;
                for (Activity a : g.getValue()) {
                    if (a.ts() <= t && t < a.end()) {
                        if (a.compute()) {
                            k++;
                        } else {
                            cp++;
                        }
                    }
                }
                busy += k + cp > 0 ? 1 : 0;
                compute += k > 0 ? 1 : 0;
                copy += cp > 0 ? 1 : 0;
                overlap += k > 0 && cp > 0 ? 1 : 0;
                computeTime += k;
                hist.merge(k, 1L, Long::sum);
                if (k + cp == 0) {
                    gaps += gap == 0 ? 1 : 0;
                    gap++;
                    longest = Math.max(longest, gap);
                } else {
                    gap = 0;
                }
            }
            String what = g.getKey() + " in [" + w0 + ", " + w1 + ")";
            assertEquals(Math.max(0, w1 - w0), util.get(r, "window_ns"), what);
            assertEquals(busy, util.get(r, "busy_ns"), what);
            assertEquals(compute, util.get(r, "compute_ns"), what);
            assertEquals(copy, util.get(r, "copy_ns"), what);
            assertEquals(overlap, util.get(r, "overlap_ns"), what);
            assertEquals(w1 - w0 - busy, util.get(r, "idle_ns"), what);
            assertEquals(gaps, util.get(r, "idle_gaps"), what);
            assertEquals(longest, util.get(r, "longest_idle_ns"), what);
            if (compute > 0) {
                assertEquals((double) computeTime / compute, (Double) util.get(r, "mean_concurrency"), 1e-12, what);
            }
            for (var h : hist.entrySet()) {
                assertEquals(h.getValue(), concurrency.get(g.getKey() + "/" + h.getKey()), what + " k=" + h.getKey());
            }
        }
    }

    private static void schema(Connection c) throws Exception {
        for (String sql : StandardLibrary.split(Schema.ddl())) {
            exec(c, sql);
        }
    }

    private static void exec(Connection c, String sql) throws Exception {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static Table query(Connection c, String sql) throws Exception {
        try (Statement st = c.createStatement(); var rs = st.executeQuery(sql)) {
            return Store.toTable(null, rs);
        }
    }

    @Test
    void everyStatementInstallsOnAnEmptyStore() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            schema(c);
            assertEquals(List.of(), StandardLibrary.install(c));
            Table bounds = query(c, "SELECT * FROM hs_trace_bounds");
            assertEquals(List.of("start_ns", "end_ns", "dur_ns"), bounds.columns());
            assertEquals(null, bounds.rows().get(0)[0]);
            assertEquals(0, query(c, "SELECT * FROM hs_device_utilisation").size());
        }
    }
}
