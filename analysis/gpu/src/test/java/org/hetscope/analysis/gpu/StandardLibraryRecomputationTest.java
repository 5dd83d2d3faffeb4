package org.hetscope.analysis.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hetscope.formats.nsys.NsysFormat;
import org.hetscope.formats.paje.PajeFormat;
import org.hetscope.model.Progress;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.hetscope.store.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The standard library's views (docs/stdlib.md) against figures recomputed here from the raw input files with
 * separate code: the Nsight Systems export read with sqlite-jdbc, and a StarPU run's tasks.rec and paje.trace
 * read as text. (Kineto: {@link GpuAnalysesOnKinetoTest}.)
 */
class StandardLibraryRecomputationTest {
    static final Path FIXTURES = Path.of(System.getProperty("hetscope.root", ".")).resolve("../shared/fixtures");
    static final Path NSYS = FIXTURES.resolve("nsys/perlmutter-cloverleaf-cuda.sqlite");
    static final Path STARPU = FIXTURES.resolve("starpu/chol-dmda-nb6");

    @TempDir
    static Path dir;
    static Store nsys;
    static Store starpu;
    static Connection raw;

    @BeforeAll
    static void importFixtures() throws Exception {
        StoreWriter w = StoreWriter.create(dir.resolve("nsys.duckdb"));
        new NsysFormat().read(NSYS, w, Progress.NONE);
        w.commit();
        nsys = Store.open(dir.resolve("nsys.duckdb"));
        w = StoreWriter.create(dir.resolve("starpu.duckdb"));
        new PajeFormat().read(STARPU, w, Progress.NONE);
        w.commit();
        starpu = Store.open(dir.resolve("starpu.duckdb"));
        raw = DriverManager.getConnection("jdbc:sqlite:" + NSYS.toAbsolutePath());
    }

    @AfterAll
    static void close() throws Exception {
        nsys.close();
        starpu.close();
        raw.close();
    }

    // ---- figures computed independently ----

    /** count, total, min, max, mean, population stddev (two-pass), nearest-rank p50/p90/p95/p99. */
    record Figures(long count, long total, long min, long max, double mean, double stddev, long p50, long p90,
                   long p95, long p99) {
        static Figures of(List<Long> values) {
            List<Long> v = new ArrayList<>(values);
            v.sort(null);
            long total = v.stream().mapToLong(Long::longValue).sum();
            double mean = (double) total / v.size();
            double var = v.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum() / v.size();
            return new Figures(v.size(), total, v.get(0), v.get(v.size() - 1), mean, Math.sqrt(var),
                    rank(v, 50), rank(v, 90), rank(v, 95), rank(v, 99));
        }

        private static long rank(List<Long> sorted, int percent) {
            return sorted.get(Math.max(1, (percent * sorted.size() + 99) / 100) - 1);
        }

        void assertRow(Table t, int r, String what) {
            assertEquals(count, t.get(r, "count"), what);
            assertEquals(total, t.get(r, "total_ns"), what);
            assertEquals(min, t.get(r, "min_ns"), what);
            assertEquals(max, t.get(r, "max_ns"), what);
            assertEquals(mean, (Double) t.get(r, "mean_ns"), 1e-9 * Math.max(1, mean), what);
            assertEquals(stddev, (Double) t.get(r, "stddev_ns"), 1e-6 * Math.max(1, stddev), what);
            assertEquals(p50, t.get(r, "p50_ns"), what);
            assertEquals(p90, t.get(r, "p90_ns"), what);
            assertEquals(p95, t.get(r, "p95_ns"), what);
            assertEquals(p99, t.get(r, "p99_ns"), what);
        }
    }

    static List<Object[]> sqlite(String sql) throws Exception {
        List<Object[]> rows = new ArrayList<>();
        try (Statement st = raw.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                Object[] r = new Object[n];
                for (int i = 0; i < n; i++) {
                    r[i] = rs.getObject(i + 1);
                }
                rows.add(r);
            }
        }
        return rows;
    }

    static long union(List<long[]> intervals) {
        List<long[]> v = new ArrayList<>(intervals);
        v.sort((a, b) -> Long.compare(a[0], b[0]));
        long total = 0;
        long s = Long.MIN_VALUE;
        long e = Long.MIN_VALUE;
        for (long[] iv : v) {
            if (iv[0] > e) {
                total += Math.max(0, e - s);
                s = iv[0];
                e = iv[1];
            } else {
                e = Math.max(e, iv[1]);
            }
        }
        return total + Math.max(0, e - s);
    }

    // ---- Nsight Systems ----

    @Test
    void nsightKernelStatisticsPerName() throws Exception {
        Map<String, List<Long>> byName = new TreeMap<>();
        for (Object[] r : sqlite("SELECT s.value, k.\"end\" - k.start FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                + "JOIN StringIds s ON s.id = k.shortName")) {
            byName.computeIfAbsent((String) r[0], k -> new ArrayList<>()).add(((Number) r[1]).longValue());
        }
        Table t = new DurationStatistics(nsys).kernels();
        assertEquals(byName.size(), t.size());
        long all = byName.values().stream().flatMap(List::stream).mapToLong(Long::longValue).sum();
        for (int r = 0; r < t.size(); r++) {
            String name = (String) t.get(r, "name");
            List<Long> d = byName.get(name);
            assertNotNull(d, name);
            Figures.of(d).assertRow(t, r, name);
            assertEquals(100.0 * Figures.of(d).total() / all, (Double) t.get(r, "share_pct"), 1e-9, name);
        }
    }

    @Test
    void nsightTransferStatisticsAndBandwidthPerKind() throws Exception {
        // CUPTI's copy kinds: 1 host to device, 2 device to host, 8 device to device, 10 peer to peer
        Map<Integer, String> kinds = Map.of(1, "HtoD", 2, "DtoH", 8, "DtoD", 10, "PtoP");
        Map<String, List<Long>> durations = new TreeMap<>();
        Map<String, Long> bytes = new HashMap<>();
        for (Object[] r : sqlite("SELECT copyKind, \"end\" - start, bytes FROM CUPTI_ACTIVITY_KIND_MEMCPY")) {
            String kind = kinds.get(((Number) r[0]).intValue());
            durations.computeIfAbsent(kind, k -> new ArrayList<>()).add(((Number) r[1]).longValue());
            bytes.merge(kind, ((Number) r[2]).longValue(), Long::sum);
        }
        Table t = new DurationStatistics(nsys).memoryOperations();
        assertEquals(durations.size(), t.size());
        for (int r = 0; r < t.size(); r++) {
            String kind = (String) t.get(r, "kind");
            Figures f = Figures.of(durations.get(kind));
            f.assertRow(t, r, kind);
            assertEquals(bytes.get(kind), t.get(r, "bytes"), kind);
            assertEquals((double) bytes.get(kind) / f.total(), (Double) t.get(r, "gb_per_s"), 1e-12, kind);
        }
    }

    @Test
    void nsightUtilisationPerDeviceIncludingIdleOnes() throws Exception {
        Map<Long, List<long[]>> kernels = new HashMap<>();
        Map<Long, List<long[]>> copies = new HashMap<>();
        long w0 = Long.MAX_VALUE;
        long w1 = Long.MIN_VALUE;
        for (String table : new String[] {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY"}) {
            for (Object[] r : sqlite("SELECT deviceId, start, \"end\" FROM " + table)) {
                long[] iv = {((Number) r[1]).longValue(), ((Number) r[2]).longValue()};
                (table.endsWith("KERNEL") ? kernels : copies)
                        .computeIfAbsent(((Number) r[0]).longValue(), k -> new ArrayList<>()).add(iv);
                w0 = Math.min(w0, iv[0]);
                w1 = Math.max(w1, iv[1]);
            }
        }
        Utilisation u = new Utilisation(nsys);
        assertEquals(w0, u.defaultWindow()[0]);
        assertEquals(w1, u.defaultWindow()[1]);
        Table t = u.table(w0, w1, false);
        List<Object[]> gpus = sqlite("SELECT id, name FROM TARGET_INFO_GPU ORDER BY id");
        assertEquals(gpus.size(), t.size(), "every GPU of the export, idle ones included");
        for (Object[] g : gpus) {
            long id = ((Number) g[0]).longValue();
            String label = g[1] + " #" + id;
            int row = -1;
            for (int r = 0; r < t.size(); r++) {
                row = label.equals(t.get(r, "device")) ? r : row;
            }
            assertTrue(row >= 0, label + " in the utilisation table");
            List<long[]> k = kernels.getOrDefault(id, List.of());
            List<long[]> c = copies.getOrDefault(id, List.of());
            List<long[]> both = new ArrayList<>(k);
            both.addAll(c);
            long busy = union(both);
            assertEquals(w1 - w0, t.get(row, "window_ns"), label);
            assertEquals(busy, t.get(row, "busy_ns"), label);
            assertEquals(union(k), t.get(row, "compute_ns"), label);
            assertEquals(union(c), t.get(row, "copy_ns"), label);
            assertEquals(union(k) + union(c) - busy, t.get(row, "overlap_ns"), label);
            assertEquals(w1 - w0 - busy, t.get(row, "idle_ns"), label);
            assertEquals(100.0 * busy / (w1 - w0), (Double) t.get(row, "busy_pct"), 1e-9, label);
        }
    }

    @Test
    void nsightLaunchLatencyPerApiFunction() throws Exception {
        Map<String, List<Long>> latency = new TreeMap<>();
        for (String table : new String[] {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY"}) {
            for (Object[] r : sqlite("SELECT s.value, g.start - a.start FROM CUPTI_ACTIVITY_KIND_RUNTIME a "
                    + "JOIN " + table + " g ON g.correlationId = a.correlationId "
                    + "JOIN StringIds s ON s.id = a.nameId")) {
                // the store keeps a runtime call under its public name, without Nsight's versioned-entry suffix
                String api = ((String) r[0]).replaceFirst("_v[0-9]{4,}$", "");
                latency.computeIfAbsent(api, k -> new ArrayList<>()).add(((Number) r[1]).longValue());
            }
        }
        Table t = new LaunchLatency(nsys).table();
        assertEquals(latency.size(), t.size());
        for (int r = 0; r < t.size(); r++) {
            String api = (String) t.get(r, "api_function");
            Figures f = Figures.of(latency.get(api));
            assertEquals(f.count(), t.get(r, "count"), api);
            assertEquals(f.min(), t.get(r, "min_ns"), api);
            assertEquals(f.max(), t.get(r, "max_ns"), api);
            assertEquals(f.mean(), (Double) t.get(r, "mean_ns"), 1e-9 * f.mean(), api);
            assertEquals(f.p50(), t.get(r, "p50_ns"), api);
            assertEquals(f.p95(), t.get(r, "p95_ns"), api);
        }
    }

    // ---- StarPU ----

    /** A tasks.rec record of an executed task: name, worker, start and end in ns (the file's ms, exactly). */
    record RecTask(String name, int worker, long start, long end) {
    }

    static List<RecTask> tasksRec() throws Exception {
        List<RecTask> out = new ArrayList<>();
        for (String record : Files.readString(STARPU.resolve("tasks.rec")).split("\n\\s*\n")) {
            Map<String, String> f = new HashMap<>();
            for (String line : record.split("\n")) {
                int colon = line.indexOf(": ");
                if (colon > 0) {
                    f.put(line.substring(0, colon), line.substring(colon + 2).trim());
                }
            }
            if (f.containsKey("StartTime") && f.containsKey("EndTime") && f.containsKey("WorkerId")) {
                out.add(new RecTask(f.get("Name"), Integer.parseInt(f.get("WorkerId")), ms(f.get("StartTime")),
                        ms(f.get("EndTime"))));
            }
        }
        return out;
    }

    static long ms(String text) {
        return new BigDecimal(text).movePointRight(6).setScale(0, java.math.RoundingMode.HALF_EVEN)
                .longValueExact();
    }

    /** Worker number -> worker name, from paje.trace's PajeCreateContainer lines of type W ("7 time wN W parent NAME"). */
    static Map<Integer, String> workerNames() throws Exception {
        Map<Integer, String> names = new HashMap<>();
        for (String line : Files.readAllLines(STARPU.resolve("paje.trace"))) {
            String[] f = line.split("\\s+");
            if (f.length == 6 && f[0].equals("7") && f[3].equals("W") && f[2].matches("w\\d+")) {
                names.put(Integer.parseInt(f[2].substring(1)), f[5]);
            }
        }
        return names;
    }

    static String kind(String workerName) {
        return workerName.startsWith("CPU") ? "CPU"
                : workerName.startsWith("CUDA") || workerName.startsWith("HIP") ? "GPU" : "ACCELERATOR";
    }

    @Test
    void starpuCodeletStatisticsPerWorkerKind() throws Exception {
        Map<Integer, String> workers = workerNames();
        assertEquals(2, workers.size());
        Map<String, List<Long>> byKey = new TreeMap<>();
        for (RecTask t : tasksRec()) {
            byKey.computeIfAbsent(t.name() + "/" + kind(workers.get(t.worker())), k -> new ArrayList<>())
                    .add(t.end() - t.start());
        }
        Table t = new DurationStatistics(starpu).codelets();
        assertEquals(byKey.size(), t.size());
        assertTrue(byKey.keySet().containsAll(List.of("chol_potrf/CPU", "chol_trsm/CPU", "chol_syrk/CPU",
                "chol_gemm/CPU", "chol_gemm/ACCELERATOR")), byKey.keySet().toString());
        for (int r = 0; r < t.size(); r++) {
            String key = t.get(r, "codelet") + "/" + t.get(r, "worker_kind");
            assertNotNull(byKey.get(key), key);
            Figures.of(byKey.get(key)).assertRow(t, r, key);
        }
    }

    @Test
    void starpuUtilisationPerWorkerOverTheRun() throws Exception {
        Map<Integer, String> workers = workerNames();
        List<RecTask> tasks = tasksRec();
        long w0 = tasks.stream().mapToLong(RecTask::start).min().orElseThrow();
        long w1 = tasks.stream().mapToLong(RecTask::end).max().orElseThrow();
        Utilisation u = new Utilisation(starpu);
        assertEquals(w0, u.defaultWindow()[0]);
        assertEquals(w1, u.defaultWindow()[1]);
        Table devices = u.table(w0, w1, false);
        Table units = u.table(w0, w1, true);
        assertEquals(workers.size(), devices.size());
        assertEquals(workers.size(), units.size());
        for (var w : workers.entrySet()) {
            List<long[]> ivs = tasks.stream().filter(t -> t.worker() == w.getKey())
                    .map(t -> new long[] {t.start(), t.end()}).toList();
            long busy = union(ivs);
            for (Table t : List.of(devices, units)) {
                int row = -1;
                for (int r = 0; r < t.size(); r++) {
                    row = (w.getValue() + " #0").equals(t.get(r, "device")) ? r : row;
                }
                assertTrue(row >= 0, w.getValue());
                assertEquals(busy, t.get(row, "busy_ns"), w.getValue());
                assertEquals(busy, t.get(row, "compute_ns"), w.getValue());
                assertEquals(100.0 * busy / (w1 - w0), (Double) t.get(row, "busy_pct"), 1e-9);
                long gaps = 0;
                long prevEnd = w0;
                List<long[]> sorted = new ArrayList<>(ivs);
                sorted.sort((a, b) -> Long.compare(a[0], b[0]));
                for (long[] iv : sorted) {
                    gaps += iv[0] > prevEnd ? 1 : 0;
                    prevEnd = Math.max(prevEnd, iv[1]);
                }
                gaps += w1 > prevEnd ? 1 : 0;
                assertEquals(gaps, t.get(row, "idle_gaps"), w.getValue());
            }
        }
    }
}
