package org.hetscope.analysis.gpu.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;
import org.hetscope.formats.chrome.ChromeTraceFormat;
import org.hetscope.formats.nsys.NsysFormat;
import org.hetscope.model.Progress;
import org.hetscope.store.Store;
import org.hetscope.store.StoreWriter;
import org.hetscope.store.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A controlled pair: kineto-cuda-sampled-rank0 against a copy rewritten here with Jackson, in which one kernel's
 * durations are tripled, one CPU operator is removed, one added and iteration 552 made longer. The diff must
 * find exactly those changes, with the figures recounted from the raw JSON; the fixture against itself gives
 * no change and p = 1 everywhere.
 */
class TraceDiffTest {
    static final Path FIXTURE = Path.of(System.getProperty("hetscope.root", "."))
            .resolve("../shared/fixtures/chrome/kineto-cuda-sampled-rank0.json.gz");
    static final String REMOVED_OP = "aten::scalar_tensor";
    static final String ADDED_OP = "hetscope_test::added";
    static final long ADDED_DUR_US = 40;
    static final int ADDED_COUNT = 3;
    static final long STEP_EXTRA_US = 250;

    @TempDir
    static Path dir;
    static Store a;
    static Store a2;
    static Store b;
    static String scaledKernel;
    static JsonNode original;

    @BeforeAll
    static void build() throws Exception {
        ObjectMapper json = new ObjectMapper();
        try (InputStream in = new GZIPInputStream(Files.newInputStream(FIXTURE))) {
            original = json.readTree(in);
        }
        // the kernel that runs most often (16 times), tripled
        Map<String, Integer> kernels = new TreeMap<>();
        for (JsonNode e : original.get("traceEvents")) {
            if ("kernel".equals(e.path("cat").asText()) && "X".equals(e.path("ph").asText())) {
                kernels.merge(e.get("name").asText(), 1, Integer::sum);
            }
        }
        scaledKernel = kernels.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        ObjectNode copy = original.deepCopy();
        ArrayNode events = (ArrayNode) copy.get("traceEvents");
        ArrayNode kept = json.createArrayNode();
        JsonNode step = null;
        for (JsonNode e : events) {
            String name = e.path("name").asText();
            if ("cpu_op".equals(e.path("cat").asText()) && REMOVED_OP.equals(name)) {
                continue;
            }
            ObjectNode o = (ObjectNode) e;
            if ("kernel".equals(e.path("cat").asText()) && scaledKernel.equals(name)) {
                o.put("dur", new BigDecimal(e.get("dur").asText()).multiply(BigDecimal.valueOf(3)));
            }
            if ("ProfilerStep#552".equals(name)) {
                o.put("dur", new BigDecimal(e.get("dur").asText()).add(BigDecimal.valueOf(STEP_EXTRA_US)));
                step = e;
            }
            kept.add(o);
        }
        // the added operator: on a thread of its own inside iteration 552, so it nests under nothing
        for (int i = 0; i < ADDED_COUNT; i++) {
            ObjectNode o = kept.addObject();
            o.put("ph", "X").put("cat", "cpu_op").put("name", ADDED_OP).put("pid", step.get("pid").asLong())
                    .put("tid", 777_777).put("ts", step.get("ts").asLong() + 100 * i).put("dur", ADDED_DUR_US + i);
        }
        copy.set("traceEvents", kept);
        Path changed = dir.resolve("changed.json");
        json.writeValue(changed.toFile(), copy);
        a = importTrace(FIXTURE, "a.duckdb");
        a2 = importTrace(FIXTURE, "a2.duckdb");
        b = importTrace(changed, "b.duckdb");
    }

    static Store importTrace(Path trace, String name) throws Exception {
        Path file = dir.resolve(name);
        StoreWriter w = StoreWriter.create(file);
        new ChromeTraceFormat().read(trace, w, Progress.NONE);
        w.commit();
        return Store.open(file);
    }

    @AfterAll
    static void close() {
        a.close();
        a2.close();
        b.close();
    }

    static long ns(JsonNode micros) {
        return new BigDecimal(micros.asText()).movePointRight(3).longValueExact();
    }

    /** Durations in ns of the original's complete events of one category and name, summed. */
    static long rawTotal(String category, String name) {
        long total = 0;
        for (JsonNode e : original.get("traceEvents")) {
            if ("X".equals(e.path("ph").asText()) && category.equals(e.path("cat").asText())
                    && name.equals(e.path("name").asText())) {
                total += ns(e.get("dur"));
            }
        }
        return total;
    }

    static Map<String, Object[]> byName(Table t) {
        Map<String, Object[]> m = new HashMap<>();
        for (Object[] r : t.rows()) {
            m.put(r[0] + "/" + r[1], r);
        }
        return m;
    }

    static Object cell(Table t, Object[] row, String column) {
        return row[t.column(column)];
    }

    @Test
    void findsExactlyTheChangesMade() {
        Table ops = new TraceDiff(a, b, 0.05).operations();
        Set<String> changed = new TreeSet<>();
        Set<String> moved = new TreeSet<>();
        for (Object[] r : ops.rows()) {
            if (!TraceDiff.SAME.equals(cell(ops, r, "status"))) {
                changed.add(r[0] + "/" + r[1] + "=" + cell(ops, r, "status"));
            }
            if ((Long) cell(ops, r, "change_ns") != 0) {
                moved.add(r[0] + "/" + r[1]);
            }
        }
        assertEquals(new TreeSet<>(Set.of("kernel/" + scaledKernel + "=" + TraceDiff.SLOWER,
                "cpu_op/" + REMOVED_OP + "=" + TraceDiff.REMOVED, "cpu_op/" + ADDED_OP + "=" + TraceDiff.ADDED)),
                changed);
        // the totals that moved: those three and the longer step (one slice a run: no test can call it changed)
        assertEquals(new TreeSet<>(Set.of("kernel/" + scaledKernel, "cpu_op/" + REMOVED_OP, "cpu_op/" + ADDED_OP,
                "annotation/ProfilerStep#552")), moved);

        Map<String, Object[]> rows = byName(ops);
        long kernelTotal = rawTotal("kernel", scaledKernel);
        Object[] k = rows.get("kernel/" + scaledKernel);
        assertEquals(kernelTotal, cell(ops, k, "a_total_ns"));
        assertEquals(3 * kernelTotal, cell(ops, k, "b_total_ns"));
        assertEquals(2 * kernelTotal, cell(ops, k, "change_ns"));
        assertEquals(200.0, (Double) cell(ops, k, "change_pct"), 1e-9);
        assertEquals(16L, cell(ops, k, "a_count"));
        assertEquals(16L, cell(ops, k, "b_count"));
        assertTrue((Double) cell(ops, k, "p_value") < 0.05);

        long removedTotal = rawTotal("cpu_op", REMOVED_OP);
        Object[] removed = rows.get("cpu_op/" + REMOVED_OP);
        assertEquals(removedTotal, cell(ops, removed, "a_total_ns"));
        assertNull(cell(ops, removed, "b_total_ns"));
        assertEquals(-removedTotal, cell(ops, removed, "change_ns"));
        assertNull(cell(ops, removed, "p_value"));

        long addedTotal = 0;
        for (int i = 0; i < ADDED_COUNT; i++) {
            addedTotal += (ADDED_DUR_US + i) * 1000;
        }
        Object[] added = rows.get("cpu_op/" + ADDED_OP);
        assertEquals(addedTotal, cell(ops, added, "b_total_ns"));
        assertEquals((long) ADDED_COUNT, cell(ops, added, "b_count"));
        assertEquals(0L, cell(ops, added, "a_count"));
        assertEquals(addedTotal, cell(ops, added, "change_ns"));

        // the cpu_op shares: signed parts of the category's absolute change
        long cpuChange = removedTotal + addedTotal;
        assertEquals(100.0 * addedTotal / cpuChange, (Double) cell(ops, added, "change_share_pct"), 1e-9);
        assertEquals(-100.0 * removedTotal / cpuChange, (Double) cell(ops, removed, "change_share_pct"), 1e-9);
        assertEquals(100.0, (Double) cell(ops, k, "change_share_pct"), 1e-9);

        // largest absolute change first
        long last = Long.MAX_VALUE;
        for (Object[] r : ops.rows()) {
            long c = Math.abs((Long) cell(ops, r, "change_ns"));
            assertTrue(c <= last);
            last = c;
        }
    }

    @Test
    void iterationsSideBySide() {
        Table it = new TraceDiff(a, b, 0.05).iterations();
        Map<Long, Object[]> rows = new HashMap<>();
        for (Object[] r : it.rows()) {
            assertEquals("host", r[1]);
            rows.put((Long) r[0], r);
        }
        assertEquals(Set.of(551L, 552L), rows.keySet());
        long step551 = rawTotal("user_annotation", "ProfilerStep#551");
        long step552 = rawTotal("user_annotation", "ProfilerStep#552");
        assertEquals(step551, cell(it, rows.get(551L), "a_dur_ns"));
        assertEquals(step551, cell(it, rows.get(551L), "b_dur_ns"));
        assertEquals(0L, cell(it, rows.get(551L), "change_ns"));
        assertEquals(step552, cell(it, rows.get(552L), "a_dur_ns"));
        assertEquals(step552 + STEP_EXTRA_US * 1000, cell(it, rows.get(552L), "b_dur_ns"));
        assertEquals(STEP_EXTRA_US * 1000, cell(it, rows.get(552L), "change_ns"));
    }

    @Test
    void iterationSidesOnRocm() throws Exception {
        // ROCm Kineto: ProfilerStep#1 on the host (user_annotation) and on the GPU (gpu_user_annotation), #2 on the
        // host only; expected durations read from the raw JSON
        Path rocm = FIXTURE.resolveSibling("kineto-rocm6.2-mi250-minitoy.json.gz");
        Map<String, Long> expected = new TreeMap<>();
        try (InputStream in = new GZIPInputStream(Files.newInputStream(rocm))) {
            for (JsonNode e : new ObjectMapper().readTree(in).get("traceEvents")) {
                String name = e.path("name").asText();
                if (name.matches("ProfilerStep#\\d+")) {
                    String side = e.path("cat").asText().startsWith("gpu_") ? "device" : "host";
                    expected.merge(name.substring(name.indexOf('#') + 1) + "/" + side, ns(e.get("dur")), Long::sum);
                }
            }
        }
        assertEquals(Set.of("1/host", "1/device", "2/host"), expected.keySet());
        try (Store r1 = importTrace(rocm, "rocm1.duckdb"); Store r2 = importTrace(rocm, "rocm2.duckdb")) {
            Table it = new TraceDiff(r1, r2, 0.05).iterations();
            Map<String, Long> got = new TreeMap<>();
            for (Object[] r : it.rows()) {
                got.put(r[0] + "/" + r[1], (Long) cell(it, r, "a_dur_ns"));
                assertEquals(cell(it, r, "a_dur_ns"), cell(it, r, "b_dur_ns"));
                assertEquals(0L, cell(it, r, "change_ns"));
            }
            assertEquals(expected, got);
        }
    }

    @Test
    void utilisationSideBySide() {
        Table u = new TraceDiff(a, b, 0.05).utilisation();
        assertEquals(1, u.size());
        Object[] r = u.rows().get(0);
        Object[] la = a.query(null, "SELECT busy_ns, idle_ns FROM hs_device_utilisation WHERE level = 'device'")
                .rows().get(0);
        Object[] lb = b.query(null, "SELECT busy_ns, idle_ns FROM hs_device_utilisation WHERE level = 'device'")
                .rows().get(0);
        assertEquals(la[0], cell(u, r, "a_busy_ns"));
        assertEquals(lb[0], cell(u, r, "b_busy_ns"));
        assertEquals(la[1], cell(u, r, "a_idle_ns"));
        assertEquals(lb[1], cell(u, r, "b_idle_ns"));
        assertEquals((Long) lb[0] - (Long) la[0], cell(u, r, "busy_change_ns"));
        // the tripled kernel keeps the GPU busy longer
        assertTrue((Long) cell(u, r, "busy_change_ns") > 0);
    }

    @Test
    void anNsightExportAgainstItselfChangesNothing() throws Exception {
        Path nsys = FIXTURE.getParent().resolveSibling("nsys/perlmutter-cloverleaf-cuda.sqlite");
        Store[] s = new Store[2];
        for (int i = 0; i < 2; i++) {
            Path file = dir.resolve("nsys" + i + ".duckdb");
            StoreWriter w = StoreWriter.create(file);
            new NsysFormat().read(nsys, w, Progress.NONE);
            w.commit();
            s[i] = Store.open(file);
        }
        try (Store x = s[0]; Store y = s[1]) {
            TraceDiff diff = new TraceDiff(x, y, 0.05);
            Table ops = diff.operations();
            assertTrue(ops.size() > 5);
            for (Object[] r : ops.rows()) {
                assertEquals(TraceDiff.SAME, cell(ops, r, "status"));
                assertEquals(0L, cell(ops, r, "change_ns"));
                assertEquals(1.0, cell(ops, r, "p_value"));
            }
            Table u = diff.utilisation();
            assertTrue(u.size() >= 1);
            for (Object[] r : u.rows()) {
                assertEquals(0L, cell(u, r, "busy_change_ns"));
                assertEquals(cell(u, r, "a_busy_ns"), cell(u, r, "b_busy_ns"));
            }
            assertEquals(0, diff.iterations().size());
        }
    }

    @Test
    void aFixtureAgainstItselfChangesNothing() {
        TraceDiff diff = new TraceDiff(a, a2, 0.05);
        Table ops = diff.operations();
        assertTrue(ops.size() > 100, "rows: " + ops.size());
        for (Object[] r : ops.rows()) {
            assertEquals(TraceDiff.SAME, cell(ops, r, "status"));
            assertEquals(0L, cell(ops, r, "change_ns"));
            assertEquals(1.0, cell(ops, r, "p_value"));
            assertEquals(0.0, cell(ops, r, "change_share_pct"));
            assertEquals(cell(ops, r, "a_total_ns"), cell(ops, r, "b_total_ns"));
        }
        for (Object[] r : diff.iterations().rows()) {
            assertEquals(0L, r[4]);
        }
        Table u = diff.utilisation();
        for (Object[] r : u.rows()) {
            assertEquals(0L, cell(u, r, "busy_change_ns"));
            assertEquals(0L, cell(u, r, "idle_change_ns"));
        }
    }
}
