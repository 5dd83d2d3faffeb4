package org.hetscope.analysis.profiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hetscope.formats.nsys.NsysFormat;
import org.hetscope.model.FlowRule;
import org.hetscope.store.Store;
import org.hetscope.store.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Correlation, sync arrows, lanes and advice on the Nsight Systems fixture, against independent references. */
class NsysAnalysisTest {
    static final Path SQLITE = Stores.fixture("nsys/perlmutter-cloverleaf-cuda.sqlite");
    @TempDir
    static Path dir;
    static Store store;
    static ProfileData data;

    @BeforeAll
    static void load() throws Exception {
        store = Stores.importInto(dir, "nsys", new NsysFormat(), SQLITE);
        data = ProfileData.load(store);
    }

    @AfterAll
    static void close() throws Exception {
        store.close();
    }

    @Test
    void exactFlowsEqualTheReadersCorrelationFlows() {
        Set<String> reader = new HashSet<>();
        for (Object[] r : store.query("SELECT from_slice_id, to_slice_id FROM flow WHERE kind = 'launch'").rows()) {
            reader.add(r[0] + ">" + r[1]);
        }
        Set<String> computed = new HashSet<>();
        for (FlowMatcher.Match m : new FlowMatcher(FlowMatcher.DEFAULT_TOLERANCE_NS).match(data.calls,
                data.activities)) {
            assertEquals(FlowRule.CORRELATION, m.rule());
            computed.add(m.call().id() + ">" + m.activity().id());
        }
        assertEquals(1312 + 279, computed.size());
        assertEquals(reader, computed);
    }

    @Test
    void withoutCorrelationIdsLaunchOrderGuessesAndIsMarked() {
        List<Span> calls = strip(data.calls);
        List<Span> acts = strip(data.activities);
        Map<Long, Long> truth = new HashMap<>();
        for (FlowMatcher.Match m : new FlowMatcher(1000).match(data.calls, data.activities)) {
            truth.put(m.activity().id(), m.call().id());
        }
        List<FlowMatcher.Match> guessed = new FlowMatcher(1000).match(calls, acts);
        // brute force of the launch-order rule: in activity order, the first unmatched call of the right kind that
        // comes after the call paired with the previous activity on the same stream; none if that call started
        // later than activity start + tolerance
        Map<Long, Long> expected = new HashMap<>();
        Set<Long> taken = new HashSet<>();
        Map<String, Integer> lastOnStream = new HashMap<>();
        for (Span a : acts) {
            String stream = a.device() + "/" + a.stream();
            int from = lastOnStream.getOrDefault(stream, -1) + 1;
            for (int i = from; i < calls.size(); i++) {
                Span c = calls.get(i);
                boolean kind = a.isKernel() ? c.name().contains("Launch") : c.name().contains("Memcpy");
                if (kind && !taken.contains(c.id())) {
                    if (c.ts() <= a.ts() + 1000) {
                        taken.add(c.id());
                        expected.put(a.id(), c.id());
                        lastOnStream.put(stream, i);
                    }
                    break;
                }
            }
        }
        Map<Long, Long> actual = new HashMap<>();
        long right = 0;
        for (FlowMatcher.Match m : guessed) {
            assertEquals(FlowRule.PROCESS_ORDER, m.rule());
            actual.put(m.activity().id(), m.call().id());
            if (truth.get(m.activity().id()) == m.call().id()) {
                right++;
            }
        }
        assertEquals(expected, actual);
        assertEquals(truth.size(), guessed.size());
        assertTrue(right >= 0.99 * guessed.size(), right + " of " + guessed.size() + " guesses right");
        System.out.println("launch order on nsys fixture without correlation ids: " + right + " of "
                + guessed.size() + " guesses equal the correlation-id truth");
    }

    private static List<Span> strip(List<Span> in) {
        List<Span> out = new ArrayList<>();
        for (Span s : in) {
            out.add(new Span(s.id(), s.ts(), s.dur(), s.name(), s.category(), null, s.process(), s.device(),
                    s.host() ? null : s.stream(), s.trackId(), s.host(), s.args()));
        }
        return out;
    }

    @Test
    void syncArrowsPointAtTheLastEndingActivity() {
        List<SyncArrows.Arrow> arrows = new SyncArrows(1000).arrows(data.calls, data.activities, data.deviceSyncs);
        long syncCalls = data.calls.stream().filter(c -> c.name().startsWith("cudaDeviceSynchronize")).count();
        assertEquals(1312, syncCalls);
        for (SyncArrows.Arrow a : arrows) {
            // brute force over all activities
            Span best = null;
            for (Span x : data.activities) {
                if (x.end() <= a.sync().end() + 1000 && (best == null || x.end() > best.end())) {
                    best = x;
                }
            }
            assertEquals(best.end(), a.activity().end());
        }
        assertTrue(arrows.size() >= syncCalls - 1, arrows.size() + " arrows");
    }

    @Test
    void laneTreeHasDeviceStreamAndThreadLanesWithoutOverlaps() {
        LaneTree tree = LaneTree.of(store);
        Map<Integer, LaneTree.Lane> lanes = new HashMap<>();
        tree.lanes().forEach(l -> lanes.put(l.id(), l));
        assertTrue(tree.lanes().stream().anyMatch(l -> l.kind().equals("device")));
        assertTrue(tree.lanes().stream().anyMatch(l -> l.kind().equals("stream") && lanes.get(l.parent()).kind()
                .equals("device")));
        assertTrue(tree.lanes().stream().anyMatch(l -> l.kind().equals("transfer")));
        assertTrue(tree.lanes().stream().anyMatch(l -> l.kind().equals("thread")
                && lanes.get(l.parent()).name().equals("CUDA API")));
        Map<Long, long[]> spans = new HashMap<>();
        for (Object[] r : store.query("SELECT id, ts, ts + dur FROM slice").rows()) {
            spans.put((Long) r[0], new long[] {(Long) r[1], (Long) r[2]});
        }
        Map<String, List<long[]>> bySubLane = new HashMap<>();
        for (LaneTree.Placement p : tree.placements()) {
            if (!lanes.get(p.lane()).kind().equals("thread")) {
                bySubLane.computeIfAbsent(p.lane() + "/" + p.subLane(), k -> new ArrayList<>())
                        .add(spans.get(p.sliceId()));
            }
        }
        for (List<long[]> l : bySubLane.values()) {
            l.sort((x, y) -> Long.compare(x[0], y[0]));
            for (int i = 1; i < l.size(); i++) {
                assertTrue(l.get(i - 1)[1] <= l.get(i)[0], "overlap inside one sub-lane");
            }
        }
        assertEquals(store.scalarLong("SELECT count(*) FROM slice s JOIN track t ON t.id = s.track_id "
                + "WHERE t.kind IN ('stream', 'queue', 'device')")
                + store.scalarLong("SELECT count(*) FROM slice WHERE category = 'memcpy'")
                + store.scalarLong("SELECT count(*) FROM slice s JOIN track t ON t.id = s.track_id "
                + "WHERE t.kind NOT IN ('stream', 'queue', 'device')"), (long) tree.placements().size());
    }

    @Test
    void utilisationPerStreamListsTheStreamsThatCarryWork() throws Exception {
        Set<String> streams = new HashSet<>(raw("SELECT 'Stream ' || streamId FROM CUPTI_ACTIVITY_KIND_KERNEL UNION "
                + "SELECT 'Stream ' || streamId FROM CUPTI_ACTIVITY_KIND_MEMCPY"));
        org.hetscope.analysis.gpu.Utilisation u = new org.hetscope.analysis.gpu.Utilisation(store);
        long[] span = u.defaultWindow();
        Table t = u.table(span[0], span[1], true);
        Set<String> listed = new HashSet<>();
        for (int r = 0; r < t.rows().size(); r++) {
            listed.add((String) t.get(r, "unit"));
        }
        // the export's synchronisation row (CUPTI SYNCHRONIZATION) is not a stream and is not listed as one
        assertEquals(streams, listed);
    }

    @Test
    void advisorFindsPageableCopiesAndNoIdleGpu() throws Exception {
        long pageable = Long.parseLong(raw("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE srcKind = 0 "
                + "OR dstKind = 0").get(0));
        String busyGpu = raw("SELECT g.name || ' #' || g.id FROM TARGET_INFO_GPU g WHERE g.id IN "
                + "(SELECT deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL)").get(0);
        Table t = new Advisor(store).table();
        // Devices are named as the export names them (name and CUDA device id), not by a store id. The GPU that
        // ran the kernels is busy 88.7 % from its first to its last activity (hs_device_utilisation, as `gpu`
        // shows): no idle advice, though the host's 269 ms of start-up before the first kernel used to count as
        // idle; the three GPUs without activity get no advice either.
        assertTrue(store.scalarLong("SELECT count(*) FROM hs_device_utilisation WHERE level = 'device' AND device = ?"
                + " AND busy_pct > 88 AND busy_pct < 89", busyGpu) == 1, busyGpu);
        assertTrue(t.rows().stream().noneMatch(r -> r[0].equals("gpu-idle")),
                t.rows().stream().map(r -> r[0] + ": " + r[2]).toList().toString());
        boolean found = false;
        for (Object[] r : t.rows()) {
            if (r[0].equals("pageable-memory")) {
                assertTrue(((String) r[3]).startsWith(pageable + " copies"), (String) r[3]);
                found = true;
            }
        }
        assertTrue(found, "pageable advice: " + t.rows().stream().map(r -> r[0] + ": " + r[3]).toList());
        for (Object[] r : t.rows()) {
            assertTrue(r[4] != null && !((String) r[4]).isBlank(), "evidence for " + r[0]);
        }
    }

    /** The first column of a query over the raw export (sqlite-jdbc, independent of hetscope's readers), as text. */
    private static List<String> raw(String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + SQLITE.toAbsolutePath());
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
